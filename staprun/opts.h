/* opts.h - the command line shared by staprun and stapio.
 *
 * staprun parses it, loads the module, then becomes stapio with the same
 * options and the loaded module's name in place of its path; stapio parses
 * it again with the same code and ignores what only staprun uses.  The
 * options are stap 4.8's staprun's.
 */
#ifndef STP_OPTS_H
#define STP_OPTS_H

enum stp_color { STP_COLOR_NEVER, STP_COLOR_ALWAYS, STP_COLOR_AUTO };

struct stp_opts {
	const char *outfile;	/* -o FILE (strftime patterns), NULL: stdout */
	const char *cmd;	/* -c CMD */
	int target_pid;		/* -x PID */
	int ns_pid;		/* -N PID: the ns_*() functions' namespaces */
	int remote_id;		/* -r N:URI: remote_id(), else -1 */
	const char *remote_uri;	/* ... and remote_uri(), else NULL */
	int bufsize_mb;		/* -b N, 0 for the module's default */
	int suppress_warnings;	/* -w */
	int verbose;		/* -v, repeatable */
	int timeout_ms;		/* -T: longest wait between output checks */
	int daemon;		/* -D: run in the background (needs -o) */
	int rename;		/* -R: give the module a unique name */
	int load_only;		/* -L: load, start, detach */
	int attach;		/* -A: attach to a loaded module */
	int delete_mod;		/* -d: unload the module named and exit */
	int read_stdin;		/* -i: relay stdin to the script's input
				   probes (stap passes it when it has some) */
	enum stp_color color;	/* -C WHEN: colour ERROR/WARNING prefixes */
	int fsize_mb;		/* -S SIZE[,N]: next output file after SIZE MB */
	int fnum_max;		/* ... keeping at most N files (0: all) */
	int dirfd;		/* -F FD: the module's transport directory,
				   opened by staprun for a user who is not
				   root (stapio); -1 if not given */
	const char *build_level;	/* -P LEVEL: build the module from the
					   script (staprun/build.c) */
	const char *xopts[16];	/* -E OPT: the translator's options */
	int nxopts;
	const char *xargs[64];	/* -a ARG: the script's arguments */
	int nxargs;
	const char *module;	/* the module path (staprun) or name (stapio),
				   the script with -P */
	char **params;		/* var=value ..., for the module */
	int nparams;
	int nopt_args;		/* argv[1..nopt_args] are the options */
};

/* Parse argv into o; prints an error and returns -1 on a bad command line. */
int stp_opts_parse(struct stp_opts *o, int argc, char **argv, const char *prog);
void stp_opts_usage(const char *prog);
/* Stand-ins for a closed stdin, stdout or stderr (/dev/null, read-only):
 * no file opened later takes their place, reads see the end, writes fail
 * (EBADF) and the run says so. */
void stp_std_fds(void);

#endif /* STP_OPTS_H */
