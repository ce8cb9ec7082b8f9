/* cache.c - the cache of built modules (see cache.h).
 *
 * Layout of $SYSTEMTAP_DIR/cache:
 *   XX/NAME.ko             a module, XX the first two hex digits of its key
 *   stamps/HASH            the digest of one file, valid while its stat
 *                          stamp (device, inode, size, mtime, ctime) holds
 *   rtlib/KEY.o, KEY.cmd   the runtime's object (recipe.c)
 *   rtlib/KEY.common.o     the kernel's module-common object (6.10 on)
 *   dwarf/BUILDID.idx      a debug file's function index (dwarf/dw_index.c;
 *                          a run that reads one holds a shared flock on
 *                          it)
 * All of these are what the size limit counts and the cleaner removes,
 * least recently used first (a read marks one used: its modification
 * time); the next run that needs one makes it again.  Not counted: the
 * per-kernel features/ and recipes/, small and costly to remake.
 *   cache_mb_limit, cache_clean_interval_s   as stap: size limit in MiB,
 *                          and how often (s) the limit is enforced (the
 *                          latter's modification time: when it last was)
 * Everything is written to a temporary name and renamed into place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "includes/sys/sdt.h"

#include "build/cache.h"
#include "session.h"
#include "util/fileio.h"

#define CACHE_DEFAULT_MB 256
#define CACHE_DEFAULT_INTERVAL 300

void cache_key_add(struct sha256 *key, const char *tag, const void *data,
		   size_t n)
{
	char len[32];

	sha256_update(key, tag, strlen(tag) + 1);
	snprintf(len, sizeof len, "%zu", n);
	sha256_update(key, len, strlen(len) + 1);
	sha256_update(key, data, n);
}

void cache_key_str(struct sha256 *key, const char *tag, const char *str)
{
	cache_key_add(key, tag, str ? str : "", str ? strlen(str) : 0);
}

/* ---- file digests, remembered by stat stamp ---- */

static int digest_fd(int fd, char hex[65])
{
	char buf[65536];
	struct sha256 c;
	ssize_t n;

	sha256_init(&c);
	while ((n = read(fd, buf, sizeof buf)) > 0)
		sha256_update(&c, buf, (size_t)n);
	sha256_final_hex(&c, hex);
	return n < 0 ? -1 : 0;
}

static void stamp_of(const struct stat *st, char *buf, size_t n)
{
	snprintf(buf, n, "1 %llu %llu %lld %lld.%09ld %lld.%09ld",
		 (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (long long)st->st_size,
		 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		 (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

static const char *memo_path(struct session *s, const char *cdir,
			     const char *path)
{
	struct sha256 c;
	char hex[65];

	sha256_init(&c);
	sha256_update(&c, path, strlen(path));
	sha256_final_hex(&c, hex);
	hex[40] = 0;
	return arena_printf(s->arena, "%s/stamps/%s", cdir, hex);
}

/* The digest of PATH (already stat'ed as ST), from the memo when its
 * stamp still matches. */
static int file_digest(struct session *s, const char *path,
		       const struct stat *st, char hex[65])
{
	const char *cdir = fio_cache_dir(s), *memo = NULL;
	char stamp[160], line[300];
	size_t sl;
	int fd, rc;

	stamp_of(st, stamp, sizeof stamp);
	sl = strlen(stamp);
	if (cdir) {
		memo = memo_path(s, cdir, path);
		fd = open(memo, O_RDONLY);
		if (fd >= 0) {
			ssize_t n = read(fd, line, sizeof line - 1);
			if (n == (ssize_t)sl + 1 + 64 && !memcmp(line, stamp, sl) &&
			    line[sl] == ' ') {
				futimens(fd, NULL);	/* used: for the cleaner */
				close(fd);
				memcpy(hex, line + sl + 1, 64);
				hex[64] = 0;
				return 0;
			}
			close(fd);
		}
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	rc = digest_fd(fd, hex);
	close(fd);
	if (rc || !memo)
		return rc;
	snprintf(line, sizeof line, "%s %s", stamp, hex);
	if (fio_write_atomic(memo, line, strlen(line)) && errno == ENOENT &&
	    !fio_mkdirs(arena_printf(s->arena, "%s/stamps", cdir)))
		fio_write_atomic(memo, line, strlen(line));
	return 0;
}

void cache_key_file(struct session *s, struct sha256 *key, const char *tag,
		    const char *path)
{
	struct stat st;
	char hex[65];

	if (!path || stat(path, &st) || !S_ISREG(st.st_mode) ||
	    file_digest(s, path, &st, hex))
		strcpy(hex, "missing");
	cache_key_str(key, tag, path);
	cache_key_str(key, "digest", hex);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is NAME a C source or header?  Only those can reach the module; other
 * files (objects of a build in the source tree) would only break hits. */
static int is_c_file(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* Digests of the C files under ROOT/REL in name order; hidden files
 * (editor and VCS leftovers) are not part of the runtime. */
static void key_dir(struct session *s, struct sha256 *key, const char *root,
		    const char *rel, int depth)
{
	const char *dpath = *rel ? arena_printf(s->arena, "%s/%s", root, rel) : root;
	DIR *d = opendir(dpath);
	struct dirent *e;
	struct vec names = { 0 };
	struct stat st;
	char hex[65];
	int i;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			vec_push(s->arena, &names, arena_strdup(s->arena, e->d_name));
	closedir(d);
	if (names.n)
		qsort(names.v, (size_t)names.n, sizeof names.v[0], cmp_str);
	for (i = 0; i < names.n; i++) {
		const char *r = *rel ? arena_printf(s->arena, "%s/%s", rel,
						    (char *)names.v[i])
				     : names.v[i];
		const char *p = arena_printf(s->arena, "%s/%s", root, r);
		if (stat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 8) {
			key_dir(s, key, root, r, depth + 1);
		} else if (S_ISREG(st.st_mode) && is_c_file(r)) {
			if (file_digest(s, p, &st, hex))
				strcpy(hex, "unreadable");
			cache_key_str(key, "file", r);
			cache_key_str(key, "digest", hex);
		}
	}
}

void cache_key_tree(struct session *s, struct sha256 *key, const char *tag,
		    const char *dir)
{
	cache_key_str(key, tag, dir);
	key_dir(s, key, dir, "", 0);
	cache_key_str(key, "end", tag);
}

/* ---- modules ---- */

static const char *cache_module_path(struct session *s, const char *key,
			      const char *name)
{
	const char *cdir = fio_cache_dir(s);

	if (!cdir)
		return NULL;
	/* An automatic name already is the key; a chosen one gets it added,
	 * since the same name is built from many scripts. */
	if (!strncmp(name, "stap_", 5) && !strncmp(name + 5, key, 32) && !name[37])
		return arena_printf(s->arena, "%s/%.2s/%s.ko", cdir, key, name);
	return arena_printf(s->arena, "%s/%.2s/%s_%.32s.ko", cdir, key, name, key);
}

const char *cache_lookup(struct session *s, const char *key, const char *name)
{
	const char *path = cache_module_path(s, key, name);
	struct stat st;

	if (!path || s->poison_cache)
		return NULL;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size == 0)
		return NULL;
	/* The modification time says when it was last used: the cleaner
	 * removes the least recently used first. */
	utimensat(AT_FDCWD, path, NULL, 0);
	/* stap.cache_get: the C source and the module found for it */
	STAP_PROBE2(stap, cache__get, s->c_source, path);
	return path;
}

const char *cache_store(struct session *s, const char *key, const char *name,
			const char *ko)
{
	const char *path = cache_module_path(s, key, name), *why = NULL;
	size_t dlen;
	char *tmp;
	int fd;

	if (!path)
		return NULL;
	dlen = (size_t)(strrchr(path, '/') - path);
	/* Hidden, so that the cleaner and lookups never see a partial file. */
	tmp = arena_printf(s->arena, "%.*s/.%s.XXXXXX", (int)dlen, path, name);
	if (fio_mkdirs(arena_strndup(s->arena, path, dlen))) {
		why = "cannot create its directory";
	} else if ((fd = mkstemp(tmp)) < 0) {
		why = "cannot create a file";
	} else {
		int bad = fio_copy_to_fd(ko, fd) || fchmod(fd, 0644);
		if (close(fd) || bad || rename(tmp, path)) {
			why = "cannot write the module";
			unlink(tmp);
		}
	}
	if (why) {
		if (s->verbose)
			fprintf(stderr, "Warning: module not cached in %s: %s: %s\n",
				path, why, strerror(errno));
		return NULL;
	}
	if (s->verbose >= 2)
		fprintf(stderr, "Copying %s to %s\n", ko, path);
	/* stap.cache_add_mod: the module and its place in the cache;
	 * stap.cache_add_src: its C source, which the cache keeps only as
	 * the key of that module (stap keeps a copy: here the second
	 * argument is the module's place too) */
	STAP_PROBE2(stap, cache__add__module, ko, path);
	STAP_PROBE2(stap, cache__add__source, s->c_source, path);
	cache_clean(s);
	return path;
}

/* ---- size limit ---- */

/* One thing the cleaner keeps or removes whole: a module, the runtime's
 * object for one key (rtlib/KEY.o and its KEY.cmd), a DWARF index, a
 * file's digest. */
struct cache_ent {
	const char *key;	/* rtlib: KEY; a module: XX/NAME.ko; else
				   DIR/NAME */
	struct vec paths;	/* const char *: its files */
	off_t size;		/* of them all */
	time_t used;		/* the newest modification time among them */
	int locked;		/* removed only when no run holds it (flock) */
};

/* The number in setting file PATH, created with DFLT when it is missing
 * (WHAT names the file in stap's -vv message). */
static long read_setting(struct session *s, const char *path, const char *what,
			 long dflt)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	long v;

	if (!f) {
		if (s->verbose >= 2)
			fprintf(stderr, "%s %s missing, creating default.\n",
				what, path);
		snprintf(buf, sizeof buf, "%ld\n", dflt);
		fio_write_atomic(path, buf, strlen(buf));
		return dflt;
	}
	v = fgets(buf, sizeof buf, f) ? strtol(buf, NULL, 10) : dflt;
	fclose(f);
	return v >= 0 ? v : dflt;
}

static int cmp_used(const void *a, const void *b)
{
	const struct cache_ent *x = *(struct cache_ent *const *)a;
	const struct cache_ent *y = *(struct cache_ent *const *)b;

	return x->used < y->used ? -1 : x->used > y->used;
}

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n > k && !strcmp(name + n - k, suffix);
}

/* File NAME of directory DIR into the entry named KEY (KEYLEN bytes),
 * one of ENTS from index FROM on or a new one; returns its size. */
static off_t add_file(struct session *s, struct vec *ents, int from,
		      const char *dir, const char *name, const char *key,
		      size_t keylen)
{
	const char *p = arena_printf(s->arena, "%s/%s", dir, name);
	struct cache_ent *ent = NULL;
	struct stat st;
	int i;

	if (stat(p, &st) || !S_ISREG(st.st_mode))
		return 0;
	for (i = from; i < ents->n; i++) {
		ent = ents->v[i];
		if (strlen(ent->key) == keylen && !strncmp(ent->key, key, keylen))
			break;
	}
	if (i == ents->n) {
		ent = ARENA_NEW(s->arena, struct cache_ent);
		ent->key = arena_strndup(s->arena, key, keylen);
		vec_push(s->arena, ents, ent);
	}
	vec_push(s->arena, &ent->paths, (void *)p);
	ent->size += st.st_size;
	if (st.st_mtime > ent->used)
		ent->used = st.st_mtime;
	return st.st_size;
}

/* Every module in the cache (XX/NAME.ko), and their total size. */
static off_t list_modules(struct session *s, const char *cdir, struct vec *out)
{
	DIR *top = opendir(cdir), *sub;
	struct dirent *e, *f;
	off_t total = 0;

	if (!top)
		return 0;
	while ((e = readdir(top))) {
		const char *sd;
		if (strlen(e->d_name) != 2 || e->d_name[0] == '.')
			continue;
		sd = arena_printf(s->arena, "%s/%s", cdir, e->d_name);
		if (!(sub = opendir(sd)))
			continue;
		while ((f = readdir(sub)))
			if (f->d_name[0] != '.' && has_suffix(f->d_name, ".ko")) {
				const char *key = arena_printf(s->arena, "%s/%s",
							       e->d_name, f->d_name);
				total += add_file(s, out, out->n, sd, f->d_name,
						  key, strlen(key));
			}
		closedir(sub);
	}
	closedir(top);
	return total;
}

/* The files of CDIR/SUB that NAME_OK accepts, each an entry of its own
 * or, with GROUP, grouped by their name up to its last '.'; returns
 * their total size. */
static off_t list_dir(struct session *s, const char *cdir, const char *sub,
		      int (*name_ok)(const char *), int group, struct vec *out)
{
	const char *dir = arena_printf(s->arena, "%s/%s", cdir, sub);
	DIR *d = opendir(dir);
	struct dirent *e;
	off_t total = 0;
	int i, first = out->n;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && name_ok(e->d_name)) {
			const char *key = arena_printf(s->arena, "%s/%s", sub, e->d_name);
			size_t n = group ? (size_t)(strrchr(key, '.') - key) : strlen(key);
			total += add_file(s, out, group ? first : out->n, dir,
					  e->d_name, key, n);
		}
	closedir(d);
	for (i = first; i < out->n; i++)
		((struct cache_ent *)out->v[i])->locked = !strcmp(sub, "dwarf");
	return total;
}

/* The runtime's objects: KEY.o with KEY.cmd (not the temporary KEY.tmpPID
 * of a store under way). */
static int rtlib_name(const char *name)
{
	return has_suffix(name, ".o") || has_suffix(name, ".cmd");
}

/* DWARF indexes: BUILDID.idx (not BUILDID.idx.PID.tmp, one being built). */
static int index_name(const char *name)
{
	return has_suffix(name, ".idx");
}

/* File digests: HASH (not HASH.tmpXXXXXX, one being written). */
static int stamp_name(const char *name)
{
	return !strchr(name, '.');
}

/* A DWARF index no run holds (a shared flock, dw_index.h), locked until
 * it is gone: a run that opened it just before still reads its mapping,
 * the next one rebuilds it.  Returns 0 when PATH may be removed (FD then
 * open, closed after the unlink), -1 when it is in use. */
static int lock_unused(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return 0;
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		close(*fd);
		*fd = -1;
		return -1;
	}
	return 0;
}

/* Remove ENT's files, in name order; add them to REMOVED.  Returns 0 if
 * it was kept: an index in use.  (A concurrent build that finds only one
 * of an object and its .cmd misses, and compiles the object again.) */
static int remove_ent(struct session *s, struct cache_ent *ent,
		      struct vec *removed)
{
	const char *p;
	int i, fd = -1;

	qsort(ent->paths.v, (size_t)ent->paths.n, sizeof ent->paths.v[0],
	      cmp_str);
	VEC_EACH(ent->paths, i, p) {
		if (ent->locked && lock_unused(p, &fd))
			return 0;
		if (!unlink(p)) {
			/* stap.cache_clean: each file the cleaner removes */
			STAP_PROBE1(stap, cache__clean, p);
			vec_push(s->arena, removed, (void *)p);
		}
		if (fd >= 0) {
			close(fd);
			fd = -1;
		}
	}
	return 1;
}

/* Is it time to clean?  As stap 4.8: once cache_clean_interval_s seconds
 * have passed since that file was last touched (its creation, or the last
 * cleaning, which touches it), --clean-cache included. */
static int clean_due(struct session *s, const char *cdir)
{
	const char *path = arena_printf(s->arena, "%s/cache_clean_interval_s", cdir);
	long interval = read_setting(s, path, "Cache clean interval file",
				     CACHE_DEFAULT_INTERVAL);
	struct stat st;
	long elapsed;

	if (stat(path, &st))
		return 0;
	elapsed = (long)(time(NULL) - st.st_mtime);
	if (elapsed < interval) {
		if (s->verbose >= 2)
			fprintf(stderr, "Cache cleaning skipped, interval not reached %ld s / %ld s.\n",
				elapsed, interval);
		return 0;
	}
	if (s->verbose >= 2)
		fprintf(stderr, "Cleaning cache, interval reached %ld s > %ld s.\n",
			elapsed, interval);
	utimensat(AT_FDCWD, path, NULL, 0);
	return 1;
}

void cache_clean(struct session *s)
{
	const char *cdir = fio_cache_dir(s), *p;
	struct vec ents = { 0 }, removed = { 0 };
	off_t total, limit;
	int i;

	if (!cdir || fio_mkdirs(cdir))
		return;
	limit = (off_t)read_setting(s, arena_printf(s->arena, "%s/cache_mb_limit", cdir),
				    "Cache limit file", CACHE_DEFAULT_MB) << 20;
	if (!clean_due(s, cdir))
		return;
	total = list_modules(s, cdir, &ents) +
		list_dir(s, cdir, "rtlib", rtlib_name, 1, &ents) +
		list_dir(s, cdir, "dwarf", index_name, 0, &ents) +
		list_dir(s, cdir, "stamps", stamp_name, 0, &ents);
	if (total <= limit)
		return;
	/* the least recently used first, whatever their kind */
	qsort(ents.v, (size_t)ents.n, sizeof ents.v[0], cmp_used);
	for (i = 0; i < ents.n && total > limit; i++) {
		struct cache_ent *ent = ents.v[i];
		if (remove_ent(s, ent, &removed))
			total -= ent->size;
	}
	if (removed.n && s->verbose >= 2) {
		fprintf(stderr, "Cache cleaning successful, removed entries: \n");
		VEC_EACH(removed, i, p)
			fprintf(stderr, "  %s\n", p);
	}
}
