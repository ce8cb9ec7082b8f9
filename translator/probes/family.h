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
#include "dwarf/dw_file.h"
#include "dwarf/dw_index.h"
#include "dwarf/dw_loc.h"
#include "dwarf/dw_site.h"
#include "dwarf/dw_types.h"
#include "dwarf/dw_vars.h"
#include "dwarf/elf_user.h"
#include "elab/program.h"
#include "elab/targets.h"
#include "elab/tvar.h"
#include "emit/emit.h"
#include "kernel/btf.h"
#include "kernel/ctype_btf.h"
#include "kernel/dwarfdecl.h"
#include "kernel/kernel.h"
#include "kernel/ksyms.h"
#include "kernel/modtree.h"
#include "kernel/tpcat.h"
#include "session.h"
#include "util/fileio.h"
#include "util/similar.h"

/* The families (families.c's table lists them). */
extern const struct probe_family family_lifecycle, family_never;
extern const struct probe_family family_timer, family_kprobe;
extern const struct probe_family family_procfs, family_perf;
extern const struct probe_family family_tracepoint, family_netfilter;
extern const struct probe_family family_dwarf, family_process, family_uprobe;
extern const struct probe_family family_kmark;

/* perf.c: timer.profile[.tick], a perf event in stap 4.8 (timer.c's
 * resolve hands it over). */
int timer_profile_resolve(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp);

/* dwarf_vars.c: the target variables of DWARF probes, whose data starts
 * with their struct dw_site; the callbacks of struct probe_family
 * (target_var, target_assign, entry_target, list_vars, emit_decls) for
 * the dwarf family. */
int dwarf_vars_target(struct session *s, struct derived_probe *dp,
		      struct exp *e, int quiet);
int dwarf_vars_entry_target(struct session *s, const struct derived_probe *ret,
			    const char *name);
int dwarf_vars_atvar(struct session *s, struct derived_probe *dp,
		     struct exp *e, int quiet);
int dwarf_vars_assign(struct session *s, struct derived_probe *dp,
		      struct exp *e, enum op op);
void dwarf_vars_list(struct session *s, struct derived_probe *dp,
		     struct strbuf *out);
void dwarf_vars_emit_decls(struct emit *e, struct vec *probes);
/* entry_probe for a DWARF .return probe: a copy of RET (its family data
 * of DATA_SIZE bytes, the site first) on the function's entry, ".call". */
struct derived_probe *dwarf_vars_entry_probe(struct session *s,
					     const struct derived_probe *ret,
					     size_t data_size);

/* sdt.c: the SDT operand ARG ("-4@%edi") of a marker in EU as the C of
 * its raw value in a uprobe handler; *SIZE gets its size, negative when
 * signed.  NULL for an operand this implementation cannot read. */
const char *sdt_operand_c(struct session *s, const struct elf_user *eu,
			  const char *arg, int *size);
/* The same for a marker in kernel module MODULE (kmark.c), read in a
 * kprobe handler (a symbol relative to %rip is the loaded module's:
 * kernel_modsym_c). */
const char *sdt_kernel_operand_c(struct session *s, const char *module,
				 const char *arg, int *size);

/* common.c */

/* A return probe RET's entry probe: RET's point on the function's entry
 * (its components up to "return", then "call"), with the family's DATA
 * (entry_probe's work, the data the family's own). */
struct derived_probe *family_entry_copy(struct session *s,
					const struct derived_probe *ret,
					void *data);

/* Report "probe point 'PT': WHY" at component C (sema.probe-mismatch);
 * returns -1, a resolve callback's error. */
int family_mismatch(struct session *s, const struct probe_point *pt,
		    const struct pp_comp *c, const char *why);

/* C's string argument, copied into the arena; NULL if it has none. */
const char *family_str_arg(struct session *s, const struct pp_comp *c);

/* A user file (program or library) a probe lies in: its symbols and
 * unwind data go into the module, as stap packs them. */
void family_probed_file(struct session *s, const char *path);

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

/* SDT markers, in programs (uprobe.c) and kernel modules (kmark.c): the
 * glob for a marker NAME (a '-' stands for "__", as in stap); the number
 * of operands in a note's ARGS and the Nth (1-based) of them (NULL:
 * none); E resolved to the string VALUE ($$name, $$provider). */
const char *sdt_mark_pattern(struct session *s, const char *name);
int sdt_nargs(const char *args);
const char *sdt_arg(struct session *s, const char *args, int n);
int sdt_string_var(struct session *s, struct exp *e, const char *value);

/* A marker's target variables: $$name, $$provider, $argN (N up to NARGS,
 * the value from ARG, NULL when it cannot be read), $$parms and $$vars. */
struct sdt_marker {
	const char *name, *provider;
	int nargs;
	struct tvar *(*arg)(struct session *s, struct derived_probe *dp, int n);
};

/* Resolve E in marker probe DP: 0, -1 after reporting, -2 when E is none
 * of M's variables (or one that cannot be read): the caller reports it
 * in its words. */
int sdt_marker_var(struct session *s, struct derived_probe *dp,
		   struct exp *e, int quiet, const struct sdt_marker *m);

#endif
