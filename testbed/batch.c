/* batch.c - stap-testbed-batch: run many prebuilt modules in one guest boot.
 *
 * A boot costs about 3 s, so the test suite runs all its pass-5 tests in one
 * guest.  DIR/jobs lists them, one a line:
 *   file PATH              a host program the tests run (-c): copied into
 *                          the guest at the same path with its libraries;
 *   install HOST GUEST     a static host program copied into the guest as
 *                          GUEST (paths without spaces);
 *   modules NAME…          kernel modules the next run line's job loads
 *                          (NAME[:PARAM=V…], see tbmods.h);
 *   user UID GIDS          the next run line's staprun runs as that user;
 *   bg NAME 0 CMD          a shell command root starts in the background
 *                          (its own session) a second before the next run
 *                          line's job, killed with its children after it:
 *                          another user's process that a stapusr script
 *                          must not see;
 *   run NAME SECS ARGS…    staprun ARGS (shell words; the modules of DIR are
 *                          in the guest's working directory), stopped
 *                          after SECS seconds (status 124); its stdin is
 *                          /work/NAME.stdin if an install line put one
 *                          there, else /dev/null;
 *   sh NAME SECS ARGS…     the same with sh ARGS in place of staprun: a
 *                          guest-side script (installed) that runs
 *                          several scripts at once (the soak test).
 * Each job loads, just before it runs, its modules lines' kernel modules
 * and those its stap module's probes lie in (with what they depend on),
 * and unloads them after it, so that a job sees only the modules it asks
 * for (a test of the loading cannot pass on another job's modules);
 * STAP_TESTBED_MODULES's load once, at boot, for every job.  A module that
 * does not load, or stays loaded, is reported on the job's stderr.
 * Results: DIR/NAME.stdout, DIR/NAME.stderr, DIR/NAME.rc, sent back as each
 * job ends (a module still loaded after its staprun ended is reported on
 * its stderr, and removed), so a guest that dies keeps the results before it;
 * DIR/NAME.kmsg, the lines of the kernel log the job added that say the
 * kernel went wrong (BUG:, WARNING:, Oops, …: TB_KMSG_BAD).  The guest's
 * console stays in DIR/console.log.  A guest that hangs (silent for the
 * longest job's time and two minutes) or dies is blamed on the job it was
 * running, which runs once more in a new guest (DIR/NAME.retried says what
 * happened the first time, its console log is kept as
 * DIR/console.NAME.1.log); if it fails again, DIR/NAME.guest says so
 * (console.NAME.log), and the jobs after it go on in a new guest.  A guest
 * that does not boot (its kernel went down, or it stayed silent for its
 * boot time, counted in the CPU time it got: testbed.c) fails the batch
 * at once; no boot is retried.  SIGINT or SIGTERM stops the guest and the
 * batch, with no retry.  Exit
 * status 0 when every job ran, 1 (with a message) otherwise.
 * STAP_TESTBED_KARGS: more kernel arguments for the guest (the test suite
 * boots with the kernel's debug checks on); STAP_TESTBED_CPUS: its number
 * of CPUs (default 2).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testbed/tbmods.h"
#include "testbed/testbed.h"

#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif
#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/ctap"
#endif

static const char *prog = "stap-testbed";

/* Kernel log lines that mean the kernel went wrong during a job. */
#define TB_KMSG_BAD "BUG:|WARNING:|Oops|general protection|Call Trace|list_add corruption|list_del corruption|kernel BUG|refcount_t:|UBSAN:|KASAN:"

/* The guest's side: run each job and send back its result files, each as
 * "NAME SIZE\n" and SIZE bytes, on stdout. */
static const char job_loop[] =
/* staprun as installed (setuid root, run by root and stapusr), the
 * groups an administrator creates (man staprun, PERMISSIONS) and a user
 * in stapusr, tbusr (its primary group: busybox's su sets no
 * supplementary ones): su -s /bin/sh -c 'staprun ...' tbusr */
"mkdir -p /etc\n"
"printf 'stapusr:x:107:\\nstapsys:x:108:\\nstapdev:x:106:\\n' >>/etc/group\n"
"echo 'tbusr:x:1001:107::/tmp:/bin/sh' >>/etc/passwd\n"
"chown 0:107 \"$STAPRUN\" 2>/dev/null && chmod 4754 \"$STAPRUN\"\n"
/* a job run as a user ("user UID GIDS" before its run line: runas sets
 * them) loads its module as root put it in the system module directory
 * (the only modules a stapusr user may load), with the stapio staprun,
 * setuid, runs and the staprun stapio unloads through, where they were
 * installed */
"run_as() {\n"
"	local uid=$1 gids=$2 secs=$3 d=/lib/modules/$(uname -r)/systemtap a\n"
"	shift 3\n"
"	mkdir -p $d \"${STAPIO_INSTALLED%/*}\" \"${STAPRUN_INSTALLED%/*}\"\n"
"	[ -x \"$STAPIO_INSTALLED\" ] || cp \"$SYSTEMTAP_STAPIO\" \"$STAPIO_INSTALLED\"\n"
"	if [ ! -x \"$STAPRUN_INSTALLED\" ]; then\n"
"		cp \"$STAPRUN\" \"$STAPRUN_INSTALLED\"\n"
"		chown 0:107 \"$STAPRUN_INSTALLED\" && chmod 4754 \"$STAPRUN_INSTALLED\"\n"
"	fi\n"
"	for a; do case $a in *.ko) cp \"/work/$a\" $d/ ;; esac; done\n"
"	(cd $d && tb_timed \"$secs\" runas $uid $gids \"$STAPRUN\" \"$@\")\n"
"	a=$?\n"
"	rm -f $d/*.ko\n"
"	return $a\n"
"}\n"
"mkdir -p /results\n"
"dmesg -c >/dev/null 2>&1\n"
"loaded= loaderr=\n"
"while read -r kind name secs args; do\n"
"	case $kind in\n"
"	load)\n"
"		m=$(echo \"$secs\" | tr - _)\n"
"		grep -q \"^$m \" /proc/modules && continue\n"
"		if insmod \"/lib/tbmods/$secs.ko\" $args 2>/tmp/insmod.err; then\n"
"			loaded=\"$m $loaded\"\n"
"		else\n"
"			loaderr=\"${loaderr}stap-testbed: cannot load module $secs: $(cat /tmp/insmod.err)\n\"\n"
"		fi\n"
"		continue ;;\n"
"	user) as=\"$name $secs\"; continue ;;\n"
"	bg) bg=$args; continue ;;\n"
"	run|sh) ;;\n"
"	*) continue ;;\n"
"	esac\n"
"	eval \"set -- $args\"\n"
"	r=/results/$name\n"
"	echo \"stap-testbed: job $name\" >/dev/console\n"
"	bgpid=\n"
"	if [ -n \"$bg\" ]; then\n"
"		(cd /tmp && exec setsid sh -c \"$bg\") </dev/null >/dev/null 2>&1 &\n"
"		bgpid=$!\n"
"		sleep 1\n"
"	fi\n"
"	in=/dev/null\n"
"	[ -e \"/work/$name.stdin\" ] && in=/work/$name.stdin\n"
"	cmd=$STAPRUN\n"
"	if [ $kind = sh ]; then cmd=/bin/busybox; set -- sh \"$@\"; fi\n"
"	if [ -n \"$as\" ]; then\n"
"		run_as $as \"$secs\" \"$@\" <$in >$r.stdout 2>$r.stderr\n"
"	else\n"
"		tb_timed \"$secs\" \"$cmd\" \"$@\" <$in >$r.stdout 2>$r.stderr\n"
"	fi\n"
"	echo $? >$r.rc\n"
"	as= bg=\n"
"	if [ -n \"$bgpid\" ]; then\n"
"		kill -KILL -$bgpid 2>/dev/null\n"
"		wait $bgpid 2>/dev/null\n"
"	fi\n"
"	printf '%s' \"$loaderr\" >>$r.stderr\n"
"	m=-\n"
"	for a; do case $a in *.ko) m=$(basename \"$a\" .ko | tr - _) ;; esac; done\n"
"	if grep -q \"^$m \" /proc/modules; then\n"
"		echo \"stap-testbed: module $m is still loaded\" >>$r.stderr\n"
"		rmmod \"$m\" 2>/dev/null\n"
"	fi\n"
"	for m in $loaded; do\n"
"		rmmod \"$m\" 2>/dev/null ||\n"
"			echo \"stap-testbed: kernel module $m cannot be unloaded\" >>$r.stderr\n"
"	done\n"
"	loaded= loaderr=\n"
"	dmesg -c 2>/dev/null | grep -E '" TB_KMSG_BAD "' >$r.kmsg\n"
"	for f in $r.stdout $r.stderr $r.rc $r.kmsg; do\n"
"		printf '%s %d\\n' \"${f##*/}\" $(wc -c <\"$f\")\n"
"		cat \"$f\"\n"
"	done\n"
"	rm -f $r.*\n"
"done </jobs\n";

static char *xasprintf(const char *fmt, const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, fmt, a, b) < 0) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		exit(1);
	}
	return s;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *e = getenv(name);

	return e && *e ? e : dflt;
}

static char *shell_quoted(const char *s)
{
	size_t n = strlen(s);
	char *q = malloc(4 * n + 3), *p = q;

	if (!q)
		exit(1);
	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

struct files {
	struct tb_file *v;
	int n, cap;
	char *modules;		/* STAP_TESTBED_MODULES: loaded at boot */
	const char *modules_dir;	/* the testbed's kernel modules */
};

static struct tb_file *add_file(struct files *f, const char *host,
				 const char *guest, int program)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 16;
		f->v = realloc(f->v, f->cap * sizeof *f->v);
		if (!f->v)
			exit(1);
	}
	f->v[f->n].host = host;
	f->v[f->n].guest = guest;
	f->v[f->n].program = program;
	f->v[f->n].stap_module = 0;
	return &f->v[f->n++];
}

/* The "file" and "install" lines of DIR/jobs, and every module in DIR (its
 * kernel modules load with its job, not at boot: not a stap_module). */
static int collect(const char *dir, struct files *files)
{
	char *jobs = xasprintf("%s/%s", dir, "jobs"), line[4096];
	FILE *f = fopen(jobs, "r");
	struct dirent *de;
	DIR *d;

	if (!f) {
		fprintf(stderr, "%s: error: cannot read %s: %s\n", prog, jobs,
			strerror(errno));
		return -1;
	}
	add_file(files, jobs, "jobs", 0);
	files->modules = strdup(env_or("STAP_TESTBED_MODULES", ""));
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "file ", 5)) {
			add_file(files, strdup(line + 5), NULL, 1);
		} else if (!strncmp(line, "install ", 8)) {
			char *host = strdup(line + 8), *guest = strchr(host, ' ');
			if (guest) {
				*guest++ = '\0';
				add_file(files, host, guest, 0);
			}
		}
	}
	fclose(f);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n > 3 && !strcmp(de->d_name + n - 3, ".ko"))
			add_file(files, xasprintf("%s/%s", dir, de->d_name),
				 xasprintf("work/%s%s", de->d_name, ""), 0);
	}
	if (d)
		closedir(d);
	return 0;
}

/* Split the stream of "NAME SIZE\n" + bytes into DIR/NAME files. */
static int unpack(const char *dir, const char *stream)
{
	char name[256], buf[65536];
	FILE *in = fopen(stream, "r");
	long size;
	int n = 0;

	if (!in)
		return -1;
	while (fscanf(in, "%255s %ld", name, &size) == 2 && getc(in) == '\n') {
		char *path = xasprintf("%s/%s", dir, name);
		FILE *out = strchr(name, '/') ? NULL : fopen(path, "w");
		while (size > 0) {
			size_t want = size < (long)sizeof buf ? (size_t)size : sizeof buf;
			size_t got = fread(buf, 1, want, in);
			if (!got)
				break;
			if (out)
				fwrite(buf, 1, got, out);
			size -= (long)got;
		}
		if (out)
			fclose(out);
		free(path);
		n++;
	}
	fclose(in);
	return n;
}

/* DIR/jobs: its other lines, and each "run" line with the job's name
 * and time limit, after the "load" lines of its kernel modules. */
struct jobs {
	char *head;		/* the lines that are neither "run" nor
				   "modules" lines */
	char **line, **name;
	int n, max_secs;
};

/* DIR/M.ko for the first word of LINE that ends in ".ko", or NULL. */
static char *job_module(const char *dir, const char *line)
{
	char *copy = strdup(line), *w, *save = NULL, *ko = NULL, *base;

	for (w = strtok_r(copy, " \t\n", &save); w && !ko;
	     w = strtok_r(NULL, " \t\n", &save)) {
		size_t n = strlen(w);
		if (n > 3 && !strcmp(w + n - 3, ".ko")) {
			base = strrchr(w, '/');
			ko = xasprintf("%s/%s", dir, base ? base + 1 : w);
		}
	}
	free(copy);
	return ko;
}

/* The "load" lines of job NAME (LINE): the kernel modules MODS names and
 * those its stap module's probes lie in, dependencies first; each
 * module's file goes into the guest once, as lib/tbmods/M.ko. */
static char *job_loads(const char *dir, const char *name, const char *mods,
		       const char *line, struct files *files)
{
	char *ko = job_module(dir, line), *probed, *list, *out = NULL, err[512];
	struct tb_module *m = NULL;
	size_t len = 0;
	FILE *f;
	int n, i, k;

	probed = ko ? tb_modules_probed(ko) : NULL;
	list = xasprintf("%s %s", mods, probed ? probed : "");
	n = tb_modules_resolve(files->modules_dir, list, &m, err, sizeof err);
	if (n < 0) {
		fprintf(stderr, "%s: error: job %s: %s\n", prog, name, err);
		exit(1);
	}
	f = open_memstream(&out, &len);
	for (i = 0; i < n; i++) {
		char *guest = xasprintf("lib/tbmods/%s.ko%s", m[i].name, "");
		for (k = 0; k < files->n; k++)
			if (files->v[k].guest && !strcmp(files->v[k].guest, guest))
				break;
		if (k == files->n)
			add_file(files, m[i].path, guest, 0);
		fprintf(f, "load %s %s %s\n", name, m[i].name, m[i].params);
	}
	fclose(f);
	free(ko);
	free(probed);
	free(list);
	return out;
}

static int read_jobs(const char *dir, struct jobs *j, struct files *files)
{
	char line[4096], name[256], *path = xasprintf("%s/%s", dir, "jobs");
	char *mods = strdup(""), *loads;
	char *with = "";	/* the user and bg lines of the next job */
	FILE *f = fopen(path, "r"), *head;
	size_t len = 0;
	int secs;

	if (!f)
		return -1;
	head = open_memstream(&j->head, &len);
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "modules ", 8)) {
			line[strcspn(line, "\n")] = '\0';
			mods = xasprintf("%s %s", mods, line + 8);
			continue;
		}
		if (!strncmp(line, "user ", 5) || !strncmp(line, "bg ", 3)) {
			with = xasprintf("%s%s", with, line);
			continue;
		}
		if (strncmp(line, "run ", 4) && strncmp(line, "sh ", 3)) {
			fputs(line, head);
			continue;
		}
		if (sscanf(line, "%*s %255s %d", name, &secs) != 2)
			continue;
		j->line = realloc(j->line, (j->n + 1) * sizeof *j->line);
		j->name = realloc(j->name, (j->n + 1) * sizeof *j->name);
		if (!j->line || !j->name)
			exit(1);
		loads = job_loads(dir, name, mods, line, files);
		j->line[j->n] = xasprintf("%s%s", loads, with);
		j->line[j->n] = xasprintf("%s%s", j->line[j->n], line);
		free(loads);
		with = "";
		mods = strdup("");
		j->name[j->n++] = strdup(name);
		if (secs > j->max_secs)
			j->max_secs = secs;
	}
	fclose(head);
	fclose(f);
	return 0;
}

/* DIR/jobs.boot: DIR/jobs with its run lines from FROM on. */
static char *write_boot_jobs(const char *dir, const struct jobs *j, int from)
{
	char *dst = xasprintf("%s/%s", dir, "jobs.boot");
	FILE *out = fopen(dst, "w");
	int i;

	if (!out) {
		fprintf(stderr, "%s: error: cannot write %s: %s\n", prog, dst,
			strerror(errno));
		exit(1);
	}
	fputs(j->head, out);
	for (i = from; i < j->n; i++)
		fputs(j->line[i], out);
	fclose(out);
	return dst;
}

static int has_result(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s.rc", dir, name);
	int ok = !access(p, F_OK);

	free(p);
	return ok;
}

/* The guest failed during job NAME.  The first time (RETRY), its console
 * log is kept as console.NAME.1.log, DIR/NAME.retried says what happened,
 * and the job runs again in a new guest: a guest can be wedged by what an
 * earlier job left, and the test suite reports the first failure either
 * way.  The second time, console.NAME.log and DIR/NAME.guest (the test's
 * failure). */
static void blame(const char *dir, const char *name, const char *error,
		  int retry)
{
	char *from = xasprintf("%s/%s", dir, "console.log");
	char *to = xasprintf(retry ? "%s/console.%s.1.log" : "%s/console.%s.log",
			     dir, name);
	char *p = xasprintf(retry ? "%s/%s.retried" : "%s/%s.guest", dir, name);
	FILE *f = fopen(p, "w");

	rename(from, to);
	fprintf(stderr, "%s: %s during %s: %s (console log: %s)%s\n", prog,
		retry ? "note:" : "error:", name, error, to,
		retry ? "; it runs again in a new guest" : "");
	if (f) {
		fprintf(f, "%s (console log: %s)\n", error, to);
		fclose(f);
	}
	free(from);
	free(to);
	free(p);
}

/* Boot after boot until every job has run: a guest that hangs or dies
 * is blamed on the job it was running, which runs once more in a new
 * guest before the jobs after it (at most MAX_BOOTS boots). */
#define MAX_BOOTS 8

static int run_all(struct tb_guest *g, struct files *files, const char *dir,
		   const struct jobs *j)
{
	char *stream = xasprintf("%s/%s", dir, ".results");
	char *tried = calloc((size_t)j->n + 1, 1);
	struct tb_result r;
	int from = 0, boots = 0, failed = 0;

	while (from < j->n || (!j->n && !boots)) {
		int fd, rc;

		files->v[0].host = write_boot_jobs(dir, j, from);
		fd = open(stream, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, "%s: error: cannot create %s: %s\n",
				prog, stream, strerror(errno));
			return 1;
		}
		rc = tb_run(g, fd, 2, &r);
		close(fd);
		unpack(dir, stream);
		boots++;
		while (from < j->n && has_result(dir, j->name[from]))
			from++;
		if (!rc)
			return failed || from < j->n;
		/* SIGINT or SIGTERM (the guest is stopped): the batch stops
		 * too, and nothing is blamed or runs again */
		if (r.interrupted) {
			if (from < j->n)
				fprintf(stderr, "%s: error: interrupted during %s: it and the jobs after it did not run to their end\n",
					prog, j->name[from]);
			else
				fprintf(stderr, "%s: error: interrupted\n", prog);
			return 1;
		}
		/* a guest that did not boot fails the batch at once, silent
		 * or not: a boot starved by the host's load is waited for,
		 * its limit counting the CPU time it got (testbed.c), and a
		 * kernel that went down while booting is never retried into
		 * a pass */
		if (from == j->n || !r.booted) {
			fprintf(stderr, "%s: error: %s (console log: %s/console.log)\n",
				prog, r.error, dir);
			return 1;
		}
		blame(dir, j->name[from], r.error, !tried[from]);
		if (tried[from]++) {
			from++;
			failed = 1;
		}
		if (boots == MAX_BOOTS && from < j->n) {
			fprintf(stderr, "%s: error: %d guests failed; the jobs from %s on did not run\n",
				prog, boots, j->name[from]);
			return 1;
		}
	}
	return failed;
}

int main(int argc, char **argv)
{
	const char *dir, *staprun, *stapio, *tbdir;
	struct files files = { 0 };
	struct jobs jobs = { 0 };
	struct tb_guest g;
	char *job, *state;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "Usage: %s run-batch DIR\n", prog);
		return 1;
	}
	dir = argv[1];
	staprun = env_or("SYSTEMTAP_STAPRUN", BINDIR "/staprun");
	stapio = env_or("SYSTEMTAP_STAPIO", PKGLIBEXECDIR "/stapio");
	tbdir = env_or("STAP_TESTBED_DIR", "/var/cache/ctap/testbed");
	state = xasprintf("%s/%s", tbdir, "vmlinuz");
	if (access(state, R_OK)) {
		fprintf(stderr, "%s: error: the testbed is not set up (no %s): run 'stap-testbed setup' as root\n",
			prog, state);
		return 1;
	}
	if (collect(dir, &files))
		return 1;
	files.modules_dir = xasprintf("%s/%s", tbdir, "modules");
	if (read_jobs(dir, &jobs, &files))
		return 1;
	if (!access(staprun, X_OK))
		add_file(&files, staprun, NULL, 1);
	if (!access(stapio, X_OK))
		add_file(&files, stapio, NULL, 1);
	job = xasprintf("export SYSTEMTAP_STAPIO=%s STAPRUN=%s\n",
			shell_quoted(stapio), shell_quoted(staprun));
	job = xasprintf("%sSTAPIO_INSTALLED=%s\n", job,
			shell_quoted(PKGLIBEXECDIR "/stapio"));
	job = xasprintf("%sSTAPRUN_INSTALLED=%s\n", job,
			shell_quoted(BINDIR "/staprun"));
	job = xasprintf("%s%s", job, job_loop);

	memset(&g, 0, sizeof g);
	g.kernel = state;
	g.workdir = dir;
	g.files = files.v;
	g.nfiles = files.n;
	g.job = job;
	g.kargs = getenv("STAP_TESTBED_KARGS");	/* run-tests' debug checks */
	g.cpus = atoi(env_or("STAP_TESTBED_CPUS", "0"));
	g.verbose = getenv("STAP_TESTBED_VERBOSE") != NULL;
	g.boot_timeout = atoi(env_or("STAP_TESTBED_BOOT_TIMEOUT", "0"));
	/* A job reports when it ends, within its time limit, the 5 s before
	 * its SIGKILL and the removal of its module. */
	g.idle_timeout = atoi(env_or("STAP_TESTBED_IDLE_TIMEOUT", "0"));
	if (g.idle_timeout <= 0)
		g.idle_timeout = jobs.max_secs + 120;
	g.system_map = xasprintf("%s/%s", tbdir, "System.map");
	g.modules = files.modules;
	g.modules_dir = files.modules_dir;
	return run_all(&g, &files, dir, &jobs);
}
