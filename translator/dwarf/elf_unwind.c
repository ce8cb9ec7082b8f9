/* elf_unwind.c - a user file's function symbols, unwind sections and
 * build-id location, read with libelf for the packed user symbol tables
 * (emit/usymtab.c).  A file with only .debug_frame (no .eh_frame) has no
 * user backtrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/dw_file.h"
#include "dwarf/elf_unwind.h"

static void *copy(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);

	if (!q) {
		perror("stap");
		exit(1);
	}
	memcpy(q, p, n);
	return q;
}

static void take(Elf_Scn *scn, const GElf_Shdr *sh, struct elf_unwind_sec *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d || !d->d_buf || sh->sh_type == SHT_NOBITS)
		return;
	out->data = copy(d->d_buf, d->d_size);
	out->len = d->d_size;
	out->addr = sh->sh_addr;
}

static void take_build_id(Elf_Scn *scn, const GElf_Shdr *sh,
			  struct elf_unwind *uw)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
		off = next;
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)d->d_buf + name_off, "GNU", 4))
			continue;
		uw->build_id = copy((const char *)d->d_buf + desc_off,
				    nh.n_descsz);
		uw->build_id_len = nh.n_descsz;
		uw->build_id_addr = sh->sh_addr + desc_off;
		return;
	}
}

struct rawsym {
	struct elf_unwind_sym s;
	int global;
	size_t index;
};

static int by_addr(const void *a, const void *b)
{
	const struct rawsym *x = a, *y = b;

	if (x->s.addr != y->s.addr)
		return x->s.addr < y->s.addr ? -1 : 1;
	if (x->global != y->global)
		return x->global - y->global;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The functions of symbol table SCN, sorted; the last of each address
 * (the preferred one) kept. */
static void read_syms(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		      struct elf_unwind *uw)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, k = 0;
	struct rawsym *v = calloc(n ? n : 1, sizeof *v);
	const char *name;
	GElf_Sym sym;
	int type;

	if (!v) {
		perror("stap");
		exit(1);
	}
	for (i = 1; d && i < n; i++) {
		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		v[k].s = (struct elf_unwind_sym){ copy(name, strlen(name) + 1),
						  sym.st_value, sym.st_size };
		v[k].global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
		v[k++].index = i;
	}
	qsort(v, k, sizeof *v, by_addr);
	uw->syms = calloc(k ? k : 1, sizeof *uw->syms);
	if (!uw->syms) {
		perror("stap");
		exit(1);
	}
	for (i = 0; i < k; i++) {
		if (i + 1 < k && v[i + 1].s.addr == v[i].s.addr)
			continue;
		if (uw->nsyms)
			uw->syms[uw->nsyms - 1].size =
				v[i].s.addr - uw->syms[uw->nsyms - 1].addr;
		uw->syms[uw->nsyms++] = v[i].s;
	}
	free(v);
}

/* The symbol table of ELF: .symtab, else .dynsym; 0 if it has one. */
static int read_symtab(Elf *elf, struct elf_unwind *uw)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dynsh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			read_syms(elf, scn, &sh, uw);
			return 0;
		}
		if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dynsh = sh;
		}
	}
	if (!dyn)
		return -1;
	read_syms(elf, dyn, &dynsh, uw);
	return 0;
}

/* The symbols of the debug file for UW's build-id, if there is one. */
static int read_debug_syms(struct elf_unwind *uw)
{
	char path[512], host[4200];
	size_t i, n = 0;
	Elf *elf;
	int fd, rc = -1;

	if (!uw->build_id || uw->build_id_len < 2)
		return -1;
	n = (size_t)snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/",
			     uw->build_id[0]);
	for (i = 1; i < uw->build_id_len && n + 3 < sizeof path; i++)
		n += (size_t)snprintf(path + n, sizeof path - n, "%02x",
				      uw->build_id[i]);
	snprintf(path + n, sizeof path - n, ".debug");
	fd = open(dw_rooted(path, host, sizeof host), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		rc = read_symtab(elf, uw);
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

static int read_sections(Elf *elf, struct elf_unwind *uw)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".eh_frame"))
			take(scn, &sh, &uw->eh_frame);
		else if (!strcmp(name, ".eh_frame_hdr"))
			take(scn, &sh, &uw->eh_frame_hdr);
		else if (sh.sh_type == SHT_NOTE && (sh.sh_flags & SHF_ALLOC) &&
			 !uw->build_id)
			take_build_id(scn, &sh, uw);
	}
	return 0;
}

int elf_unwind_read(const char *path, struct elf_unwind *uw, char *err,
		    size_t errlen)
{
	char host[4200];
	Elf *elf;
	int fd, rc;

	memset(uw, 0, sizeof *uw);
	fd = open(dw_rooted(path, host, sizeof host), O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	rc = elf && elf_kind(elf) == ELF_K_ELF ? read_sections(elf, uw) : -1;
	if (rc)
		snprintf(err, errlen, "not an ELF file");
	else if (read_debug_syms(uw))
		read_symtab(elf, uw);
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}
