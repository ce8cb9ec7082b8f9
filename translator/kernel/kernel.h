/* kernel.h - which kernel the script is built for, and where its files are.
 *
 * Resolved once per run (kernel_target caches it in the session):
 *   -r DIR       a kernel build tree;
 *   -r NAME      a kernel of the testbed's matrix, set up by
 *                'stap-testbed setup --kernel NAME' in TESTBED/kernels/NAME
 *                (NAME is what it was set up by, 6.12, unstable…, or its
 *                release), or the testbed's default kernel by its release;
 *   -r RELEASE   else /lib/modules/RELEASE/build, or
 *                /usr/src/linux-headers-RELEASE;
 *   testbed      the testbed kernel recorded by the testbed setup
 *                (TESTBED = STAP_TESTBED_DIR, default /var/cache/ctap/testbed);
 *   otherwise    the running kernel (uname -r).
 * The testbed is used when asked (--testbed, STAP_TESTBED=1) or when the
 * running kernel cannot load modules (no /proc/modules), unless forbidden
 * (--no-testbed, STAP_TESTBED=0); -r RELEASE uses it only for a testbed
 * kernel.  A testbed kernel whose modules the host cannot build has a root
 * of its Debian release (TESTBED/kernels/NAME/root) where pass 4 runs.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include <stddef.h>

struct session;
struct tpcat;

struct kernel_info {
	const char *release;	/* "6.1.0-56-cloud-amd64" (kernel_vr) */
	const char *version;	/* "6.1.0" (kernel_v) */
	const char *build_dir;	/* kbuild tree: has Makefile and .config */
	const char *config;	/* path of the kernel's .config, or NULL */
	const char *vmlinux;	/* debug vmlinux with DWARF, or NULL */
	const char *types;	/* where its BTF comes from: vmlinux, else
				   /sys/kernel/btf/vmlinux (the running
				   kernel), else its boot image (a bzImage);
				   NULL when none exists */
	const char *system_map;	/* System.map, or NULL */
	const char *modules_dir; /* the kernel's modules (*.ko under it), or
				    NULL: the testbed's modules/, else
				    /lib/modules/RELEASE/kernel */
	const char *module_debug_dir; /* the modules' debug files (*.ko with
				    DWARF, laid out as under modules_dir), or
				    NULL: the testbed's debug-modules/ (from
				    the -dbg package), else
				    /usr/lib/debug/lib/modules/RELEASE/kernel */
	const char *tb_dir;	/* its testbed state directory (release,
				   vmlinuz, modules/…), or NULL if not a
				   testbed kernel */
	const char *build_root;	/* the root kbuild runs chrooted in, or NULL
				   (build_dir is then under it) */
	const char *make_dir;	/* build_dir as kbuild sees it (inside
				   build_root) */
	int testbed;		/* runs inside the testbed guest */
};

/* The target kernel; NULL after reporting an error (and every later call
 * returns NULL without a second message). */
const struct kernel_info *kernel_target(struct session *s);

/* The target kernel's tracepoint catalog and BTF types (tpcat.h), loaded
 * once; NULL with a message in ERR. */
const struct tpcat *kernel_catalog(struct session *s, char *err,
				   size_t errlen);

/* Value of CONFIG_NAME in the target kernel's .config: "y", "m", a number
 * or a string (quotes kept, as in .config); NULL when unset or unknown. */
const char *kernel_config_value(struct session *s, const char *name);

/* Directory holding the testbed's files. */
const char *kernel_testbed_dir(void);

/* Does the running kernel accept modules at all? */
int kernel_host_loads_modules(void);

#endif
