/* elab.h - state shared by the files of pass 2 (elaboration).
 *
 * elaborate.c drives; resolve.c collects declarations and derives probes
 * from probe points and aliases; bind.c binds symbols and calls; types.c
 * infers and checks types; listing.c prints -p2.  Nothing outside pass 2
 * includes this header.
 */
#ifndef ELAB_H
#define ELAB_H

#include "elab/program.h"
#include "session.h"

struct elab {
	struct session *s;
	struct program *prog;
	struct vec globals;	/* struct sym *: every declared global */
	struct vec funcs;	/* struct func *: every declared function */
	struct vec aliases;	/* struct probe_alias * */
	struct vec func_work;	/* struct func *: reached, to be bound */
	struct vec tapset_probes_done;	/* struct file_ast *: probes derived */

	/* the scope being bound (bind.c) */
	struct vec *locals;	/* struct sym * */
	struct vec *params;	/* struct sym *, or NULL in a probe */
	const struct src_file *file;
	struct vec *used, *written, *read;	/* globals of the current body */
	struct vec *callees;	/* functions called from the current body */
	const struct exp *discarded[2];	/* bind.c: exps whose value is unused */
	int report;		/* types.c: report mismatches this round */
	int changed;		/* types.c: something was inferred */
	int unreached;		/* types.c: in a function -u no longer calls,
				   which reports no unresolved type */
	struct vec globals_before_split;	/* -u: struct sym *, the globals
					   used before void expressions were
					   split (elaborate.c) */
	struct vec autocast_failed;	/* autocast.c: typed accesses whose
					   walk failed, reported if kept */
};

/* resolve.c */
void elab_collect(struct elab *el);
void elab_derive_probes(struct elab *el);
int elab_derive_tapset_probes(struct elab *el);
struct sym *elab_find_global(struct elab *el, const char *name,
			     const struct src_file *from);

/* entry.c */
void elab_expand_entries(struct elab *el);
/* Is C @defined(…), or its negation: a guard whose dead side targets.c
 * drops unresolved (stap keeps 0 && (1/z) as it is)? */
int elab_is_defined_guard(const struct exp *c);

/* What a probe's body takes at its function's entry: nothing, only
 * parameters named in a .return probe (captured as stap does, quietly
 * here), or an @entry(...) too.  -L lists such a probe as stap does: its
 * synthesized .call probe. */
enum elab_entry_use { ENTRY_NONE, ENTRY_CAPTURED, ENTRY_EXPLICIT };
enum elab_entry_use elab_entry_use(struct session *s,
				   const struct derived_probe *dp);

/* bind.c */
void elab_bind_probe(struct elab *el, struct derived_probe *dp);
void elab_bind_func(struct elab *el, struct func *f);
void elab_close_globals(struct elab *el);
void elab_rescan(struct elab *el);
void elab_rescan_marking(struct elab *el);
void elab_drop_unreached(struct elab *el);
void elab_drop_hidden_overloads(struct elab *el);

/* autocast.c: value->member on values that carry a C type */
void elab_resolve_autocasts(struct elab *el);
/* An autocast access left unresolved that survived the optimizer: its
 * error (the walk's, or its value's unknown type). */
void elab_report_autocast(struct elab *el, struct exp *e);

/* targets.c */
void elab_resolve_targets(struct elab *el);
/* The target variables left unresolved that survived the optimizer: their
 * errors (targets.c). */
void elab_report_unresolved_targets(struct elab *el);

/* types.c */
void elab_infer_types(struct elab *el);
void elab_infer_types_quietly(struct elab *el);	/* no reports */

/* dumpinfo.c */
int elab_dump_info(struct elab *el);

/* foreachcheck.c */
void elab_check_foreach(struct elab *el);
/* privilege.c: what --privilege=stapusr may not use */
void elab_check_privilege(struct elab *el);

/* statcheck.c */
void elab_check_hists(struct elab *el);
/* aritycheck.c: each variable's uses agree on its number of indexes,
 * before the optimizer drops code (as stap checks while binding). */
void elab_check_arity(struct elab *el);
/* types.c: the error for a variable used with N indexes at LOC whose
 * arity was FIRST at FIRST_LOC (both checks report it alike). */
void elab_arity_error(struct elab *el, const struct sym *sym, int n,
		      struct loc loc, int first, struct loc first_loc);

/* printcheck.c */
int printcheck_program(struct session *s, struct program *p);

/* opt.c */
void elab_optimize(struct elab *el);
int elab_reduce_void(struct elab *el);
void elab_fold_defined(struct elab *el);

/* listing.c */
void elab_print_program(struct elab *el);
int elab_list_probes(struct session *s, struct program *p);
int elab_synthesized_probes(struct session *s, struct program *p);
int elab_cond_reads_globals(struct exp *cond);

struct tvar_fn;

/* tvarfns.c: which of the functions stap makes for DWARF accesses it
 * keeps (program.accessors), and the name it gives FN. */
void elab_keep_tvar_fns(struct elab *el);
const char *elab_tvar_fn_name(struct arena *a, const struct tvar_fn *fn);
/* -v: FN's body as stap prints it (nothing where we cannot say); E as
 * stap's body shows it, a call, when it is a DWARF access (1), else 0. */
void elab_print_tvar_fn_body(FILE *f, const struct tvar_fn *fn);
int elab_tvar_fn_exp(FILE *o, const struct exp *e);

/* stable.c: stable calls computed once per scope, into locals. */
void elab_hoist_stable(struct elab *el);

/* ppwild.c: the concrete points (pushed to OUT) of FAM's shapes that POINT,
 * with a wildcard in a component name, matches; 0 when it has none. */
int ppwild_expand(struct session *s, const struct probe_family *fam,
		  const struct probe_point *pt, struct vec *out);
/* ppwild.c: might POINT, whose first component names FAM, be one of its
 * shapes (a wildcard in the first component tries every family)? */
int ppwild_fits(const struct probe_family *fam, const struct probe_point *pt);

/* types.c: a value type's name in listings ("long", "string", …) */
const char *elab_type_name(enum type t);

#endif
