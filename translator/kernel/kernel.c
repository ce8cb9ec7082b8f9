/* kernel.c - resolving the target kernel; see kernel.h for the rules.
 *
 * Nothing here runs a build: it only finds files and reads the kernel's
 * .config for the preprocessor's CONFIG_* conditions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "kernel/kconfig.h"
#include "session.h"
#include "util/fileio.h"

const char *kernel_testbed_dir(void)
{
	const char *d = getenv("STAP_TESTBED_DIR");

	return d && *d ? d : "/var/cache/ctap/testbed";
}

int kernel_host_loads_modules(void)
{
	return access("/proc/modules", F_OK) == 0;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* First line of a small file, without its newline; NULL if unreadable. */
static char *read_line(struct session *s, const char *path)
{
	char buf[512];
	char *nl;

	if (fio_read_line(path, buf, sizeof buf))
		return NULL;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return arena_strdup(s->arena, buf);
}

/* "6.1.0-56-cloud-amd64" -> "6.1.0" */
static const char *numeric_version(struct session *s, const char *release)
{
	size_t n = strspn(release, "0123456789.");

	while (n && release[n - 1] == '.')
		n--;
	return arena_strndup(s->arena, release, n);
}

static const char *path_if(struct session *s, const char *path)
{
	return exists(path) ? arena_strdup(s->arena, path) : NULL;
}

/* FMT with the kernel's RELEASE, under --sysroot, if it exists. */
static const char *host_path_if(struct session *s, const char *fmt,
				const char *release)
{
	return path_if(s, fio_host_path(s, arena_printf(s->arena, fmt, release)));
}

/* The testbed state directory of the kernel -r NAME names, or NULL: a
 * matrix kernel (TESTBED/kernels/NAME) or the default one by its release. */
static const char *testbed_kernel(struct session *s, const char *name)
{
	const char *tb = kernel_testbed_dir(), *rel;

	if (strchr(name, '/') || !*name || name[0] == '.')
		return NULL;
	if (exists(arena_printf(s->arena, "%s/kernels/%s/release", tb, name)))
		return arena_printf(s->arena, "%s/kernels/%s", tb, name);
	rel = read_line(s, arena_printf(s->arena, "%s/release", tb));
	return rel && !strcmp(rel, name) ? tb : NULL;
}

static int use_testbed(struct session *s, const char *tb_dir)
{
	if (s->testbed)
		return s->testbed > 0;
	if (s->kernel_build_dir || (s->kernel_release && !tb_dir))
		return 0;
	return !kernel_host_loads_modules();
}

/* K's build tree in its testbed directory: a root of its Debian release
 * (where pass 4 runs chrooted), or its headers unpacked; else where the
 * host (or --sysroot's target) keeps headers. */
static void find_build_dir(struct session *s, struct kernel_info *k)
{
	struct arena *a = s->arena;
	const char *src = arena_printf(a, "/usr/src/linux-headers-%s", k->release);
	const char *lib = arena_printf(a, "/lib/modules/%s/build", k->release);

	if (k->tb_dir && exists(arena_printf(a, "%s/root%s/Makefile", k->tb_dir, src))) {
		k->build_root = arena_printf(a, "%s/root", k->tb_dir);
		k->build_dir = arena_printf(a, "%s%s", k->build_root, src);
		k->make_dir = src;
		return;
	}
	if (k->tb_dir && exists(arena_printf(a, "%s/headers%s/Makefile", k->tb_dir, src)))
		k->build_dir = arena_printf(a, "%s/headers%s", k->tb_dir, src);
	else {
		if (!k->tb_dir) {	/* with --sysroot, the target's */
			lib = fio_host_path(s, lib);
			src = fio_host_path(s, src);
		}
		if (exists(arena_printf(a, "%s/Makefile", lib)))
			k->build_dir = lib;
		else if (exists(arena_printf(a, "%s/Makefile", src)))
			k->build_dir = src;
	}
	k->make_dir = k->build_dir;
}

/* Where K's types come from: its debug vmlinux; else, for the running
 * kernel, the BTF it exports; else the BTF inside its boot image (testbed:
 * TESTBED/vmlinuz; else /boot/vmlinuz-RELEASE). */
static const char *type_source(struct session *s, const struct kernel_info *k)
{
	struct utsname u;
	const char *img;

	if (k->vmlinux)
		return k->vmlinux;
	if (!k->tb_dir && !uname(&u) && !strcmp(u.release, k->release) &&
	    exists("/sys/kernel/btf/vmlinux"))
		return "/sys/kernel/btf/vmlinux";
	img = k->tb_dir ? arena_printf(s->arena, "%s/vmlinuz", k->tb_dir) :
			  arena_printf(s->arena, "/boot/vmlinuz-%s", k->release);
	return path_if(s, img);
}

static const struct kernel_info *resolve(struct session *s)
{
	struct kernel_info *k = ARENA_NEW(s->arena, struct kernel_info);
	struct arena *a = s->arena;
	const char *tb = NULL;
	char *p;

	if (s->kernel_release && !s->kernel_build_dir)
		tb = testbed_kernel(s, s->kernel_release);
	k->testbed = use_testbed(s, tb);
	if (k->testbed && !tb && !s->kernel_release && !s->kernel_build_dir)
		tb = kernel_testbed_dir();
	k->tb_dir = tb;
	if (s->kernel_build_dir) {
		k->build_dir = s->kernel_build_dir;
		k->release = read_line(s, arena_printf(a, "%s/include/config/kernel.release", k->build_dir));
		if (!k->release) {
			diag_fatal(&s->diags, "'%s' is not a configured kernel build tree (no include/config/kernel.release)", k->build_dir);
			return NULL;
		}
		k->make_dir = k->build_dir;
	} else if (tb) {
		p = arena_printf(a, "%s/release", tb);
		k->release = read_line(s, p);
		if (!k->release) {
			diag_fatal(&s->diags, "the testbed is not set up (no %s): run 'stap-testbed setup' (or ./setup.sh) as root first", p);
			return NULL;
		}
	} else if (s->kernel_release) {
		k->release = s->kernel_release;
	} else {
		struct utsname u;
		uname(&u);
		k->release = arena_strdup(a, u.release);
	}
	if (!k->build_dir)
		find_build_dir(s, k);
	k->version = numeric_version(s, k->release);
	if (k->build_dir)
		k->config = path_if(s, arena_printf(a, "%s/.config", k->build_dir));
	if (tb) {
		k->vmlinux = path_if(s, arena_printf(a, "%s/vmlinux", tb));
		k->system_map = path_if(s, arena_printf(a, "%s/System.map", tb));
		k->modules_dir = path_if(s, arena_printf(a, "%s/modules", tb));
		k->module_debug_dir = path_if(s, arena_printf(a, "%s/debug-modules", tb));
		if (!k->config)
			k->config = path_if(s, arena_printf(a, "%s/config", tb));
	} else {	/* the host's, or with --sysroot the target's */
		k->vmlinux = host_path_if(s, "/usr/lib/debug/boot/vmlinux-%s", k->release);
		if (!k->vmlinux)
			k->vmlinux = host_path_if(s, "/usr/lib/debug/lib/modules/%s/vmlinux", k->release);
		k->system_map = host_path_if(s, "/boot/System.map-%s", k->release);
		k->modules_dir = host_path_if(s, "/lib/modules/%s/kernel", k->release);
		k->module_debug_dir = host_path_if(s, "/usr/lib/debug/lib/modules/%s/kernel", k->release);
		if (!k->config)
			k->config = host_path_if(s, "/boot/config-%s", k->release);
	}
	k->types = type_source(s, k);
	return k;
}

const struct kernel_info *kernel_target(struct session *s)
{
	if (!s->kernel && !s->kernel_failed) {
		s->kernel = resolve(s);
		s->kernel_failed = !s->kernel;
	}
	return s->kernel;
}

const char *kernel_config_value(struct session *s, const char *name)
{
	const struct kernel_info *k = kernel_target(s);

	if (!k || !k->config)
		return NULL;
	if (!s->kconfig) {
		const struct src_file *f = NULL;
		FILE *fp = fopen(k->config, "r");

		if (fp) {
			fclose(fp);
			f = src_read(s, k->config, k->config);
		}
		s->kconfig = f ? kconfig_parse(s->arena, f->text, f->len) :
				 kconfig_parse(s->arena, "", 0);
	}
	return kconfig_get(s->kconfig, name);
}
