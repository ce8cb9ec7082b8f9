/* cmdline.c - stap's command line, parsed into the session.
 *
 * Options follow stap(1).  As with stap, options may appear anywhere; the
 * first operand is the script file (unless -e gave the script) and the rest
 * are the script's arguments ($1, @1, …).  A bad command line gets one plain
 * message and exit status 1.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include "build/cache.h"
#include "dwarf/dw_file.h"
#include "util/fileio.h"
#include "session.h"
#include "version.h"

enum {
	OPT_TESTBED = 256,
	OPT_NO_TESTBED,
	OPT_VP,
	OPT_SKIP_BADVARS,
	OPT_SUPPRESS_HANDLER_ERRORS,
	OPT_SUPPRESS_TIME_LIMITS,
	OPT_DISABLE_CACHE,
	OPT_POISON_CACHE,
	OPT_CLEAN_CACHE,
	OPT_NO_GLOBAL_VAR_DISPLAY,
	OPT_DUMP_FUNCTIONS,
	OPT_DUMP_PROBE_TYPES,
	OPT_DUMP_PROBE_ALIASES,
	OPT_RUNTIME,
	OPT_ALL_MODULES,
	OPT_LDD,
	OPT_TESTBED_STAPRUN,
	OPT_COMPATIBLE,
	OPT_MODINFO,
	OPT_TMPDIR,
	OPT_SAVE_UPROBES,
	OPT_DOWNLOAD_DEBUGINFO,
	OPT_PROLOGUE_SEARCHING,
	OPT_CHECK_VERSION,
	OPT_SYSROOT,
	OPT_SYSENV,
	OPT_TARGET_NAMESPACE,
	OPT_COLOR,
	OPT_PRIVILEGE,
	OPT_UNPRIVILEGED,
	OPT_ELSEWHERE,		/* builds elsewhere: refused, with what to do */
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "testbed", no_argument, NULL, OPT_TESTBED },
	{ "no-testbed", no_argument, NULL, OPT_NO_TESTBED },
	{ "vp", required_argument, NULL, OPT_VP },
	{ "skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS },
	{ "suppress-handler-errors", no_argument, NULL,
	  OPT_SUPPRESS_HANDLER_ERRORS },
	{ "suppress-time-limits", no_argument, NULL, OPT_SUPPRESS_TIME_LIMITS },
	{ "disable-cache", no_argument, NULL, OPT_DISABLE_CACHE },
	{ "poison-cache", no_argument, NULL, OPT_POISON_CACHE },
	{ "clean-cache", no_argument, NULL, OPT_CLEAN_CACHE },
	{ "no-global-var-display", no_argument, NULL,
	  OPT_NO_GLOBAL_VAR_DISPLAY },
	{ "dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS },
	{ "dump-probe-types", no_argument, NULL, OPT_DUMP_PROBE_TYPES },
	{ "dump-probe-aliases", no_argument, NULL, OPT_DUMP_PROBE_ALIASES },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "all-modules", no_argument, NULL, OPT_ALL_MODULES },
	{ "ldd", no_argument, NULL, OPT_LDD },
	{ "compatible", required_argument, NULL, OPT_COMPATIBLE },
	{ "modinfo", required_argument, NULL, OPT_MODINFO },
	{ "tmpdir", required_argument, NULL, OPT_TMPDIR },
	{ "save-uprobes", no_argument, NULL, OPT_SAVE_UPROBES },
	{ "download-debuginfo", optional_argument, NULL, OPT_DOWNLOAD_DEBUGINFO },
	{ "prologue-searching", optional_argument, NULL, OPT_PROLOGUE_SEARCHING },
	{ "check-version", no_argument, NULL, OPT_CHECK_VERSION },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "sysenv", required_argument, NULL, OPT_SYSENV },
	{ "target-namespace", required_argument, NULL, OPT_TARGET_NAMESPACE },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ "privilege", required_argument, NULL, OPT_PRIVILEGE },
	{ "unprivileged", no_argument, NULL, OPT_UNPRIVILEGED },
	{ "use-server", optional_argument, NULL, OPT_ELSEWHERE },
	{ "use-server-on-error", optional_argument, NULL, OPT_ELSEWHERE },
	{ "list-servers", optional_argument, NULL, OPT_ELSEWHERE },
	{ "trust-servers", optional_argument, NULL, OPT_ELSEWHERE },
	{ "remote", required_argument, NULL, OPT_ELSEWHERE },
	{ "remote-prefix", no_argument, NULL, OPT_ELSEWHERE },
	{ "bpf", no_argument, NULL, OPT_ELSEWHERE },
	/* internal: staprun's arguments follow; staprun execs this on a
	 * kernel that cannot load modules, to run in the testbed */
	{ "testbed-staprun", no_argument, NULL, OPT_TESTBED_STAPRUN },
	{ NULL, 0, NULL, 0 },
};

static const char short_opts[] = "+hVvtp:I:e:E:o:R:r:a:m:kgPc:x:D:bs:uqiwl:d:L:FS:B:WG:T:";

static void usage(FILE *f, const char *stap_dir)
{
	fprintf(f,
"Usage: stap [options] FILE [ARGS...]     Run script in file.\n"
"   or: stap [options] - [ARGS...]         Run script on stdin.\n"
"   or: stap [options] -e SCRIPT [ARGS...] Run given script.\n"
"   or: stap [options] -l PROBE            List matching probes.\n"
"   or: stap [options] -L PROBE            List probes and their variables.\n"
"   or: stap [options] --dump-probe-types  List available probe types.\n"
"   or: stap [options] --dump-probe-aliases  List available probe aliases.\n"
"   or: stap [options] --dump-functions    List available functions.\n"
"\n"
"Options (in %s/rc and on command line):\n"
"   --         end of translator options, script options follow\n"
"   -h --help  show this help\n"
"   -V --version  show version\n"
"   -p NUM     stop after pass NUM 1-5 (parse, elaborate, translate,\n"
"              compile, run)\n"
"   -v         add verbosity to all passes\n"
"   --vp ABCDE set verbosity of each pass\n"
"   -k         keep the temporary directory\n"
"   --tmpdir=DIR  build in DIR (made if missing, kept) instead of\n"
"              $TMPDIR/stapXXXXXX\n"
"   -u         unoptimized translation (keep unused code)\n"
"   -w         suppress warnings\n"
"   -W         turn warnings into errors\n"
"   -g         guru mode: embedded C, writes to $target variables\n"
"   --privilege=stapusr|stapsys|stapdev  check the script against what\n"
"              that group may run (default stapdev); --unprivileged is\n"
"              --privilege=stapusr\n"
"   --compatible VERSION  the language of SystemTap VERSION (systemtap_v;\n"
"              before 4.0: '?:' binds looser than '=', no abort())\n"
"   -e SCRIPT  run the given script\n"
"   -E SCRIPT  run the given script in addition to the main one\n"
"   -I DIR     look in DIR for additional .stp tapsets\n"
"   -D NM=VAL  emit a C #define into the module (MAXACTION=…, …)\n"
"   -B NM=VAL  pass option to kbuild make\n"
"   -G VAR=VAL set global variable VAR to VAL at load time\n"
"   -R DIR     look in DIR for the runtime\n"
"   -r RELEASE|DIR  build for kernel RELEASE, or the kernel build tree DIR\n"
"   -m MODULE  name the module MODULE and keep MODULE.ko\n"
"   -o FILE    send script output to FILE (strftime(3) %%-patterns)\n"
"   -S SIZE[,N] with -o: a new file each SIZE MB, keeping the last N\n"
"   -c CMD     run CMD while the script runs; target() is its pid\n"
"   -x PID     set target() to PID\n"
"   -s NUM     transport buffer of NUM MB\n"
"   -b         bulk (per-cpu) output mode\n"
"   -t         report probe timing at exit\n"
"   -T SECS    end the script after SECS seconds\n"
"   -l PROBE   list the probe points matching PROBE\n"
"   -L PROBE   list them with their variables\n"
"   -d MODULE  pack MODULE's symbols (\"kernel\") for symname, backtraces\n"
"   --all-modules  pack the symbols of every loaded kernel module (-d)\n"
"   --ldd      pack the symbols of the shared libraries the probed\n"
"              programs (and -d programs) load, as ldd lists them\n"
"   -a ARCH    the target architecture: x86_64 only\n"
"   --runtime=kernel  the kernel-module runtime, the only one\n"
"              (--runtime=bpf, --bpf and --runtime=dyninst are refused)\n"
"   --use-server, --use-server-on-error, --list-servers, --trust-servers,\n"
"   --remote, --remote-prefix  refused: no compile servers or remote\n"
"              targets; build with -p4 -m NAME and run NAME.ko with staprun\n"
"   -F         flight recorder: without -o, load the module, start it and\n"
"              detach (its buffer keeps the newest output; staprun -A NAME\n"
"              shows it); with -o, run staprun in the background\n"
"   -P         the same as --prologue-searching=always\n"
"   --prologue-searching[=never|always|auto]  user-space function probes\n"
"              go past the prologue in code built without -O (auto,\n"
"              always: the default WHEN), or never\n"
"   -q         generate information on tapset coverage (in\n"
"              $SYSTEMTAP_DIR/RELEASE.db, an SQLite database)\n"
"   --check-version  warn where a probe, or an alias in use, depends on\n"
"              the language version (a %%( systemtap_v ... %%) in or around it)\n"
"   --sysroot=DIR  read the target's programs, libraries and debug\n"
"              info under DIR (probes still name them by their target path)\n"
"   --sysenv=VAR=VALUE  the target's VAR (PATH: where bare program\n"
"              names are looked up, inside the sysroot)\n"
"   --target-namespace=PID  the target namespaces are PID's (staprun -N)\n"
"   --color[=never|always|auto]  colour the diagnostics (auto: on a\n"
"              terminal, unless NO_COLOR is set; always: the default WHEN)\n"
"   --testbed  build for the testbed kernel and run inside its qemu guest\n"
"              (also STAP_TESTBED=1); --no-testbed forbids it\n"
"   --skip-badvars  --suppress-handler-errors  --suppress-time-limits\n"
"   --disable-cache  do not read or write the module cache\n"
"   --poison-cache   rebuild, ignoring the cache, and cache the result\n"
"   --clean-cache    prune the cache to its size limit and exit\n"
"   --no-global-var-display\n"
"   --dump-functions  --dump-probe-types  --dump-probe-aliases\n"
"   --modinfo NAME=VALUE  add MODULE_INFO(NAME, \"VALUE\") to the module\n"
"   --download-debuginfo[=yes|no|ask|SECS]  accepted; debug info comes\n"
"              from the kernel's -dbg package (stap-testbed setup)\n"
"   --save-uprobes  accepted (uprobes is part of the kernel)\n",
		stap_dir ? stap_dir : "~/.systemtap");
}

/* -l, -L or a --dump-* switch: stap's modes that print and stop */
static int dump_mode(const struct session *s)
{
	return s->list_probes || s->list_probes_vars || s->dump_functions ||
	       s->dump_probe_types || s->dump_probe_aliases;
}

static int only_one_dump(struct session *s)
{
	diag_fatal(&s->diags, "only one of the -l/-L/--dump-* switches may be specified");
	return 1;
}

static int bad(struct session *s, const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof msg, fmt, arg);
	diag_fatal(&s->diags, "%s", msg);
	fputs("Try 'stap --help' for more information.\n", stderr);
	return 1;
}

/* --privilege's argument: its STP_PRIV_*, 0 if it names no level. */
static int privilege_parse(const char *arg)
{
	static const int levels[] = {
		STP_PRIV_STAPUSR, STP_PRIV_STAPSYS, STP_PRIV_STAPDEV
	};
	size_t i;

	for (i = 0; i < sizeof levels / sizeof levels[0]; i++)
		if (!strcmp(arg, privilege_name(levels[i])))
			return levels[i];
	return 0;
}

/* The options that build or run elsewhere (compile servers, remote
 * targets, the BPF runtime): refused, saying what to do instead. */
static int elsewhere(struct session *s, const char *opt)
{
	if (strstr(opt, "bpf"))
		return bad(s, "%s is not supported: drop it, and the script runs as a kernel module (the default runtime), with the same output",
			   opt);
	return bad(s, "'%s' is not supported: compile servers and remote targets are not built; run stap on the target machine, or build there with 'stap -p4 -m NAME' (-r RELEASE for another kernel) and run NAME.ko with staprun",
		   opt);
}

static int parse_long(const char *arg, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static struct kv *split_kv(struct session *s, const char *arg)
{
	struct kv *kv = ARENA_NEW(s->arena, struct kv);
	const char *eq = strchr(arg, '=');

	if (eq) {
		kv->name = arena_strndup(s->arena, arg, (size_t)(eq - arg));
		kv->value = arena_strdup(s->arena, eq + 1);
	} else {
		kv->name = arena_strdup(s->arena, arg);
	}
	return kv;
}

/* stap checks the arguments of -D, -G, -m and --modinfo, which end up in
 * the generated C or the build's command line, against these patterns
 * (extended, ignoring case) and refuses one that does not match, naming
 * the pattern.  0: it matches. */
static int safety(struct session *s, const char *opt, const char *pattern,
		  const char *arg)
{
	regex_t re;
	int rc;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB))
		xoom();
	rc = regexec(&re, arg, 0, NULL, 0);
	regfree(&re);
	if (!rc)
		return 0;
	diag_fatal(&s->diags, "Safety pattern mismatch for %s parameter ('%s' vs. '%s') rc=%d",
		   opt, arg, pattern, rc);
	fputs("Try 'stap --help' for more information.\n", stderr);
	return 1;
}
/* Where the installed library lives, unless the environment says otherwise
 * (SYSTEMTAP_TAPSET / SYSTEMTAP_RUNTIME, as with stap; the test suite uses
 * them to run from the source tree). */
static void default_dirs(struct session *s)
{
	const char *e;

	e = getenv("SYSTEMTAP_TAPSET");
	s->tapset_dir = e && *e ? e : PKGDATADIR "/tapset";
	if (!s->runtime_dir) {
		e = getenv("SYSTEMTAP_RUNTIME");
		s->runtime_dir = e && *e ? e : PKGDATADIR "/runtime";
	}
	/* kbuild compiles in another directory: the runtime path must be
	 * absolute. */
	if (s->runtime_dir[0] != '/') {
		char *abs = realpath(s->runtime_dir, NULL);
		if (abs) {
			s->runtime_dir = arena_strdup(s->arena, abs);
			free(abs);
		}
	}
}

/* -V, and the banner -vv prints first (on stdout, as stap): stap 4.8's
 * lines, naming this implementation and the optional features it was
 * built with (stap's names for them). */
static void print_version(void)
{
	printf("Systemtap translator/driver (version %s/%s, %s)\n"
	       "This is ctap, a SystemTap-compatible implementation written in C.\n"
	       "tested kernel versions: %s\n"
	       "enabled features:%s\n",
	       STAP_VERSION, dw_lib_version(), PACKAGE_STRING,
	       STAP_TESTED_KERNELS,
#ifdef HAVE_LIBSQLITE3
	       " LIBSQLITE3"
#else
	       ""
#endif
	       );
}

/* --download-debuginfo[=yes|no|ask|SECONDS]: stap asks ABRT for missing
 * debuginfo; Debian has no ABRT, so this says so, as stap does there.
 * Debug info comes from the kernel's -dbg package (stap-testbed setup). */
static int download_debuginfo(struct session *s, const char *arg)
{
	static const char tool[] = "abrt-action-install-debuginfo-to-abrt-cache";
	long secs;

	if (strcmp(arg, "yes") && strcmp(arg, "no") && strcmp(arg, "ask") &&
	    (parse_long(arg, 1, LONG_MAX, &secs)))
		return bad(s, "%s is not a valid value. Use 'yes', 'no', 'ask' or a timeout value.", arg);
	if (strcmp(arg, "no") && !fio_which(s, tool))
		diag_plain_warning(&s->diags, "%s is not installed. Continuing without downloading debuginfo.", tool);
	else if (strcmp(arg, "no"))
		diag_plain_warning(&s->diags, "%s is not used: install the kernel's debug package (linux-image-RELEASE-dbg; stap-testbed setup for the testbed)", tool);
	return 0;
}

/* --color[=never|always|auto] (or --colour): the diagnostics' colours;
 * always when WHEN is left out; auto as on a terminal without NO_COLOR. */
static int color_option(struct session *s, const char *arg)
{
	static int on_terminal = -1;	/* diag_init's choice */

	if (on_terminal < 0)
		on_terminal = s->diags.color;
	if (!arg || !strcmp(arg, "always"))
		s->diags.color = 1;
	else if (!strcmp(arg, "never"))
		s->diags.color = 0;
	else if (!strcmp(arg, "auto"))
		s->diags.color = on_terminal;
	else
		return bad(s, "Invalid argument '%s' for --color.", arg);
	return 0;
}

/* --prologue-searching[=never|always|auto]: always when WHEN is left out. */
static int prologue_searching(struct session *s, const char *arg)
{
	static const char *const when[] = {
		[PROLOGUE_AUTO] = "auto",
		[PROLOGUE_NEVER] = "never",
		[PROLOGUE_ALWAYS] = "always",
	};
	size_t i;

	if (!arg) {
		s->prologue_searching = PROLOGUE_ALWAYS;
		return 0;
	}
	for (i = 0; i < sizeof when / sizeof when[0]; i++)
		if (!strcmp(arg, when[i])) {
			s->prologue_searching = (enum prologue_when)i;
			return 0;
		}
	return bad(s, "Invalid argument '%s' for --prologue-searching.", arg);
}

/* --sysroot=DIR (once, an existing directory) and --sysenv=VAR=VALUE
 * (after it), with stap 4.8's checks and words.  The target's programs,
 * libraries and debug files are read under DIR (util/fileio.h's target
 * paths, dwarf/'s dw_set_sysroot); probes name them by target path. */
static int sysroot_option(struct session *s, int c, const char *arg)
{
	struct stat st;
	char *abs;

	if (c == OPT_SYSENV) {
		if (!s->sysroot)
			return bad(s, "%s", "--sysenv must follow --sysroot");
		if (!strchr(arg, '='))
			return bad(s, "%s is an invalid argument for --sysenv", arg);
		vec_push(s->arena, &s->sysenv, split_kv(s, arg));
		return 0;
	}
	if (s->sysroot)
		return bad(s, "%s", "multiple --sysroot options not supported");
	if (stat(arg, &st) || !S_ISDIR(st.st_mode) || !(abs = realpath(arg, NULL)))
		return bad(s, "%s is an invalid directory for --sysroot", arg);
	s->sysroot = arena_strdup(s->arena, abs);
	free(abs);
	dw_set_sysroot(s->sysroot);
	return 0;
}

/* The long-only options and the rarely used short ones. */
static int long_option(struct session *s, int c, const char *arg)
{
	switch (c) {
	case OPT_PRIVILEGE:	/* stap's words; set once, never lowered */
	case OPT_UNPRIVILEGED:
		if (s->privilege)
			return bad(s, "%s", "Privilege level may be set only once.");
		s->privilege = privilege_parse(c == OPT_PRIVILEGE ? arg : "stapusr");
		if (!s->privilege)
			return bad(s, "Invalid argument '%s' for --privilege.", arg);
		break;
	case OPT_TESTBED:
		s->testbed = 1;
		break;
	case OPT_NO_TESTBED:
		s->testbed = -1;
		break;
	case OPT_VP: {
		int i;
		for (i = 0; arg[i]; i++)
			if (i >= 5 || arg[i] < '0' || arg[i] > '9')
				return bad(s, "%s", "Invalid --vp argument: it takes 1 to 5 digits.");
		for (i = 0; arg[i]; i++)
			s->pass_verbose[i + 1] = arg[i] - '0';
		break;
	}
	case OPT_SKIP_BADVARS:
		s->skip_badvars = 1;
		break;
	case OPT_SUPPRESS_HANDLER_ERRORS:
		s->suppress_handler_errors = 1;
		break;
	case OPT_SUPPRESS_TIME_LIMITS:
		s->suppress_time_limits = 1;
		break;
	case OPT_DISABLE_CACHE:
		s->disable_cache = 1;
		break;
	case OPT_POISON_CACHE:
		s->poison_cache = 1;
		break;
	case OPT_CLEAN_CACHE:
		s->clean_cache = 1;
		break;
	case OPT_NO_GLOBAL_VAR_DISPLAY:
		s->no_global_display = 1;
		break;
	case OPT_DUMP_FUNCTIONS:
		if (dump_mode(s))
			return only_one_dump(s);
		s->dump_functions = 1;
		break;
	case OPT_DUMP_PROBE_TYPES:
		if (dump_mode(s))
			return only_one_dump(s);
		s->dump_probe_types = 1;
		break;
	case OPT_DUMP_PROBE_ALIASES:
		if (dump_mode(s))
			return only_one_dump(s);
		s->dump_probe_aliases = 1;
		break;
	case OPT_COMPATIBLE:	/* a language version, not after ours */
		if (strverscmp(arg, STAP_VERSION) > 0)
			return bad(s, "systemtap version " STAP_VERSION " cannot be compatible with future version %s", arg);
		s->compatible = arena_strdup(s->arena, arg);
		break;
	case OPT_RUNTIME:
		if (!strcmp(arg, "bpf"))
			return elsewhere(s, "--runtime=bpf");
		if (!strcmp(arg, "dyninst"))
			return bad(s, "%s", "--runtime=dyninst unavailable; this build lacks DYNINST feature");
		if (strcmp(arg, "kernel"))
			return bad(s, "runtime '%s' is not supported; only --runtime=kernel is", arg);
		break;
	case OPT_MODINFO:	/* MODULE_INFO(NAME, "VALUE") in the module */
		if (safety(s, "--modinfo", "^[a-z_][a-z0-9_]*=.+$", arg))
			return 1;
		vec_push(s->arena, &s->modinfo, arena_strdup(s->arena, arg));
		break;
	case 'a':
		if (strcmp(arg, "x86_64"))
			return bad(s, "architecture '%s' is not supported; only x86_64 is", arg);
		break;
	case 'd':		/* symbols of MODULE ("kernel") in the module */
		vec_push(s->arena, &s->sym_modules, (void *)arena_strdup(s->arena, arg));
		break;
	case OPT_ALL_MODULES:
		vec_push(s->arena, &s->sym_modules, (void *)"*");
		break;
	case OPT_LDD:
		s->ldd = 1;
		break;
	case 'S':
		s->output_switch = arena_strdup(s->arena, arg);
		break;
	case OPT_TMPDIR:	/* the build directory: used as is, kept */
		if (mkdir(arg, 0700) && errno != EEXIST)
			return bad(s, "cannot create temporary directory: %s",
				   arena_printf(s->arena, "%s: %s", arg, strerror(errno)));
		s->tmpdir = arena_strdup(s->arena, arg);
		break;
	case OPT_SAVE_UPROBES:	/* uprobes is the kernel's own: no uprobes.ko */
		break;
	case OPT_DOWNLOAD_DEBUGINFO:
		return download_debuginfo(s, arg ? arg : "yes");
	case 'P':
		s->prologue_searching = PROLOGUE_ALWAYS;
		break;
	case OPT_PROLOGUE_SEARCHING:
		return prologue_searching(s, arg);
	case 'q':		/* main.c: elab/coverage.c after the passes */
		s->coverage = 1;
		break;
	case OPT_CHECK_VERSION:
		s->check_version = 1;
		break;
	case 'F':
		s->flight_recorder = 1;
		break;
	case OPT_SYSROOT:
	case OPT_SYSENV:
		return sysroot_option(s, c, arg);
	case OPT_COLOR:
		return color_option(s, arg);
	case OPT_TARGET_NAMESPACE:
		if (parse_long(arg, 1, INT_MAX, &s->target_namespace))
			return bad(s, "%s", "Invalid process ID number for target namespaces.");
		break;
	case 'i':
		return bad(s, "option -%s is not supported yet", "i");
	default:
		return bad(s, "%s", "invalid command line");
	}
	return 0;
}

/* Option C (getopt's), with ARG when it takes one. */
static int one_option(struct session *s, int c, const char *arg,
		      const char **script_text)
{
	long v;

	switch (c) {
	case 'h':
		usage(stdout, fio_stap_dir(s));
		return -1;
	case 'V':
		print_version();
		return -1;
	case 'v':
		s->verbose++;
		s->diags.show_similar = 1;
		break;
	case 'p':
		if (parse_long(arg, 1, 5, &v))
			return bad(s, "%s", "Invalid pass number (should be 1-5).");
		s->last_pass = (int)v;
		break;
	case 'k':
		s->keep_tmpdir = 1;
		break;
	case 'g':
		s->guru = 1;
		break;
	case 'u':
		s->unoptimized = 1;
		break;
	case 'w':
		s->diags.suppress_warnings = 1;
		break;
	case 'W':
		s->diags.warnings_are_errors = 1;
		break;
	case 't':
		s->timing = 1;
		break;
	case 'b':
		s->bulk = 1;
		break;
	case 'e':
		if (*script_text)
			return bad(s, "%s", "Only one script can be given on the command line.");
		*script_text = arg;
		break;
	case 'E':
		vec_push(s->arena, &s->extra_scripts,
			 (void *)src_from_string(s, "<input>", arg));
		break;
	case 'I':
		vec_push(s->arena, &s->include_dirs, arena_strdup(s->arena, arg));
		break;
	case 'R':
		s->runtime_dir = arena_strdup(s->arena, arg);
		break;
	case 'r':
		if (strchr(arg, '/'))
			s->kernel_build_dir = arena_strdup(s->arena, arg);
		else
			s->kernel_release = arena_strdup(s->arena, arg);
		break;
	case 'm':
		if (safety(s, "-m", "^[a-z0-9_]+$", arg))
			return 1;
		s->module_name = arena_strdup(s->arena, arg);
		if (strlen(arg) > 55) {	/* the kernel's limit, less ".ko" */
			s->module_name = arena_strndup(s->arena, arg, 55);
			diag_plain_warning(&s->diags, "Truncating module name to '%s'", s->module_name);
		}
		break;
	case 'o':
		s->output_file = arena_strdup(s->arena, arg);
		break;
	case 'c':
		s->target_cmd = arena_strdup(s->arena, arg);
		break;
	case 'x':
		if (parse_long(arg, 1, INT_MAX, &v))
			return bad(s, "%s", "Invalid target process ID number.");
		s->target_pid = v;
		break;
	case 'D':
		if (safety(s, "-D", "^[a-z_][a-z_0-9]*(=-?[a-z_0-9]+)?$", arg))
			return 1;
		vec_push(s->arena, &s->defines, split_kv(s, arg));
		break;
	case 'G':
		if (safety(s, "-G", "^[a-z_][a-z0-9_]*=[a-z0-9_.-]+$", arg))
			return 1;
		vec_push(s->arena, &s->globals_set, split_kv(s, arg));
		break;
	case 'B':
		vec_push(s->arena, &s->kbuild_opts, arena_strdup(s->arena, arg));
		break;
	case 's':
		if (parse_long(arg, 1, 4095, &v))
			return bad(s, "%s", "Invalid buffer size (should be 1-4095).");
		s->buffer_mb = (int)v;
		break;
	case 'T':
		if (parse_long(arg, 1, INT_MAX, &v))
			return bad(s, "%s", "Invalid timeout interval.");
		s->timeout = (int)v;
		break;
	case 'l':
		if (dump_mode(s))
			return only_one_dump(s);
		s->list_probes = arena_strdup(s->arena, arg);
		break;
	case 'L':
		if (dump_mode(s))
			return only_one_dump(s);
		s->list_probes_vars = arena_strdup(s->arena, arg);
		break;
	default:
		return long_option(s, c, arg);
	}
	return 0;
}

/* $SYSTEMTAP_DIR/rc: options read before the command line's (which may
 * override them), as stap 4.8 reads them: words split as the shell splits
 * them, without command substitution.  ARGC and ARGV become the whole
 * command line. */
static void rc_options(struct session *s, int *argc, char ***argv)
{
	const char *dir = fio_stap_dir(s);
	struct strbuf sb = { 0 };
	wordexp_t we;
	char **nv;
	size_t i;
	int n = 0;

	if (!dir || fio_read(arena_printf(s->arena, "%s/rc", dir), &sb) ||
	    !sb.len) {
		sb_free(&sb);
		return;
	}
	for (i = 0; i < sb.len; i++)	/* wordexp refuses line ends */
		if (sb.s[i] == '\n' || sb.s[i] == '\r')
			sb.s[i] = ' ';
	n = wordexp(sb.s, &we, WRDE_NOCMD);
	sb_free(&sb);
	if (n) {
		fprintf(stderr, "stap: warning: %s/rc: cannot split it into words (a quote, or | & ; < > ( ) { }, out of place); ignored\n", dir);
		return;
	}
	nv = arena_alloc(s->arena, (we.we_wordc + (size_t)*argc + 1) *
			 sizeof *nv);
	nv[n++] = (*argv)[0];
	for (i = 0; i < we.we_wordc; i++)
		nv[n++] = arena_strdup(s->arena, we.we_wordv[i]);
	for (i = 1; i < (size_t)*argc; i++)
		nv[n++] = (*argv)[i];
	nv[n] = NULL;
	wordfree(&we);
	*argc = n;
	*argv = nv;
}

/* The first operand is the script, unless -e gave one or a dump mode
 * lists without one: then it is $1, as with stap.  A dump mode takes no
 * -e script, nor -p (but -p5, the default). */
static int script_operand(struct session *s, const char *path,
			  const char *text)
{
	if (dump_mode(s) && text)
		return bad(s, "%s", "Cannot specify a script with -l/-L/--dump-* switches.");
	if (dump_mode(s) && s->last_pass != 5)
		return bad(s, "%s", "Cannot specify -p with -l/-L/--dump-* switches.");
	if (!path)
		return 0;
	if (text || dump_mode(s)) {
		vec_push(s->arena, &s->args, NULL);
		memmove(s->args.v + 1, s->args.v,
			sizeof *s->args.v * (size_t)(s->args.n - 1));
		s->args.v[0] = (void *)path;
		return 0;
	}
	s->script = src_read(s, path, path);
	return s->script ? 0 : 1;
}

int cmdline_parse(struct session *s, int argc, char **argv)
{
	const char *script_text = NULL, *script_path = NULL, *env;
	int c, rc, i;

	s->last_pass = 5;
	if (argc < 2 || strcmp(argv[1], "--testbed-staprun"))
		rc_options(s, &argc, &argv);
	env = getenv("STAP_TESTBED");
	if (env && *env)
		s->testbed = strcmp(env, "0") ? 1 : -1;
	opterr = 0;
	for (;;) {
		int prev = optind ? optind : 1;
		c = getopt_long(argc, argv, short_opts, long_opts, NULL);
		if (c == -1) {
			/* The first operand is the script unless -e gave it;
			 * options may follow it, as with stap. */
			if (optind >= argc ||
			    (optind > 1 && !strcmp(argv[optind - 1], "--")))
				break;
			if (!script_path) {
				script_path = argv[optind];
			} else {
				vec_push(s->arena, &s->args, argv[optind]);
			}
			optind++;
			continue;
		}
		if (c == '?') {
			const char *opt = argv[prev];
			if (optopt && strchr(short_opts, optopt) &&
			    strchr(short_opts, optopt)[1] == ':')
				return bad(s, "option '-%s' needs an argument",
					   (char[]){(char)optopt, 0});
			return bad(s, "unknown option '%s'", opt);
		}
		if (c == OPT_ELSEWHERE)
			return elsewhere(s, argv[prev]);
		if (c == OPT_TESTBED_STAPRUN) {
			s->staprun_args = argv + optind;
			s->staprun_nargs = argc - optind;
			default_dirs(s);
			return 0;
		}
		rc = one_option(s, c, optarg, &script_text);
		if (rc)
			return rc;
	}
	for (i = optind; i < argc; i++)
		vec_push(s->arena, &s->args, argv[i]);
	rc = script_operand(s, script_path, script_text);
	if (rc)
		return rc;
	default_dirs(s);
	if (s->clean_cache) {
		cache_clean(s);
		return -1;
	}
	if (script_text)
		s->script = src_from_string(s, "<input>", script_text);
	if (s->list_probes || s->list_probes_vars) {
		/* -l/-L PATTERN: list what "probe PATTERN {}" resolves to,
		 * every point optional (elab/resolve.c) */
		const char *pat = s->list_probes_vars ? s->list_probes_vars : s->list_probes;

		s->script = src_from_string(s, "<input>",
			arena_printf(s->arena, "probe %s {}", pat));
		s->last_pass = 2;
	}
	if (!s->script && !s->list_probes && !s->list_probes_vars &&
	    !s->dump_functions && !s->dump_probe_types &&
	    !s->dump_probe_aliases) {
		diag_fatal(&s->diags, "no script given: use 'stap FILE' or 'stap -e SCRIPT'");
		fputs("Try 'stap --help' for more information.\n", stderr);
		return 1;
	}
	if (s->verbose > 1) {
		print_version();
		fflush(stdout);	/* before any output of the passes */
	}
	/* -T SECS: the script ends by itself after SECS seconds */
	if (s->timeout)
		vec_push(s->arena, &s->extra_scripts, (void *)src_from_string(s,
			 "<input>", arena_printf(s->arena,
				"probe timer.s(%d) { exit() }", s->timeout)));
	if (s->target_cmd && s->target_pid)
		return bad(s, "%s", "You can't specify -c and -x together.");
	if (s->suppress_time_limits && !s->guru)
		return bad(s, "%s", "--suppress-time-limits requires guru mode (-g)");
	if (s->guru && s->privilege && s->privilege != STP_PRIV_STAPDEV)
		return bad(s, "You can't specify -g and --privilege=%s together.",
			   privilege_name(s->privilege));
	return 0;
}
