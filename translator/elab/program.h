/* program.h - the resolved program: what pass 2 hands to pass 3.
 *
 * Elaboration (elaborate.c, resolve.c, types.c) turns the parsed files into
 * a program: concrete probes after alias expansion, the functions and
 * globals they reach, every symbol bound and typed.  Translation (emit*.c)
 * only reads it.  Each probe family (one file each under probes/) is one
 * record of callbacks.
 */
#ifndef PROGRAM_H
#define PROGRAM_H

#include "ast/ast.h"

struct session;
struct emit;
struct derived_probe;

#define MAX_ARITY 9		/* index columns of an array */

enum sym_kind { SYM_GLOBAL, SYM_LOCAL, SYM_PARAM };

/* A variable.  Globals have one sym for the whole program; locals and
 * parameters one per probe or function. */
struct sym {
	enum sym_kind kind;
	const char *name;	/* as written (globals: mangled if private) */
	struct loc loc;		/* declaration, or first use of a local */
	enum type type;		/* value type */
	struct loc type_loc;	/* where the type was first inferred */
	int arity;		/* 0 scalar, N indexes, -1 not yet known */
	enum type index_types[MAX_ARITY];
	struct loc arity_loc;	/* where arity was first seen */
	struct loc index_locs[MAX_ARITY];	/* where each index type was
						   first inferred */
	struct loc use_loc;	/* first use whose type stayed unknown */
	struct global *decl;	/* SYM_GLOBAL: its declaration */
	int index;		/* position among its owner's symbols */
	int mention;		/* globals: rank of the first mention before
				   optimization (elaborate.c), 0 unranked */
	unsigned read : 1, written : 1, is_foreach_key : 1;
	unsigned read_as_bound : 1;	/* locals: read before any folding
					   (elaborate.c); stap elides their
					   assignments silently */
};

/* One concrete probe: a probe point resolved by a family, with the body
 * that runs there (alias prologues and epilogues folded in). */
struct derived_probe {
	const struct probe_family *family;
	struct loc loc;			/* the user's probe point */
	struct loc elide_loc;		/* where stap reports the probe as a
					   whole: `probe`, or the user's point
					   if it went through an alias */
	const char *pp;			/* pp(): the resolved point, canonical */
	const char *user_pp;		/* -p2: the point as the user wrote it,
					   after the aliases it went through */
	const struct probe *user_probe;	/* -p2: whose points end user_pp;
					   NULL: user_pp is the family's,
					   shown with the condition */
	size_t user_text_len;		/* -p2: their length there */
	const char *list_pp;		/* -l/-L: the first alias name it went
					   through (with the user's suffix), or
					   the point as resolved (no defaults
					   added); NULL: pp */
	const char *list_name;		/* -l/-L: the name it is listed by when
					   not list_pp's (a built-in point a
					   wildcard suffix carried an alias
					   to, with that point's ? or !) */
	const char *timing_from;	/* -t: the points it came from, as
					   stap's probe hit report shows them */
	unsigned list_mark : 1;		/* -l: print the user's `?` after it */
	unsigned from_alias : 1;	/* it came through a probe alias */
	unsigned kernel_symbols : 1;	/* on a kernel function found through
					   DWARF: as stap, the module carries
					   the kernel's symbols (ksymtab.c) */
	unsigned mark_optional : 1, mark_sufficient : 1; /* -p2: its last
					   point's ? and ! */
	unsigned entry_call : 1;	/* entry.c: the .call probe taking the
					   next probe's @entry values (stap
					   expands it after that probe) */
	const struct exp *point_cond;	/* pp(): that point's own if (…) */
	struct vec comps;		/* struct pp_comp *: resolved components */
	struct stmt *body;		/* ST_BLOCK */
	struct vec prelude;		/* struct stmt *: what the family puts
					   first in the body (a .callee's
					   caller checks) */
	struct exp *cond;		/* arming condition (ANDed), or NULL */
	int nstable;			/* stable.c: the body's first statements
					   compute stable calls; -p2 lists them
					   before the condition */
	struct vec locals;		/* struct sym * */
	struct vec globals_used;	/* struct sym *: read or written here,
					   through functions too */
	struct vec globals_written;	/* struct sym * subset */
	struct vec globals_read;	/* struct sym * subset: read (a delete
					   reads too; x <<< v does not) */
	struct vec callees;		/* struct func *: called directly */
	int index;			/* position in program.probes */
	void *data;			/* the family's own data */
	const char *kmodule;		/* the kernel module its point lies in
					   ("null_blk"; wildcards allowed), or
					   NULL: the kernel itself.  The module
					   records it (emit/kmodules.c) and the
					   testbed guest loads it first */
	int64_t num_arg;		/* e.g. begin(N) priority, timer period */
	int optional;			/* resolved under `?` or `!`: a family
					   reports no error for "nothing here",
					   it returns 0 */
	const struct probe_point *point; /* -q: the point resolved */
	const struct exp *user_cond;	/* -q: the user point's if (…) */
	struct vec chain;		/* -q: const struct vec * of points:
					   each alias's on the way, then the
					   user probe's */
};

/* A probe family: begin/end/error/never, timer, kprobe, tracepoint, …
 * One record per family; a family lives in one file under probes/. */
struct probe_family {
	const char *name;	/* first component: "begin", "timer", … */
	/* Does POINT (components already alias-free) belong to this family?
	 * Returns 1 and fills DP on a match, 0 for no match (so another
	 * alternative may be tried), -1 after reporting an error. */
	int (*resolve)(struct session *s, const struct probe_point *point,
		       struct derived_probe *dp);
	/* Emit the C that registers and unregisters all probes of the family
	 * (PROBES: struct derived_probe *, in program order). */
	void (*emit)(struct emit *e, struct vec *probes);
	/* Optional: C the family's probe bodies need (say, its runtime
	 * file, for its variables' accessors), emitted before the bodies. */
	void (*emit_decls)(struct emit *e, struct vec *probes);
	/* Optional: a note -p2 shows in a comment after DP's point (stap's
	 * " name = f" for kprobes). */
	const char *(*listing_note)(struct session *s,
				    const struct derived_probe *dp);
	/* Context functions that make sense in this family's probes. */
	const char *kind;	/* "begin", "timer", … for listing */
	/* probe_type(): stap's name for DP's kind of low-level probe
	 * ("kprobe", "hrtimer", …). */
	const char *(*probe_type)(const struct derived_probe *dp);
	/* Optional: DP's pp() at run time when it is not its point (a
	 * kprobe-based alias standing for a stap DWARF probe names it as
	 * stap does: kernel.function("NAME@FILE:LINE")); NULL: the point. */
	const char *(*runtime_pp)(struct session *s,
				  const struct derived_probe *dp);
	/* stap 4.8 leaves stable calls (execname() …) in its probe bodies
	 * where they are (its DWARF probes): stable.c does not hoist them. */
	unsigned keeps_stable_calls : 1;
	/* Its handlers run through the probe table (begin, end, error:
	 * interruptible, runtime/stp_probe.c's _stp_probe_run), or never:
	 * no hit entry (stp_run_N) is emitted for its probes. */
	unsigned no_hit_entry : 1;

	/* ---- optional: wildcards and target variables (tracepoints) ---- */
	/* The concrete points a wildcard POINT stands for (struct
	 * probe_point *, pushed to OUT), each then given to resolve.  Returns
	 * 1, 0 when POINT is not this family's, -1 after reporting an error
	 * (including "no match" when POINT is not optional). */
	int (*expand)(struct session *s, const struct probe_point *point,
		      struct vec *out);
	/* Resolve the target expression E (EX_TARGET, EX_TARGET_LIST) in
	 * probe DP: set E->type and E->u.target.resolved.  Returns 0, or -1
	 * when it does not resolve (reported unless QUIET, for @defined),
	 * or -2 when DP has no target variables at all (the caller reports
	 * it as for a family without them). */
	int (*target_var)(struct session *s, struct derived_probe *dp,
			  struct exp *e, int quiet);
	/* Optional, -L of a probe reached through aliases: append the
	 * locals stap synthesizes for the target variables the aliases'
	 * bodies read (before the aliases' own locals). */
	void (*list_alias_vars)(struct session *s, struct derived_probe *dp,
				struct strbuf *out);
	/* -L: append " $name:type" for each target variable of DP. */
	void (*list_vars)(struct session *s, struct derived_probe *dp,
			  struct strbuf *out);
	/* --dump-probe-types: the point patterns the family accepts, as
	 * "timer.ms(number)"; NULL-terminated.  NULL: its table names. */
	const char *const *patterns;
	/* Optional: more shapes wildcards in component names may match
	 * (ppwild.c), beyond the patterns; NULL-terminated. */
	const char *const *shapes;
	/* Optional: points the family resolves itself under an alias's name
	 * (timer.profile.tick under the alias timer.profile), which that
	 * alias does not take as its name with a suffix; NULL-terminated. */
	const char *const *below_aliases;
	/* Writing the target expression E (OP: OP_ASSIGN, OP_INC…) in
	 * probe DP, for families whose variables can be written (procfs's
	 * $value): like target_var, and E->u.target.resolved says how
	 * (tvar's assign_fn/append_fn).  Without it writes are refused. */
	int (*target_assign)(struct session *s, struct derived_probe *dp,
			     struct exp *e, enum op op);
	/* Optional: for a return probe RET, a new probe on the entry of the
	 * same point (its pp ending in ".call"; body, locals unset), where
	 * entry.c evaluates RET's @entry expressions; NULL otherwise. */
	struct derived_probe *(*entry_probe)(struct session *s,
					     const struct derived_probe *ret);
	/* Optional: in the return probe RET, is $NAME a value the function
	 * had at entry (a parameter, which stap reads there)?  entry.c then
	 * takes it as @entry($NAME). */
	int (*entry_target)(struct session *s, const struct derived_probe *ret,
			    const char *name);
	/* Optional: resolve @var E without a module in probe DP (from the
	 * probed function's unit): as target_var, 0 or -1. */
	int (*atvar)(struct session *s, struct derived_probe *dp,
		     struct exp *e, int quiet);
	/* Optional, -p2: append " name:type" for each local stap makes of
	 * DP's target variables (listed before the body's locals). */
	void (*listing_locals)(struct session *s, struct derived_probe *dp,
			       struct strbuf *out);
};

/* A function as called: the user's declaration with its symbols. */
struct func_info {
	struct func *func;
	struct vec params;	/* struct sym * */
	struct vec locals;	/* struct sym * (params excluded) */
	struct vec globals_used;
	struct vec globals_written;
	struct vec globals_read;
	struct vec callees;	/* struct func * */
	struct func *next_overload;	/* same name and arity, tried after
					   this one does `next` */
	int tried;			/* bind.c: some call may run it (not
					   hidden by an overload before it
					   that never does `next`) */
	int effects;			/* opt.c: has side effects? */
	int index;
};

struct program {
	struct vec probes;	/* struct derived_probe * */
	struct vec funcs;	/* struct func * reached from a probe */
	struct vec declared_funcs;	/* struct func *: every one declared,
					   in order (overload numbers) */
	struct vec globals;	/* struct sym * of used globals */
	struct vec accessors;	/* struct tvar_fn *: the functions stap
				   keeps for DWARF accesses (tvarfns.c) */
	struct vec embeds;	/* struct embedded_code *: top-level C */
	int max_nesting;	/* deepest static call chain (+ recursion) */
	int autocast_writes;	/* guru writes through autocast accesses
				   (runtime/stp_dwarf.h writes them) */
	int nsynthesized;	/* the probes stap adds: a begin arming
				   conditions, an end per displayed global */
};

/* The table of probe families (families.c). */
const struct probe_family *family_lookup(const char *name);
/* The next family after PREV (NULL: the first) sharing the first
 * component NAME ("kernel" is kernel.trace, kernel.function, …). */
const struct probe_family *family_lookup_next(const char *name,
					      const struct probe_family *prev);
void family_list(void (*fn)(const struct probe_family *f, void *arg),
		 void *arg);
/* Entry I of the table: its first component (NULL past its end). */
const char *family_name_at(size_t i);

/* The probes stap synthesizes (listing.c): a begin arming the conditions
 * that read globals, and an end displaying each global written but never
 * read. */
int elab_needs_arming_probe(const struct program *p);
int elab_displayed_at_end(const struct session *s, const struct sym *sym);

/* -q: add the program's probes, functions, globals and probe locals to
 * stap's tapset coverage database, $SYSTEMTAP_DIR/RELEASE.db (coverage.c;
 * P NULL after -p1: the database and its table only).  0, or -1 after
 * a message. */
int elab_write_coverage(struct session *s, const struct program *p);

/* Helpers for families. */
const char *pp_format(struct session *s, struct vec *comps);

#endif
