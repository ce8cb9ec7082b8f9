/* testbed.h - run a job in the testbed guest (the cloud kernel under qemu).
 *
 * The guest boots from an initramfs holding busybox, the given files and a
 * shell job; the job's stdout and stderr come back live on two serial
 * ports, a third carries control messages both ways (boot, exit status,
 * signals).  Nothing here knows the session: stap's pass 5 (run.c) and the
 * test suite's batch runner (testbed/batch.c) both use it.
 */
#ifndef TESTBED_H
#define TESTBED_H

#include <stddef.h>

struct tb_file {
	const char *host;	/* file on the host */
	const char *guest;	/* its path in the guest; NULL = same as host */
	int program;		/* also copy the shared libraries it needs */
	int stap_module;	/* a module stap built: the kernel modules
				   its probes lie in (tbmods.h) are loaded
				   before the job, after G->modules */
};

struct tb_guest {
	const char *kernel;	/* the bzImage to boot */
	const char *workdir;	/* host directory for the initramfs, FIFOs, logs */
	const char *busybox;	/* static busybox; NULL = /bin/busybox */
	const struct tb_file *files;
	int nfiles;
	/* Shell text run by the guest's /init in /work, with stdout and
	 * stderr going back to the host.  It may use the functions
	 *   tb_group CMD…          run CMD in its own process group, the one
	 *                          forwarded signals go to;
	 *   tb_timed SECS CMD…     the same, interrupted (SIGINT, then SIGKILL
	 *                          5 s later) after SECS seconds, status 124.
	 * Files it leaves in /work/out come back to results_dir. */
	const char *job;
	const char *modules;	/* kernel modules to load before the job
				   (tbmods.h: "NAME[:PARAM=V…] …"), or NULL */
	const char *modules_dir;	/* where their .ko files are */
	int boot_timeout;	/* seconds of the guest's CPU time to reach
				   /init (10 times that on the clock at
				   most); 0 = default (60) */
	int idle_timeout;	/* seconds the booted guest may stay silent
				   before it counts as hung; 0 = no limit */
	const char *system_map;	/* the guest kernel's, to name where a hung
				   guest's CPUs are; or NULL */
	int forward_signals;	/* SIGINT/SIGTERM go to the job; else they
				   stop the guest */
	int verbose;		/* print the qemu command line */
	int cpus;		/* the guest's CPUs; 0 = 2 */
	const char *kargs;	/* more kernel arguments (the test suite's
				   debug checks: slub_debug=…), or NULL */
	const char *results_dir;	/* host directory for the files the job
					   leaves in the guest's /work/out;
					   NULL: not kept */
};

struct tb_result {
	int status;		/* exit status of the job */
	int interrupted;	/* SIGINT/SIGTERM arrived while running */
	int booted;		/* the guest reached its /init */
	int crashed;		/* its kernel went down (a panic, an oops, a
				   BUG on the console): never a reason to
				   boot again */
	char error[512];	/* why tb_run failed */
};

/* Boot the guest, run G->job, copy its output to OUT_FD and ERR_FD as it
 * comes.  Returns 0 when the job ran to its end (status in R), -1 with
 * R->error set when the guest failed to boot, hung or died. */
int tb_run(const struct tb_guest *g, int out_fd, int err_fd,
	   struct tb_result *r);

/* Where tb_run leaves the guest's kernel console in G->workdir. */
const char *tb_console_log(const struct tb_guest *g, char *buf, size_t len);

#endif
