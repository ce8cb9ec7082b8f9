/* usym.c - user addresses by name: which file is mapped at an address in
 * the current task, and, when that file is packed into the module
 * (runtime/usym.h), the function symbol there, as stap shows them.
 *
 * A mapping is the packed file's when its dentry has the file's name and
 * the build-id read from the mapping (when it can be read without a
 * fault) is the packed one: a program or library found at another path
 * in the target is still known.  The mappings are read under
 * mmap_read_trylock() and never in NMI: when the lock is busy an address
 * stays unknown (printed in hex), never waited for.
 */
#ifndef STP_USYM_C
#define STP_USYM_C

#include <linux/dcache.h>
#include <linux/elf.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#define STP_COMPAT_MM
#include "stp_compat.h"
#include "stp_mem.h"
#include "usym.h"

#ifndef STP_UMODS_N
#define STP_UMODS_N 0
#endif

/* What is mapped at a user address. */
struct _stp_uloc {
	const struct _stp_umod *mod;	/* the packed file, or NULL */
	u64 rel;			/* its link-time address there */
	unsigned long start, end;	/* the span of the file's mappings */
	char path[256];			/* the mapped file's path ("" if not
					   known) */
};

/* ADDR's link-time address in MOD, from its file offset; 0 if no
 * segment holds it. */
static u64 _stp_umod_rel(const struct _stp_umod *mod, u64 off)
{
	u32 i;

	for (i = 0; i < mod->nloads; i++)
		if (off >= mod->loads[i].offset &&
		    off - mod->loads[i].offset < mod->loads[i].filesz)
			return off - mod->loads[i].offset + mod->loads[i].vaddr;
	return 0;
}

static u64 _stp_umod_off(const struct _stp_umod *mod, u64 vaddr)
{
	u32 i;

	for (i = 0; i < mod->nloads; i++)
		if (vaddr >= mod->loads[i].vaddr &&
		    vaddr - mod->loads[i].vaddr < mod->loads[i].filesz)
			return vaddr - mod->loads[i].vaddr + mod->loads[i].offset;
	return (u64)-1;
}

/* Does the build-id mapped from INODE in MM differ from MOD's?  Unknown
 * (not mapped, or not readable without a fault) counts as the same. */
static __maybe_unused int _stp_umod_bid_differs(struct mm_struct *mm,
						 struct inode *inode,
						 const struct _stp_umod *mod)
{
	struct vm_area_struct *vma;
	u64 off = _stp_umod_off(mod, mod->bid_addr), pgoff;
	u8 bid[64];
	_STP_VMA_ITERATOR(vmi, mm);

	if (!mod->bid || mod->bid_len > sizeof bid || off == (u64)-1)
		return 0;
	_stp_for_each_vma(vmi, vma) {
		if (!vma->vm_file || file_inode(vma->vm_file) != inode)
			continue;
		pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
		if (off < pgoff || off + mod->bid_len > pgoff +
		    (vma->vm_end - vma->vm_start))
			continue;
		if (_stp_read_user(bid, vma->vm_start + (off - pgoff),
				   mod->bid_len))
			return 0;
		return memcmp(bid, mod->bid, mod->bid_len) != 0;
	}
	return 0;
}

static const struct _stp_umod *_stp_umod_of(struct mm_struct *mm,
					    struct file *file)
{
#if STP_UMODS_N > 0
	const char *name = file->f_path.dentry->d_name.name;
	int i;

	for (i = 0; i < STP_UMODS_N; i++)
		if (!strcmp(name, _stp_umods[i].base) &&
		    !_stp_umod_bid_differs(mm, file_inode(file), &_stp_umods[i]))
			return &_stp_umods[i];
#endif
	return NULL;
}

/* The end of the span a shared object FILE loaded at START reserves (its
 * loadable segments' extent, bss included), from its ELF header as the
 * page cache holds it; 0 when it is not an ET_DYN file or its header is
 * not cached.  stap shows a file's span as the dynamic loader mapped it; a
 * program the kernel mapped spans its non-writable mappings. */
static unsigned long _stp_ufile_extent(struct file *file, unsigned long start)
{
	struct {
		struct elf64_hdr eh;
		struct elf64_phdr ph[16];
	} h;
	const struct elf64_phdr *ph;
	u64 lo = (u64)-1, hi = 0;
	int i;

	if (_stp_file_head(file, &h, sizeof h) ||
	    memcmp(h.eh.e_ident, ELFMAG, SELFMAG) || h.eh.e_type != ET_DYN ||
	    h.eh.e_phentsize != sizeof *ph || h.eh.e_phoff > sizeof h ||
	    h.eh.e_phnum > (sizeof h - h.eh.e_phoff) / sizeof *ph)
		return 0;
	ph = (const struct elf64_phdr *)((const char *)&h + h.eh.e_phoff);
	for (i = 0; i < h.eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		lo = min(lo, ph[i].p_vaddr & PAGE_MASK);
		hi = max(hi, ph[i].p_vaddr + ph[i].p_memsz);
	}
	return hi > lo ? start + PAGE_ALIGN(hi - lo) : 0;
}

/* What is mapped at ADDR in MM, its mmap lock held; 0 if no file is. */
static int _stp_uloc_locked(struct mm_struct *mm, unsigned long addr,
			    struct _stp_uloc *loc)
{
	struct vm_area_struct *vma = _stp_vma_lookup(mm, addr);
	struct file *file;
	struct inode *inode;
	char *p;
	_STP_VMA_ITERATOR(vmi, mm);

	if (!vma || !vma->vm_file)
		return 0;
	file = vma->vm_file;
	inode = file_inode(file);
	loc->mod = _stp_umod_of(mm, vma->vm_file);
	loc->rel = loc->mod ? _stp_umod_rel(loc->mod, addr - vma->vm_start +
					    ((u64)vma->vm_pgoff << PAGE_SHIFT)) : 0;
	p = d_path(&vma->vm_file->f_path, loc->path, sizeof loc->path);
	if (IS_ERR(p))
		loc->path[0] = '\0';
	else
		memmove(loc->path, p, strlen(p) + 1);
	loc->start = vma->vm_start;
	loc->end = vma->vm_end;
	loc->end = 0;
	_stp_for_each_vma(vmi, vma) {
		if (!vma->vm_file || file_inode(vma->vm_file) != inode)
			continue;
		loc->start = min(loc->start, vma->vm_start);
		if (!(vma->vm_flags & VM_WRITE))
			loc->end = max(loc->end, vma->vm_end);
	}
	loc->end = max(loc->end, _stp_ufile_extent(file, loc->start));
	return 1;
}

/* The current task's mm, its mmap lock taken, or NULL (no user space,
 * NMI, or the lock busy). */
static struct mm_struct *_stp_umm_lock(void)
{
	struct mm_struct *mm = current->mm;

	if (!mm || (current->flags & PF_KTHREAD) || in_nmi() ||
	    !mmap_read_trylock(mm))
		return NULL;
	return mm;
}

static __maybe_unused int _stp_uloc(unsigned long addr, struct _stp_uloc *loc)
{
	struct mm_struct *mm = _stp_umm_lock();
	int found;

	if (!mm)
		return 0;
	found = _stp_uloc_locked(mm, addr, loc);
	mmap_read_unlock(mm);
	return found;
}

/* The function symbol of LOC: its name, ADDR's offset and its size. */
static int _stp_usym_at(const struct _stp_uloc *loc, const char **name,
			u64 *off, u64 *size)
{
	const struct _stp_umod *m = loc->mod;
	u32 lo = 0, hi, mid;

	if (!m || !m->nsyms || !loc->rel || loc->rel < m->syms[0].addr)
		return 0;
	hi = m->nsyms - 1;
	while (lo < hi) {	/* the last symbol at or below rel */
		mid = lo + (hi - lo + 1) / 2;
		if (m->syms[mid].addr <= loc->rel)
			lo = mid;
		else
			hi = mid - 1;
	}
	*off = loc->rel - m->syms[lo].addr;
	*size = m->syms[lo].size;
	if (*off >= *size)
		return 0;
	*name = m->names + m->syms[lo].name;
	return 1;
}

static const char *_stp_ubase(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The forms of ADDR stap prints. */
enum _stp_uform {
	STP_USYM_NAME,		/* usymname: "name", else hex */
	STP_USYM_DATA,		/* usymdata: "name+0xO/0xS [path]", else
				   "0xA [path+0xO/0xSPAN]", else hex */
	STP_USYM_FRAME,		/* print_ubacktrace: " 0xA : " + DATA, else
				   " " + DATA */
	STP_USYM_SHORT,		/* sprint_ubacktrace: "name+0xO [base]",
				   else "0xA [base+0xO]" */
	STP_USYM_BRIEF,		/* print_ubacktrace_brief: "name+0xO",
				   else hex */
};

static __maybe_unused void _stp_usym_format(char *buf, size_t n,
					    unsigned long addr,
					    enum _stp_uform form)
{
	struct _stp_uloc loc;
	const char *name = NULL, *path;
	u64 off = 0, size = 0;
	int in_file = _stp_uloc(addr, &loc);
	int sym = in_file && _stp_usym_at(&loc, &name, &off, &size);
	const char *lead = form == STP_USYM_FRAME ? " " : "";

	path = !in_file ? "" : loc.mod ? loc.mod->path : loc.path;
	if (!*path)
		in_file = 0;
	if (sym && form == STP_USYM_NAME)
		snprintf(buf, n, "%s", name);
	else if (sym && form == STP_USYM_BRIEF)
		snprintf(buf, n, "%s+0x%llx", name, off);
	else if (sym && form == STP_USYM_SHORT)
		snprintf(buf, n, "%s+0x%llx [%s]", name, off, _stp_ubase(path));
	else if (sym && form == STP_USYM_FRAME)
		snprintf(buf, n, " 0x%lx : %s+0x%llx/0x%llx [%s]", addr, name,
			 off, size, path);
	else if (sym)
		snprintf(buf, n, "%s+0x%llx/0x%llx [%s]", name, off, size, path);
	else if (in_file && form == STP_USYM_SHORT)
		snprintf(buf, n, "0x%lx [%s+0x%lx]", addr, _stp_ubase(path),
			 addr - loc.start);
	else if (in_file && (form == STP_USYM_DATA || form == STP_USYM_FRAME))
		snprintf(buf, n, "%s0x%lx [%s+0x%lx/0x%lx]", lead, addr, path,
			 addr - loc.start, loc.end - loc.start);
	else
		snprintf(buf, n, "%s0x%lx", lead, addr);
}

#endif
