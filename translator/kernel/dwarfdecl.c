/* dwarfdecl.c - where the target kernel declares a function, from its
 * DWARF: "NAME@FILE:LINE", as stap names a kernel.function probe point.
 *
 * Only the names of kprobe-based aliases that stand for stap's DWARF
 * probes use it, for pp().  The debug vmlinux kernel.c finds is opened
 * once; the function's compilation unit comes from its address (the
 * .debug_aranges), and the function is the unit's subprogram of that name
 * (a compiler's clone, NAME.isra.0, is declared as NAME).  No debug info,
 * or no such function: NULL, and the caller keeps its own name.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kernel/dwarfdecl.h"
#include "kernel/kernel.h"
#include "session.h"

static struct {
	const struct session *s;
	Dwarf *dbg;
	int tried;
} cache;

static Dwarf *kernel_dwarf(struct session *s)
{
	const struct kernel_info *k;
	int fd;

	if (cache.s != s) {
		cache.s = s;
		cache.dbg = NULL;
		cache.tried = 0;
	}
	if (cache.tried)
		return cache.dbg;
	cache.tried = 1;
	k = kernel_target(s);
	if (!k || !k->vmlinux)
		return NULL;
	fd = open(k->vmlinux, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	cache.dbg = dwarf_begin(fd, DWARF_C_READ);	/* keeps fd */
	if (!cache.dbg)
		close(fd);
	return cache.dbg;
}

const char *dw_func_decl(struct session *s, const char *func,
			    uint64_t addr)
{
	Dwarf *dbg = kernel_dwarf(s);
	size_t n = strcspn(func, ".");
	Dwarf_Die cu, die;
	const char *name, *file;
	int line;

	if (!dbg || !addr || !dwarf_addrdie(dbg, addr, &cu) ||
	    dwarf_child(&cu, &die))
		return NULL;
	do {
		if (dwarf_tag(&die) != DW_TAG_subprogram)
			continue;
		name = dwarf_diename(&die);
		if (!name || strlen(name) != n || strncmp(name, func, n))
			continue;
		file = dwarf_decl_file(&die);
		if (!file || dwarf_decl_line(&die, &line))
			return NULL;
		return arena_printf(s->arena, "%s@%s:%d", name, file, line);
	} while (dwarf_siblingof(&die, &die) == 0);
	return NULL;
}
