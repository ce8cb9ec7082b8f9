/* session.h - everything one run of stap knows: options, inputs, results.
 *
 * cmdline.c fills the options; each pass reads them and stores its result
 * in the field it owns (named below).  The driver (main.c) runs the passes.
 */
#ifndef SESSION_H
#define SESSION_H

#include "util/arena.h"
#include "ast/ast.h"
#include "util/diag.h"

struct kconfig;

struct arg_use {		/* $N or @N scanned in a tapset file */
	const struct src_file *file;
	int n;
};

struct kv {			/* NAME=VALUE pairs: -D, -G, -B */
	const char *name, *value;
};

/* --privilege levels, as stap encodes them in a module (.stap_privilege;
 * staprun reads them): stapdev implies stapsys, which implies stapusr. */
enum {
	STP_PRIV_STAPUSR = 0x2,
	STP_PRIV_STAPSYS = 0x4,
	STP_PRIV_STAPDEV = 0x8,
};

/* The session's level (stapdev when --privilege was not given). */
#define session_privilege(s) ((s)->privilege ? (s)->privilege : STP_PRIV_STAPDEV)

static inline const char *privilege_name(int level)
{
	return level == STP_PRIV_STAPUSR ? "stapusr" :
	       level == STP_PRIV_STAPSYS ? "stapsys" : "stapdev";
}

struct session {
	struct arena *arena;
	struct diags diags;

	/* ---- options (cmdline.c) ---- */
	int last_pass;		/* -p N; 5 by default */
	int verbose;		/* -v count */
	int pass_verbose[6];	/* --vp ABCDE, index 1..5 */
	int keep_tmpdir;	/* -k */
	int guru;		/* -g */
	int privilege;		/* --privilege: STP_PRIV_*; 0 until set
				   (session_privilege: stapdev) */
	int auto_privilege_cred;	/* autopriv.c: a non-stapdev user's
					   highest level (0: stapdev) */
	const char *auto_privilege_msg;	/* why --privilege was picked */
	int unoptimized;	/* -u */
	int no_global_display;	/* --no-global-var-display */
	int bulk;		/* -b */
	int buffer_mb;		/* -s N */
	int timing;		/* -t */
	int timeout;		/* -T SECS */
	int skip_badvars;	/* --skip-badvars */
	int suppress_handler_errors;
	int suppress_time_limits;
	int disable_cache;	/* --disable-cache */
	int poison_cache;	/* --poison-cache */
	int clean_cache;	/* --clean-cache */
	int testbed;		/* --testbed, STAP_TESTBED=1: run in the guest;
				   -1 forbids it (STAP_TESTBED=0) */
	const char *module_name;	/* -m */
	const char *output_file;	/* -o */
	const char *output_switch;	/* -S SIZE[,N], for staprun */
	const char *target_cmd;		/* -c */
	long target_pid;		/* -x; 0 = none */
	const char *kernel_release;	/* -r RELEASE (or a build dir) */
	const char *kernel_build_dir;	/* from -r DIR, or resolved */
	const char *runtime_dir;	/* -R, else the installed runtime */
	const char *compatible;		/* --compatible VERSION: the language
					   version (systemtap_v), else STAP_VERSION */
	const char *tapset_dir;		/* the installed tapset library */
	struct vec include_dirs;	/* -I: const char * */
	struct vec defines;		/* -D: struct kv * */
	struct vec modinfo;		/* --modinfo: "NAME=VALUE" strings */
	struct vec globals_set;		/* -G: struct kv * */
	struct vec kbuild_opts;		/* -B: const char * */
	struct vec sym_modules;		/* -d MODULE, --all-modules ("*"):
					   const char * */
	int ldd;			/* --ldd: the user modules' libraries
					   are packed too */
	struct vec probed_files;	/* the user files probes lie in
					   (process, uprobe families: their
					   symbols are packed), const char * */
	const char *list_probes;	/* -l PATTERN */
	const char *list_probes_vars;	/* -L PATTERN */
	int dump_functions, dump_probe_types, dump_probe_aliases;
	int flight_recorder;		/* -F: staprun -L (load, start, detach),
					   or -D with -o (in the background) */
	enum prologue_when {		/* -P, --prologue-searching[=WHEN] */
		PROLOGUE_AUTO,		/* past it in units built without -O */
		PROLOGUE_NEVER,
		PROLOGUE_ALWAYS,
	} prologue_searching;
	int coverage;			/* -q: add to the tapset coverage
					   database (elab/coverage.c) */
	int check_version;		/* --check-version */
	const char *sysroot;		/* --sysroot DIR: target files under DIR */
	struct vec sysenv;		/* --sysenv VAR=VALUE: struct kv * */
	long target_namespace;		/* --target-namespace PID; 0 = none */
	char **staprun_args;		/* --testbed-staprun: staprun's argv */
	int staprun_nargs;

	/* ---- inputs ---- */
	const struct src_file *script;	/* the user's script */
	struct vec extra_scripts;	/* -E: const struct src_file * */
	struct vec args;		/* script arguments $1…: const char * */
	struct vec tapset_arg_uses;	/* parse: struct arg_use * in tapsets */
	char *args_used;		/* parse: [i] set once $i+1 or @i+1
					   was scanned (NULL: none was) */

	/* ---- the target kernel (kernel.c) ---- */
	const struct kernel_info *kernel;	/* resolved once */
	int kernel_failed;			/* resolution reported an error */
	struct kconfig *kconfig;		/* its .config, read once */

	/* ---- pass results ---- */
	struct vec user_files;		/* parse: struct file_ast * */
	struct vec library_files;	/* parse: struct file_ast * (tapsets) */
	struct program *program;	/* elaborate: the resolved program */
	struct vec modsyms;		/* elaborate: "module:symbol[+offset]"
					   (const char *) of the module statics
					   and code addresses target variables
					   read, each once, by their index
					   (runtime/modsym.c) */
	int tvar_ticks;			/* elaborate: DWARF accesses numbered
					   so far, as stap numbers the
					   functions it makes for them
					   (tvar_name_fn) */
	int tvar_fb_locals;		/* elaborate: the locals stap names
					   for their frame bases (_fb_N) */
	int reads_stdin;		/* elaborate: it has input probes
					   (procfs("__stdin").write): staprun -i */
	const char *tmpdir;		/* translate: the build directory */
	const char *c_source;		/* translate: path of the generated C */
	const char *module_path;	/* build: path of the .ko */
	int module_cached;		/* build: it came from the cache */
	int exit_status;		/* run: what stap exits with */
};

/* Pass entry points, in pipeline order.  Each returns 0 on success. */
int pass_parse(struct session *s);
int pass_elaborate(struct session *s);
int pass_translate(struct session *s);
int pass_build(struct session *s);
int pass_run(struct session *s);

/* staprun's command run in the testbed guest (run.c); its status. */
int run_staprun_in_testbed(struct session *s, int nargs, char **args);

/* Command line: fills S from argv.  Returns 0, or 1 after printing an
 * error (exit status 1), or -1 when the run is complete (-h, -V). */
int cmdline_parse(struct session *s, int argc, char **argv);

/* Read a whole file as a source file; NULL (and an error) when unreadable. */
const struct src_file *src_read(struct session *s, const char *path,
				const char *shown_name);
const struct src_file *src_from_string(struct session *s, const char *name,
				       const char *text);

#endif
