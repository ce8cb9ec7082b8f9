/* dw_file.c - debug files opened once through libdwfl (dw_file.h).
 *
 * Reads: a debug ELF (a vmlinux, a module's .ko from the -dbg package, or
 * a user binary).  Writes nothing.  Each file gets its own offline Dwfl
 * session so that files never share an address space: a module's sections
 * are laid out by libdwfl from 0, a vmlinux keeps its link addresses.
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/dw_file.h"

struct dw_file {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dbg;
	Dwarf_Addr bias;
	char build_id[41 * 2];
	struct dw_file *next;
};

static struct dw_file *files;
static dw_symaddr_fn *symaddr;	/* dw_file_set_symaddr */
static void *symaddr_arg;

static const char *sysroot;	/* dw_set_sysroot: NULL for / */
static char *debuginfo_path;	/* libdw's search for separate debug
				   files, under the sysroot; NULL: its
				   default */

static Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

void dw_set_sysroot(const char *root)
{
	static char path[4200];

	if (!root || !strcmp(root, "/"))
		return;
	sysroot = root;
	/* the file's directory, its .debug, then the root's /usr/lib/debug
	 * (also searched by build-id) */
	snprintf(path, sizeof path, ":.debug:%s/usr/lib/debug", root);
	debuginfo_path = path;
}

const char *dw_rooted(const char *path, char *buf, size_t n)
{
	if (!sysroot || path[0] != '/')
		return path;
	snprintf(buf, n, "%s%s", sysroot, path);
	return buf;
}

static void read_build_id(struct dw_file *f)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(f->mod, &bits, &vaddr), i;

	f->build_id[0] = 0;
	for (i = 0; i < n && i < 40; i++)
		snprintf(f->build_id + 2 * i, 3, "%02x", bits[i]);
}

struct dw_file *dw_file_open(const char *path, char *err, size_t errlen)
{
	struct dw_file *f;

	for (f = files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof *f);
	if (!f || !(f->path = strdup(path))) {
		free(f);
		snprintf(err, errlen, "out of memory opening %s", path);
		return NULL;
	}
	f->dwfl = dwfl_begin(&offline_callbacks);
	if (f->dwfl)
		f->mod = dwfl_report_offline(f->dwfl, path, path, -1);
	if (f->mod && dwfl_report_end(f->dwfl, NULL, NULL) == 0)
		f->dbg = dwfl_module_getdwarf(f->mod, &f->bias);
	if (!f->dbg) {
		snprintf(err, errlen, "cannot read the debug info of %s: %s",
			 path, dwfl_errmsg(-1));
		if (f->dwfl)
			dwfl_end(f->dwfl);
		free(f->path);
		free(f);
		return NULL;
	}
	read_build_id(f);
	f->next = files;
	files = f;
	return f;
}

const char *dw_file_path(const struct dw_file *f)
{
	return f->path;
}

const char *dw_file_build_id(const struct dw_file *f)
{
	return f->build_id;
}

void *dw_file_dwarf(const struct dw_file *f, uint64_t *bias)
{
	if (bias)
		*bias = f->bias;
	return f->dbg;
}

void *dw_file_module(const struct dw_file *f)
{
	return f->mod;
}

void dw_file_set_symaddr(dw_symaddr_fn *fn, void *arg)
{
	symaddr = fn;
	symaddr_arg = arg;
}

/* Symbol I of F if it is a named object or function (or untyped) symbol
 * of a section; its name, its relocated address and size. */
static const char *data_sym(struct dw_file *f, int i, GElf_Addr *addr,
			    GElf_Sym *sym)
{
	GElf_Word shndx;
	const char *name = dwfl_module_getsym_info(f->mod, i, sym, addr, &shndx,
						   NULL, NULL);
	int type = name ? GELF_ST_TYPE(sym->st_info) : STT_SECTION;

	if (!name || !*name || shndx == SHN_UNDEF || shndx == SHN_ABS ||
	    (type != STT_OBJECT && type != STT_FUNC && type != STT_NOTYPE))
		return NULL;
	return name;
}

const char *dw_file_symaddr(struct dw_file *f, uint64_t addr)
{
	int n = symaddr ? dwfl_module_getsymtab(f->mod) : 0, i, uses = 0;
	const char *name, *best = NULL;
	GElf_Addr a, best_addr = 0;
	GElf_Sym sym;

	for (i = 1; i < n; i++) {	/* the symbol holding ADDR */
		if (!(name = data_sym(f, i, &a, &sym)) || a > addr ||
		    (a != addr && addr - a >= sym.st_size) ||
		    (best && best_addr >= a))
			continue;
		best = name;
		best_addr = a;
	}
	for (i = 1; best && i < n; i++)	/* the kernel finds the first */
		if ((name = data_sym(f, i, &a, &sym)) && !strcmp(name, best))
			uses++;
	if (!best || uses != 1)
		return NULL;
	return symaddr(symaddr_arg, f->path, best, addr - best_addr);
}

int dw_file_symbol(struct dw_file *f, const char *name, uint64_t *addr)
{
	int n = dwfl_module_getsymtab(f->mod), i;
	const char *s;
	GElf_Addr a;
	GElf_Sym sym;

	for (i = 1; i < n; i++)
		if ((s = data_sym(f, i, &a, &sym)) && !strcmp(s, name) &&
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC) {
			*addr = a;
			return 0;
		}
	return -1;
}

void dw_file_close_all(void)
{
	struct dw_file *f, *next;

	for (f = files; f; f = next) {
		next = f->next;
		dwfl_end(f->dwfl);
		free(f->path);
		free(f);
	}
	files = NULL;
}

const char *dw_lib_version(void)
{
	return dwfl_version(NULL);
}
