/* opts.c - parse the command line shared by staprun and stapio (opts.h).
 * The error messages are stap 4.8's staprun's. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opts.h"
#include "stp_msgs.h"
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_STRING
#define PACKAGE_STRING "ctap"
#endif

void stp_opts_usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [options] MODULE [var=value ...]\n"
		"  -o FILE       send output to FILE (strftime(3) %%-patterns are\n"
		"                expanded; FILE_cpuN per CPU for a bulk-mode module)\n"
		"  -S SIZE[,N]   with -o: go on in a new file FILE.I each SIZE MB,\n"
		"                keeping the last N files\n"
		"  -c CMD        run CMD under /bin/sh once probes are armed;\n"
		"                target() is its pid and the script stops when it exits\n"
		"  -x PID        set target() to PID\n"
		"  -b NUM        use NUM megabyte buffers (1-%d, default %d)\n"
		"  -w            suppress warnings\n"
		"  -v            be verbose (repeat for more)\n"
		"  -V            print the version and exit\n"
		"  -T MS         check for output at least every MS milliseconds\n"
		"  -D            run in the background (requires -o)\n"
		"  -R            load the module under a unique name\n"
		"  -L            load and start the module, then detach\n"
		"  -A            attach to a module already loaded with -L\n"
		"  -d            unload MODULE and exit\n"
		"  -C WHEN       colour ERROR and WARNING: auto, never or always\n"
		"  -N PID        the ns_*() functions number ids in PID's namespaces\n"
		"  -r N:URI      remote_id() returns N, remote_uri() URI\n"
		"  -u            accepted for compatibility\n"
		"  -P LEVEL      MODULE is a script: build it for --privilege=LEVEL\n"
		"                (one the user's groups give) with the installed stap, as root,\n"
		"                and run that module (stap does this for a user in\n"
		"                stapusr or stapsys)\n"
		"  -E OPT        with -P: an option for stap (-w, -u, -t, -b,\n"
		"                --suppress-handler-errors)\n"
		"  -a ARG        with -P: an argument of the script ($1, @1 ...)\n",
		prog, STP_MAX_BUFSIZE_MB, STP_DEFAULT_BUFSIZE_MB);
}

/* The usage after an error, and the error status. */
static int stp_opts_bad(const char *prog)
{
	stp_opts_usage(prog);
	return -1;
}

/* -S SIZE[,N]: both plain decimal numbers. */
static int stp_opts_fsize(struct stp_opts *o, const char *arg)
{
	char *end;

	o->fsize_mb = (int)strtol(arg, &end, 10);
	if (end == arg || (*end && *end != ','))
		return -1;
	if (*end) {
		arg = end + 1;
		o->fnum_max = (int)strtol(arg, &end, 10);
		if (end == arg || *end)
			return -1;
	}
	return o->fsize_mb < 0 || o->fnum_max < 0 ? -1 : 0;
}

/* -r N:URI (digits, maybe none, a colon, a URI that is not empty) into
 * O's remote_id and remote_uri; -1 when malformed. */
static int stp_opts_remote(struct stp_opts *o, const char *arg)
{
	size_t n = strspn(arg, "0123456789");

	if (arg[n] != ':' || !arg[n + 1])
		return -1;
	o->remote_id = atoi(arg);
	o->remote_uri = arg + n + 1;
	return 0;
}

static void stp_opts_version(void)
{
	/* the SystemTap version whose staprun this one stands in for */
	fprintf(stderr, "Systemtap module loader/runner (version 4.8, %s)\n",
		PACKAGE_STRING);
}

#define STP_OPTS_NX(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* -E or -a (C): optarg into V[*N], of MAX. */
static int stp_opts_push(const char **v, int *n, int max, int c,
			 const char *prog)
{
	if (*n == max) {
		fprintf(stderr, "ERROR: Too many -%c options.\n", c);
		return stp_opts_bad(prog);
	}
	v[(*n)++] = optarg;
	return 0;
}

/* One option; 0, 1 to exit 0 at once, or -1 on an error. */
static int stp_opts_one(struct stp_opts *o, int c, const char *prog)
{
	switch (c) {
	case 'o': o->outfile = optarg; break;
	case 'c': o->cmd = optarg; break;
	case 'x': o->target_pid = atoi(optarg); break;
	case 'b':
		o->bufsize_mb = atoi(optarg);
		if (o->bufsize_mb < 1 || o->bufsize_mb > STP_MAX_BUFSIZE_MB) {
			fprintf(stderr, "ERROR: Invalid buffer size '%d' (should be 1-%d).\n",
				o->bufsize_mb, STP_MAX_BUFSIZE_MB);
			return stp_opts_bad(prog);
		}
		break;
	case 'w': o->suppress_warnings = 1; break;
	case 'v': o->verbose++; break;
	case 'V':
		stp_opts_version();
		return 1;
	case 'T':
		o->timeout_ms = atoi(optarg);
		if (o->timeout_ms < 1) {
			fprintf(stderr, "ERROR: Invalid reader timeout value '%d' (should be >= 1).\n",
				o->timeout_ms);
			return stp_opts_bad(prog);
		}
		break;
	case 'D': o->daemon = 1; break;
	case 'R': o->rename = 1; break;
	case 'L': o->load_only = 1; break;
	case 'A': o->attach = 1; break;
	case 'd': o->delete_mod = 1; break;
	case 'i': o->read_stdin = 1; break;
	case 'C':
		if (!strcmp(optarg, "never"))
			o->color = STP_COLOR_NEVER;
		else if (!strcmp(optarg, "always"))
			o->color = STP_COLOR_ALWAYS;
		else if (!strcmp(optarg, "auto"))
			o->color = STP_COLOR_AUTO;
		else {
			fprintf(stderr, "ERROR: Invalid option '%s' for -C.\n", optarg);
			return stp_opts_bad(prog);
		}
		break;
	case 'S':
		if (stp_opts_fsize(o, optarg) < 0) {
			fprintf(stderr, "ERROR: Invalid file size option '%s'.\n", optarg);
			return stp_opts_bad(prog);
		}
		break;
	case 'N':
		o->ns_pid = atoi(optarg);
		if (o->ns_pid <= 0) {
			fprintf(stderr, "ERROR: Invalid target namespaces pid %d (should be > 0).\n",
				atoi(optarg));
			return stp_opts_bad(prog);
		}
		break;
	case 'r':
		if (stp_opts_remote(o, optarg) < 0) {
			fprintf(stderr, "ERROR: Cannot process remote id option '%s'.\n",
				optarg);
			return stp_opts_bad(prog);
		}
		break;
	case 'F':	/* (staprun passes it to stapio) */
		o->dirfd = atoi(optarg);
		break;
	case 'u':
		break;	/* uprobes are built in */
	case 'P': o->build_level = optarg; break;
	case 'E':
		return stp_opts_push(o->xopts, &o->nxopts, STP_OPTS_NX(o->xopts), c, prog);
	case 'a':
		return stp_opts_push(o->xargs, &o->nxargs, STP_OPTS_NX(o->xargs), c, prog);
	case 'h':
		stp_opts_usage(prog);
		return 1;
	default:
		return stp_opts_bad(prog);
	}
	return 0;
}

/* The combinations stap's staprun rejects. */
static int stp_opts_check(const struct stp_opts *o, const char *prog)
{
	const char *msg = NULL;

	if (o->cmd && o->target_pid)
		msg = "You can't specify the '-c' and '-x' options together.";
	else if (o->attach && o->load_only)
		msg = "You can't specify the '-A' and '-L' options together.";
	else if (o->attach && o->cmd)
		msg = "You can't specify the '-A' and '-c' options together.  The '-c cmd'\n"
		      "option used to start a command only has an effect when the module\n"
		      "is inserted.";
	else if (o->attach && o->target_pid)
		msg = "You can't specify the '-A' and '-x' options together.  The '-x pid'\n"
		      "option only has an effect when the module is inserted.";
	else if (o->attach && o->nparams)
		msg = "Cannot have module options with attach (-A).";
	else if (o->daemon && o->load_only)
		msg = "You can't specify the '-D' and '-L' options together.";
	else if (o->daemon && !o->outfile)
		msg = "You have to specify output FILE with '-D' option.";
	else if (o->build_level && (o->attach || o->delete_mod))
		msg = "You can't specify the '-P' option with '-A' or '-d'.";
	else if ((o->nxopts || o->nxargs) && !o->build_level)
		msg = "The '-E' and '-a' options need '-P'.";
	else if (o->fsize_mb && !o->outfile)
		msg = "You have to specify output FILE with '-S' option.";
	if (!msg)
		return 0;
	fprintf(stderr, "ERROR: %s\n", msg);
	return stp_opts_bad(prog);
}

void stp_std_fds(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY) != fd)
			break;
}

int stp_opts_parse(struct stp_opts *o, int argc, char **argv, const char *prog)
{
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = 200;
	o->dirfd = -1;
	o->remote_id = -1;
	o->color = STP_COLOR_AUTO;
	if (getenv("SYSTEMTAP_VERBOSE"))
		o->verbose = atoi(getenv("SYSTEMTAP_VERBOSE"));
	opterr = 1;
	optind = 1;
	/* '+': the module ends the options; var=value pairs follow it */
	while (!rc && (c = getopt(argc, argv, "+o:c:x:b:wvVT:DRLAdiC:S:u::N:r:F:P:E:a:h")) != -1)
		rc = stp_opts_one(o, c, prog);
	if (rc > 0)
		exit(0);
	if (rc)
		return rc;
	o->nopt_args = optind - 1;
	if (optind >= argc) {
		fprintf(stderr, "ERROR: Need a module name or path to load.\n");
		return stp_opts_bad(prog);
	}
	o->module = argv[optind];
	o->params = argv + optind + 1;
	o->nparams = argc - optind - 1;
	return stp_opts_check(o, prog);
}
