/* ast_walk.h - generic pre-order walks over statements and expressions.
 *
 * For passes that care about a few node kinds and want to reach every
 * node: the callbacks see each node before its children.  A callback that
 * returns nonzero skips that node's children.  walk_slot reaches each
 * statement through the slot that holds it, so leave can replace it once
 * its children have been walked.
 */
#ifndef AST_WALK_H
#define AST_WALK_H

#include "ast/ast.h"

struct walker {
	int (*exp)(struct walker *w, struct exp *e);	/* may be NULL */
	int (*stmt)(struct walker *w, struct stmt *st);	/* may be NULL */
	/* after a statement's children (walked or skipped): may set *slot */
	void (*leave)(struct walker *w, struct stmt **slot);	/* may be NULL */
	void *arg;
};

void walk_exp(struct walker *w, struct exp *e);
void walk_stmt(struct walker *w, struct stmt *st);
void walk_slot(struct walker *w, struct stmt **slot);

#endif
