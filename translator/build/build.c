/* build.c - pass 4: compile the generated C into a kernel module with kbuild.
 *
 * Reads s->c_source (written by pass 3 into the run's temporary directory)
 * and writes a Kbuild file, the -D defines as a header, and the module
 * beside it; sets s->module_path.  With -m, or when stopping after pass 4,
 * the module is also copied to the current directory and its name printed,
 * as stap does.  kbuild.c runs make; recipe.c replays kbuild's commands
 * without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/cache.h"
#include "build/features.h"
#include "build/kbuild.h"
#include "build/recipe.h"
#include "kernel/kernel.h"
#include "session.h"
#include "util/fileio.h"
#include "util/tmpdir.h"
#include "version.h"

/* Bump when the way the module is built changes (the Kbuild file, make's
 * arguments): modules cached by an older recipe must not be reused. */
#define BUILD_RECIPE "kbuild 6"

/* The compiler kbuild runs: -B CC=…, else the one Debian's headers name in
 * .kernelvariables ("CC = … gcc-12"), else gcc; NULL when not found.  With
 * a build root, the root's. */
static const char *build_compiler(struct session *s)
{
	const char *cc = NULL, *opt, *path, *p, *root;
	char line[512], *w, *end;
	FILE *f;
	int i;

	VEC_EACH(s->kbuild_opts, i, opt)
		if (!strncmp(opt, "CC=", 3))
			cc = opt + 3;
	f = cc ? NULL : fopen(arena_printf(s->arena, "%s/.kernelvariables",
					   s->kernel->build_dir), "r");
	while (f && fgets(line, sizeof line, f)) {
		if (strncmp(line, "CC", 2) || !strchr(line, '='))
			continue;
		end = line + strcspn(line, "\n");
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = 0;
		w = strrchr(line, ' ');
		w = w ? w + 1 : line;
		if (!strncmp(w, "$(CROSS_COMPILE)", 16))
			w += 16;
		cc = arena_strdup(s->arena, w);
	}
	if (f)
		fclose(f);
	if (!cc || !*cc)
		cc = "gcc";
	root = s->kernel->build_root ? s->kernel->build_root : "";
	if (strchr(cc, '/'))
		return arena_printf(s->arena, "%s%s", root, cc);
	path = *root ? NULL : getenv("PATH");
	for (p = path ? path : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		const char *cand = arena_printf(s->arena, "%s%.*s/%s", root, (int)n, p, cc);
		if (n && !access(cand, X_OK))
			return cand;
		p += n;
	}
	return NULL;
}

/* Feed what identifies the target kernel's build tree and compiler. */
static void build_kernel_key(struct session *s, struct sha256 *key)
{
	static const char *const kfiles[] = {
		".config", "Module.symvers", "Makefile", ".kernelvariables",
		"include/generated/utsrelease.h", "include/generated/autoconf.h",
	};
	const struct kernel_info *k = s->kernel;
	const char *cc = build_compiler(s);
	char *real = realpath(k->build_dir, NULL), *rcc;
	size_t j;

	cache_key_str(key, "release", k->release);
	cache_key_str(key, "build-dir", real ? real : k->build_dir);
	free(real);
	for (j = 0; j < sizeof kfiles / sizeof kfiles[0]; j++)
		cache_key_file(s, key, "kernel-file",
			       arena_printf(s->arena, "%s/%s", k->build_dir, kfiles[j]));
	/* The compiler's binary stands for its version: an upgrade replaces
	 * it (stat stamp, through the digest memo). */
	rcc = cc ? realpath(cc, NULL) : NULL;
	cache_key_file(s, key, "compiler", rcc ? rcc : cc);
	free(rcc);
}

/* The cache key: a SHA-256 of everything that shapes the module. */
static void build_key(struct session *s, const struct strbuf *src, char hex[65])
{
	const char *opt;
	struct sha256 key;
	struct kv *kv;
	int i;

	sha256_init(&key);
	cache_key_str(&key, "recipe", BUILD_RECIPE);
	cache_key_str(&key, "translator", PACKAGE_STRING);
	cache_key_str(&key, "name", s->module_name);
	cache_key_add(&key, "source", src->s, src->len);
	cache_key_tree(s, &key, "runtime", s->runtime_dir);
	build_kernel_key(s, &key);
	VEC_EACH(s->defines, i, kv) {
		cache_key_str(&key, "define", kv->name);
		cache_key_str(&key, "value", kv->value);
	}
	VEC_EACH(s->kbuild_opts, i, opt)
		cache_key_str(&key, "kbuild-option", opt);
	sha256_final_hex(&key, hex);
}

/* The key of the runtime's object (runtime/stp_rtlib.c, recipe.c): the
 * kernel's recipe, the runtime, and the -D options (stap_defines.h, which
 * it includes as the script's unit does). */
static void build_rt_key(struct session *s, const char *recipe_key, char hex[65])
{
	struct sha256 key;
	struct kv *kv;
	int i;

	sha256_init(&key);
	cache_key_str(&key, "rtlib", recipe_key);
	cache_key_tree(s, &key, "runtime", s->runtime_dir);
	VEC_EACH(s->defines, i, kv) {
		cache_key_str(&key, "define", kv->name);
		cache_key_str(&key, "value", kv->value);
	}
	sha256_final_hex(&key, hex);
}

/* The key of the kernel's build recipe (recipe.c). */
static void build_recipe_key(struct session *s, char hex[65])
{
	struct sha256 key;

	sha256_init(&key);
	cache_key_str(&key, "recipe", BUILD_RECIPE);
	cache_key_str(&key, "translator", PACKAGE_STRING);
	build_kernel_key(s, &key);
	sha256_final_hex(&key, hex);
}

/* Our compiler flags, as Kbuild's ccflags-y: the -D options and the
 * kernel's features (features.c) come first.  -g0 undoes the kernel's -g:
 * nothing reads a script module's DWARF, and generating it is a sixth of
 * the compile time.  BUILD_LEAN_CFLAGS: the same code with less of the
 * compiler's memory (kbuild.c). */
static const char *build_ccflags(struct session *s, const char *dir)
{
	return arena_printf(s->arena, "-I%s -include %s/stap_defines.h -include %s/stp_features.h -g0 "
			    BUILD_LEAN_CFLAGS, s->runtime_dir, dir, dir);
}

/* The Kbuild file and stap_defines.h (the -D options, as #defines: no
 * quoting through make and the shell to get wrong). */
static int write_kbuild(struct session *s, const char *dir, const char *name,
			const char *base)
{
	struct strbuf kb = { 0 }, defs = { 0 };
	struct kv *kv;
	int i, rc;

	sb_puts(&defs, "/* -D options of the stap command line */\n");
	VEC_EACH(s->defines, i, kv)
		sb_printf(&defs, "#define %s %s\n", kv->name,
			  kv->value ? kv->value : "1");
	sb_printf(&kb, "obj-m := %s.o\n", name);
	if (strcmp(name, base))
		sb_printf(&kb, "%s-y := %s.o\n", name, base);
	sb_printf(&kb, "ccflags-y := %s\n", build_ccflags(s, dir));
	rc = fio_put(&s->diags, arena_printf(s->arena, "%s/stap_defines.h", dir), defs.s);
	if (!rc)
		rc = fio_put(&s->diags, arena_printf(s->arena, "%s/Kbuild", dir), kb.s);
	sb_free(&kb);
	sb_free(&defs);
	return rc;
}

static void show_log(const char *log)
{
	fflush(stderr);
	fio_copy_to_fd(log, STDERR_FILENO);
}

static const char *source_base(struct session *s)
{
	const char *slash = strrchr(s->c_source, '/');
	const char *b = slash ? slash + 1 : s->c_source;
	size_t n = strlen(b);

	if (n > 2 && !strcmp(b + n - 2, ".c"))
		n -= 2;
	return arena_strndup(s->arena, b, n);
}

/* Copy the module to NAME.ko in the current directory. */
static int keep_module(struct session *s, const char *ko, const char *name)
{
	const char *here = arena_printf(s->arena, "%s.ko", name);

	if (fio_copy(ko, here)) {
		diag_fatal(&s->diags, "cannot copy the module to %s: %s",
			   here, strerror(errno));
		return -1;
	}
	return 0;
}

/* After pass 4: -m keeps NAME.ko here; stopping after pass 4 names the
 * module on stdout, as stap does: the cached file, else NAME.ko here. */
static int deliver(struct session *s, const char *name, const char *cached)
{
	int here = s->module_name || (s->last_pass == 4 && !cached);

	if (here && keep_module(s, s->module_path, name))
		return 1;
	if (s->last_pass == 4)
		printf("%s\n", here ? arena_printf(s->arena, "%s.ko", name) : cached);
	return 0;
}

static int kbuild_failed(struct session *s, const char *log)
{
	if (s->verbose == 1)
		show_log(log);
	if (s->verbose)
		diag_fatal(&s->diags, "kernel module build failed%s",
			   s->keep_tmpdir ? "" : "; rerun with -k to keep the build directory");
	else if (s->keep_tmpdir)
		diag_fatal(&s->diags, "kernel module build failed; the compiler output is in %s",
			   log);
	else
		diag_fatal(&s->diags, "kernel module build failed; rerun with -v to see the compiler output or -k to keep the build directory");
	return 1;
}

/* Build without make when the kernel's recipe allows (recipe.c), the
 * runtime's object apart; never with -B options, which only make
 * understands. */
static int fast_build(struct session *s, const char *recipe_key,
		      const char *dir, const char *name, const char *base)
{
	char rt_key[65];

	if (s->kbuild_opts.n || !fio_cache_dir(s))
		return -1;
	build_rt_key(s, recipe_key, rt_key);
	return recipe_build(s, recipe_key, rt_key, dir, name, base,
			    arena_printf(s->arena, "%s -DSTP_RT_SPLIT",
					 build_ccflags(s, dir)));
}

int pass_build(struct session *s)
{
	const struct kernel_info *k = kernel_target(s);
	struct strbuf src = { 0 };
	const char *dir, *name, *base, *log, *cached;
	char key[65], kkey[65];

	if (!k)
		return 1;
	if (!k->build_dir) {
		diag_fatal(&s->diags, "no kernel build tree for %s: install linux-headers-%s, or set the kernel up in the testbed ('stap-testbed setup --kernel %s'), or use -r DIR",
			   k->release, k->release, k->release);
		return 1;
	}
	dir = session_tmpdir(s);
	if (!dir)
		return 1;
	if (!s->c_source || fio_read(s->c_source, &src)) {
		diag_fatal(&s->diags, "cannot read the generated C source %s",
			   s->c_source ? s->c_source : "(none)");
		sb_free(&src);
		return 1;
	}
	build_key(s, &src, key);
	sb_free(&src);
	name = s->module_name ? s->module_name
			      : arena_printf(s->arena, "stap_%.32s", key);
	if (s->verbose >= 3)
		fprintf(stderr, "Module cache key %s\n", key);
	cached = cache_lookup(s, key, name);
	if (cached) {
		if (s->verbose)
			fprintf(stderr, "Pass 4: using cached %s\n", cached);
		s->module_path = cached;
		s->module_cached = 1;
		return deliver(s, name, cached);
	}
	base = source_base(s);
	if (strncmp(s->c_source, dir, strlen(dir)) ||
	    s->c_source[strlen(dir)] != '/' ||
	    strchr(s->c_source + strlen(dir) + 1, '/')) {
		/* kbuild compiles sources of the module's own directory. */
		const char *copy = arena_printf(s->arena, "%s/%s.c", dir, base);
		if (fio_copy(s->c_source, copy)) {
			diag_fatal(&s->diags, "cannot copy %s to %s", s->c_source, copy);
			return 1;
		}
	}
	build_recipe_key(s, kkey);
	if (features_write(s, dir, kkey) || write_kbuild(s, dir, name, base))
		return 1;
	log = arena_printf(s->arena, "%s/build.log", dir);
	if (fast_build(s, kkey, dir, name, base) && kbuild_make(s, dir, log))
		return kbuild_failed(s, log);
	s->module_path = arena_printf(s->arena, "%s/%s.ko", dir, name);
	cached = cache_store(s, key, name, s->module_path);
	return deliver(s, name, cached);
}
