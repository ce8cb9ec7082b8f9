/* family.h - what a probe family file under probes/ sees of the translator.
 *
 * A family resolves its probe points in pass 2 (elab/program.h's struct
 * probe_family: its callbacks and their return conventions), reads target
 * variables through elab/tvar.h, learns about the target kernel through
 * kernel/, and writes its tables and start/stop functions in pass 3
 * (emit/emit.h).  A family file includes this header and system headers,
 * nothing else.  common.c holds what several families do the same way.
 */
#ifndef FAMILY_H
#define FAMILY_H

#include "ast/ast_new.h"
#include "ast/ast_walk.h"
#include "dwarf/elf_user.h"
#include "elab/program.h"
#include "elab/tvar.h"
#include "emit/emit.h"
#include "kernel/btf.h"
#include "kernel/ctype_btf.h"
#include "kernel/dwarfdecl.h"
#include "kernel/kernel.h"
#include "kernel/ksyms.h"
#include "kernel/tpcat.h"
#include "session.h"
#include "util/similar.h"

/* The families (families.c's table lists them). */
extern const struct probe_family family_lifecycle, family_never;
extern const struct probe_family family_timer, family_kprobe;
extern const struct probe_family family_procfs, family_perf;
extern const struct probe_family family_tracepoint, family_netfilter;
extern const struct probe_family family_uprobe;

/* perf.c: timer.profile[.tick], a perf event in stap 4.8 (timer.c's
 * resolve hands it over). */
int timer_profile_resolve(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp);

/* sdt.c: the SDT operand ARG ("-4@%edi") of a marker in EU as the C of
 * its raw value in a uprobe handler; *SIZE gets its size, negative when
 * signed.  NULL for an operand this implementation cannot read. */
const char *sdt_operand_c(struct session *s, const struct elf_user *eu,
			  const char *arg, int *size);

/* common.c */

/* Report "probe point 'PT': WHY" at component C (sema.probe-mismatch);
 * returns -1, a resolve callback's error. */
int family_mismatch(struct session *s, const struct probe_point *pt,
		    const struct pp_comp *c, const char *why);

/* C's string argument, copied into the arena; NULL if it has none. */
const char *family_str_arg(struct session *s, const struct pp_comp *c);

/* FAM's stp_NAME_start(), returning the C call START, and stp_NAME_stop(),
 * running the C call STOP (NAME is FAM's name): the module's start and
 * stop call them in the family table's order. */
void family_emit_start_stop(struct emit *e, const struct probe_family *fam,
			    const char *start, const char *stop);

/* The same for the usual runtime pair, RT_start(TABLE, N) and
 * RT_stop(TABLE, N), over the family's table of N records. */
void family_emit_table_start_stop(struct emit *e,
				  const struct probe_family *fam,
				  const char *rt, const char *table, int n);

/* @entry: a probe on the entry of return probe RET's point, its pp
 * ending in ".call" instead of ".return", with the family's DATA; its
 * body and locals unset (elab/entry.c fills them). */
struct derived_probe *family_entry_clone(struct session *s,
					 const struct derived_probe *ret,
					 void *data);

#endif
