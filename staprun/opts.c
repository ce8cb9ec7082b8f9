/* opts.c - parse the command line shared by staprun and stapio (opts.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"
#include "stp_msgs.h"

void stp_opts_usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [options] MODULE [var=value ...]\n"
		"  -o FILE   send output to FILE (FILE_cpuN per CPU with -b)\n"
		"  -c CMD    run CMD under /bin/sh once probes are armed;\n"
		"            target() is its pid and the script stops when it exits\n"
		"  -x PID    set target() to PID\n"
		"  -b        bulk mode: one buffer and output file per CPU\n"
		"  -s NUM    use NUM megabyte buffers (default %d)\n"
		"  -w        suppress warnings\n"
		"  -v        be verbose (repeat for more)\n"
		"  -T MS     check for output at least every MS milliseconds\n"
		"  -D        run in the background (requires -o)\n"
		"  -R        load the module under a unique name\n"
		"  -L        load and start the module, then detach\n"
		"  -A        attach to a module already loaded with -L\n"
		"  -d MOD    unload module MOD and exit\n",
		prog, STP_DEFAULT_BUFSIZE_MB);
}

static int stp_opts_number(const char *arg, int lo, int hi, int *out,
			   const char *prog, char opt)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < lo || v > hi) {
		fprintf(stderr, "ERROR: invalid argument '%s' for -%c\n", arg, opt);
		stp_opts_usage(prog);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int stp_opts_parse(struct stp_opts *o, int argc, char **argv, const char *prog)
{
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = 200;
	if (getenv("SYSTEMTAP_VERBOSE"))
		o->verbose = atoi(getenv("SYSTEMTAP_VERBOSE"));
	opterr = 1;
	optind = 1;
	/* '+': the module ends the options; var=value pairs follow it */
	while (!rc && (c = getopt(argc, argv, "+o:c:x:bs:wvT:DRLAd:h")) != -1) {
		switch (c) {
		case 'o': o->outfile = optarg; break;
		case 'c': o->cmd = optarg; break;
		case 'x':
			rc = stp_opts_number(optarg, 1, 0x7fffffff,
					     &o->target_pid, prog, c);
			break;
		case 'b': o->bulk = 1; break;
		case 's':
			rc = stp_opts_number(optarg, 1, STP_MAX_BUFSIZE_MB,
					     &o->bufsize_mb, prog, c);
			break;
		case 'w': o->suppress_warnings = 1; break;
		case 'v': o->verbose++; break;
		case 'T':
			rc = stp_opts_number(optarg, 1, 3600000,
					     &o->timeout_ms, prog, c);
			break;
		case 'D': o->daemon = 1; break;
		case 'R': o->rename = 1; break;
		case 'L': o->load_only = 1; break;
		case 'A': o->attach = 1; break;
		case 'd': o->delete_mod = optarg; break;
		case 'h':
			stp_opts_usage(prog);
			exit(0);
		default:
			stp_opts_usage(prog);
			return -1;
		}
	}
	if (rc)
		return rc;
	o->nopt_args = optind - 1;
	if (o->delete_mod)
		return 0;
	if (optind >= argc) {
		fprintf(stderr, "ERROR: need a module to run\n");
		stp_opts_usage(prog);
		return -1;
	}
	if (o->cmd && o->target_pid) {
		fprintf(stderr, "ERROR: -c and -x cannot be used together\n");
		return -1;
	}
	if (o->daemon && !o->outfile) {
		fprintf(stderr, "ERROR: -D requires -o FILE\n");
		return -1;
	}
	o->module = argv[optind];
	o->params = argv + optind + 1;
	o->nparams = argc - optind - 1;
	return 0;
}
