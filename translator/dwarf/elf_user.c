/* elf_user.c - a user-space program or library as the uprobe and SDT
 * families need it: PT_LOAD segments, function and data symbols (.symtab,
 * else .dynsym) and the stapsdt notes, read once per path with libelf.
 * Note layout (an ABI: sys/sdt.h writes it, stap and gdb read it): name
 * "stapsdt", type 3, three address-size words (pc, link-time address of
 * .stapsdt.base, semaphore or 0), then provider, name and arguments, each
 * NUL-terminated.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/dw_file.h"
#include "dwarf/elf_user.h"
#include "util/fileio.h"

#define NT_STAPSDT 3

struct cached {
	struct cached *next;
	struct elf_user eu;
};

static struct cached *cache;

static void *grow(void *v, size_t n, size_t size)
{
	void *p;

	if (n & (n - 1))	/* grow at powers of two */
		return v;
	p = realloc(v, (n ? 2 * n : 8) * size);
	if (!p) {
		perror("stap");
		exit(1);
	}
	return p;
}

static char *xdup(const char *s)
{
	char *p = strdup(s);

	if (!p) {
		perror("stap");
		exit(1);
	}
	return p;
}

static int by_name(const void *a, const void *b)
{
	const struct elf_user_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void read_loads(Elf *elf, struct elf_user *eu)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_INTERP) {
			size_t size;
			const char *raw = elf_rawfile(elf, &size);

			if (raw && ph.p_offset < size && ph.p_filesz &&
			    ph.p_filesz <= size - ph.p_offset &&
			    !raw[ph.p_offset + ph.p_filesz - 1])
				eu->interp = xdup(raw + ph.p_offset);
		}
		if (ph.p_type != PT_LOAD)
			continue;
		eu->loads = grow(eu->loads, eu->nloads, sizeof *eu->loads);
		eu->loads[eu->nloads++] = (struct elf_user_load){
			ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_filesz };
	}
}

static void add_sym(struct elf_user_sym **v, size_t *n, const char *name,
		    const GElf_Sym *sym)
{
	*v = grow(*v, *n, sizeof **v);
	(*v)[(*n)++] = (struct elf_user_sym){ xdup(name), sym->st_value,
					      sym->st_size };
}

static void read_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			 struct elf_user *eu)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, k;
	GElf_Sym sym;
	const char *name;

	for (i = 1; d && i < n; i++) {
		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC ||
		    GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC)
			add_sym(&eu->funcs, &eu->nfuncs, name, &sym);
		else if (GELF_ST_TYPE(sym.st_info) != STT_FILE &&
			 GELF_ST_TYPE(sym.st_info) != STT_SECTION)
			add_sym(&eu->objs, &eu->nobjs, name, &sym);
	}
	qsort(eu->funcs, eu->nfuncs, sizeof *eu->funcs, by_name);
	for (i = k = 0; i < eu->nfuncs; i++)	/* one per name */
		if (!k || strcmp(eu->funcs[k - 1].name, eu->funcs[i].name))
			eu->funcs[k++] = eu->funcs[i];
	eu->nfuncs = k;
	qsort(eu->objs, eu->nobjs, sizeof *eu->objs, by_name);
}

/* The PLT slots of .rela.plt's JUMP_SLOT relocations: on x86-64 the Nth
 * is the Nth 16-byte entry of .plt.sec (IBT) or the (N+1)th of .plt
 * (after its header). */
static void read_plt(Elf *elf, Elf_Scn *rela, uint64_t plt, uint64_t plt_sec,
		     struct elf_user *eu)
{
	Elf_Data *d = elf_getdata(rela, NULL), *symd;
	Elf_Scn *dynsym;
	GElf_Shdr sh, dsh;
	GElf_Rela r;
	GElf_Sym sym;
	const char *name;
	size_t i, n;

	if (!d || !gelf_getshdr(rela, &sh) || !sh.sh_entsize ||
	    !(dynsym = elf_getscn(elf, sh.sh_link)) || !gelf_getshdr(dynsym, &dsh) ||
	    !(symd = elf_getdata(dynsym, NULL)))
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getrela(d, (int)i, &r) ||
		    !gelf_getsym(symd, (int)GELF_R_SYM(r.r_info), &sym) ||
		    !(name = elf_strptr(elf, dsh.sh_link, sym.st_name)) || !*name)
			continue;
		sym.st_value = plt_sec ? plt_sec + 16 * i : plt + 16 * (i + 1);
		sym.st_size = 16;
		add_sym(&eu->plts, &eu->nplts, name, &sym);
	}
}

static uint64_t word(const char *p, int is64)
{
	uint64_t v64;
	uint32_t v32;

	if (is64) {
		memcpy(&v64, p, 8);
		return v64;
	}
	memcpy(&v32, p, 4);
	return v32;
}

/* The notes of one .note.stapsdt section; BASE: .stapsdt.base's address
 * now (0: none). */
static void read_notes(Elf_Scn *scn, struct elf_user *eu, uint64_t base,
		       int is64)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off, w = is64 ? 8 : 4;
	GElf_Nhdr nh;

	while (d && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
		const char *desc = (const char *)d->d_buf + desc_off, *p;
		const char *end = desc + nh.n_descsz;
		struct elf_user_note *n;
		uint64_t link_base;

		off = next;
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 ||
		    memcmp((const char *)d->d_buf + name_off, "stapsdt", 8) ||
		    nh.n_descsz < 3 * w + 3 || end[-1])
			continue;
		eu->notes = grow(eu->notes, eu->nnotes, sizeof *eu->notes);
		n = &eu->notes[eu->nnotes++];
		n->pc = word(desc, is64);
		link_base = word(desc + w, is64);
		n->sem = word(desc + 2 * w, is64);
		if (base && link_base && base != link_base) {	/* prelinked */
			n->pc += base - link_base;
			if (n->sem)
				n->sem += base - link_base;
		}
		p = desc + 3 * w;
		n->provider = xdup(p);
		p += strlen(p) + 1;
		n->name = xdup(p < end ? p : "");
		p += strlen(p) + 1;
		n->args = xdup(p < end ? p : "");
	}
}

static void read_dynamic(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			 struct elf_user *eu)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	const char *str;
	GElf_Dyn dyn;

	for (i = 0; d && i < n && gelf_getdyn(d, (int)i, &dyn); i++) {
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH &&
		    dyn.d_tag != DT_RPATH)
			continue;
		str = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (!str)
			continue;
		if (dyn.d_tag == DT_NEEDED) {
			eu->needed = grow(eu->needed, eu->nneeded, sizeof *eu->needed);
			eu->needed[eu->nneeded++] = xdup(str);
		} else if (dyn.d_tag == DT_RUNPATH || !eu->runpath) {
			eu->runpath = xdup(str);
		}
	}
}

/* The NT_GNU_BUILD_ID note of a SHT_NOTE section, as hex. */
static void read_build_id(Elf_Scn *scn, struct elf_user *eu)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off, i;
	GElf_Nhdr nh;
	char *hex;

	while (d && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
		off = next;
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)d->d_buf + name_off, "GNU", 4))
			continue;
		hex = malloc(2 * nh.n_descsz + 1);
		if (!hex) {
			perror("stap");
			exit(1);
		}
		for (i = 0; i < nh.n_descsz; i++)
			sprintf(hex + 2 * i, "%02x",
				((const unsigned char *)d->d_buf)[desc_off + i]);
		hex[2 * i] = '\0';
		eu->build_id = hex;
		return;
	}
}

/* Is there a separate debug file for the build-id, where Debian's -dbg
 * and -dbgsym packages put it? */
static int has_debug_file(const char *build_id)
{
	char path[512], host[4200];

	if (strlen(build_id) < 4)
		return 0;
	snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%.2s/%s.debug",
		 build_id, build_id + 2);
	return !access(dw_rooted(path, host, sizeof host), R_OK);
}

static int read_file(Elf *elf, struct elf_user *eu)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *rela_plt = NULL;
	GElf_Shdr sh, symsh = { 0 }, dynsh = { 0 };
	GElf_Ehdr eh;
	size_t shstrndx;
	uint64_t base = 0, plt = 0, plt_sec = 0;
	const char *name;
	int is64 = gelf_getclass(elf) == ELFCLASS64;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	eu->is_dyn = eh.e_type == ET_DYN;
	read_loads(elf, eu);
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			symsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsh = sh;
		} else if (sh.sh_type == SHT_DYNAMIC) {
			read_dynamic(elf, scn, &sh, eu);
		} else if (name && !strcmp(name, ".stapsdt.base")) {
			base = sh.sh_addr;
		} else if (name && !strcmp(name, ".debug_info")) {
			eu->has_dwarf = 1;
		} else if (name && !strcmp(name, ".rela.plt")) {
			rela_plt = scn;
		} else if (name && !strcmp(name, ".plt")) {
			plt = sh.sh_addr;
		} else if (name && !strcmp(name, ".plt.sec")) {
			plt_sec = sh.sh_addr;
		}
	}
	if (rela_plt && plt)
		read_plt(elf, rela_plt, plt, plt_sec, eu);
	if (symtab)
		read_symbols(elf, symtab, &symsh, eu);
	else if (dynsym)
		read_symbols(elf, dynsym, &dynsh, eu);
	eu->build_id = "";
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".note.stapsdt"))
			read_notes(scn, eu, base, is64);
		else if (!*eu->build_id)
			read_build_id(scn, eu);
	}
	eu->has_dwarf |= has_debug_file(eu->build_id);
	return 0;
}

const struct elf_user *elf_user_open(const char *path, char *err,
				     size_t errlen)
{
	struct cached *c;
	char host[4200];
	const char *hpath;
	Elf *elf;
	int fd, rc;

	for (c = cache; c; c = c->next)
		if (!strcmp(c->eu.path, path))
			return &c->eu;
	hpath = dw_rooted(path, host, sizeof host);
	/* staprun -P: as missing when the user may not read it */
	errno = ENOENT;
	fd = fio_user_may_read(hpath) ? open(hpath, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "not an ELF file");
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	c = calloc(1, sizeof *c);
	if (!c) {
		perror("stap");
		exit(1);
	}
	c->eu.path = xdup(path);
	rc = read_file(elf, &c->eu);
	elf_end(elf);
	close(fd);
	if (rc) {
		snprintf(err, errlen, "%s", elf_errmsg(-1));
		free(c);
		return NULL;
	}
	c->next = cache;
	cache = c;
	return &c->eu;
}

int elf_user_offset(const struct elf_user *eu, uint64_t addr, uint64_t *off)
{
	size_t i;

	for (i = 0; i < eu->nloads; i++) {
		const struct elf_user_load *l = &eu->loads[i];

		if (addr >= l->vaddr && addr < l->vaddr + l->memsz) {
			*off = addr - l->vaddr + l->offset;
			return 0;
		}
	}
	return -1;
}

static const struct elf_user_sym *find(const struct elf_user_sym *v, size_t n,
				       const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(v[mid].name, name);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo].name, name) ? &v[lo] : NULL;
}

const struct elf_user_sym *elf_user_func(const struct elf_user *eu,
					 const char *name)
{
	return find(eu->funcs, eu->nfuncs, name);
}

const struct elf_user_sym *elf_user_obj(const struct elf_user *eu,
					const char *name)
{
	return find(eu->objs, eu->nobjs, name);
}
