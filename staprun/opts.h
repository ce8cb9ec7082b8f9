/* opts.h - the command line shared by staprun and stapio.
 *
 * staprun parses it, loads the module, then runs stapio with the same
 * options and the loaded module's name in place of its path; stapio parses
 * it again with the same code and ignores what only staprun uses.
 */
#ifndef STP_OPTS_H
#define STP_OPTS_H

struct stp_opts {
	const char *outfile;	/* -o FILE, NULL for stdout */
	const char *cmd;	/* -c CMD */
	int target_pid;		/* -x PID */
	int bulk;		/* -b: one output file per CPU */
	int bufsize_mb;		/* -s N, 0 for the module's default */
	int suppress_warnings;	/* -w */
	int verbose;		/* -v, repeatable */
	int timeout_ms;		/* -T: longest wait between output checks */
	int daemon;		/* -D: run in the background (needs -o) */
	int rename;		/* -R: give the module a unique name */
	int load_only;		/* -L: load, start, detach */
	int attach;		/* -A: attach to a loaded module */
	const char *delete_mod;	/* -d MODULE: unload and exit */
	const char *module;	/* the module path (staprun) or name (stapio) */
	char **params;		/* var=value ..., for the module */
	int nparams;
	int nopt_args;		/* argv[1..nopt_args] are the options */
};

/* Parse argv into o; prints an error and returns -1 on a bad command line. */
int stp_opts_parse(struct stp_opts *o, int argc, char **argv, const char *prog);
void stp_opts_usage(const char *prog);

#endif /* STP_OPTS_H */
