/* elf_user.h - what the user-space probe families read of a program or
 * library file: its loadable segments, its function symbols, its PLT
 * slots and its SDT notes (.note.stapsdt), through libelf.
 *
 * Knows nothing of the session: callers pass a path and get plain data
 * back, kept (and cached by path) until the translator exits.  Addresses
 * are the file's link-time virtual addresses; elf_user_offset turns one
 * into the file offset uprobes want, through the PT_LOAD segment that
 * holds it (text and data segments have different deltas).
 */
#ifndef ELF_USER_H
#define ELF_USER_H

#include <stddef.h>
#include <stdint.h>

struct elf_user_sym {
	const char *name;
	uint64_t addr;		/* link-time address */
	uint64_t size;
};

/* One SDT marker, its addresses already adjusted for a moved
 * .stapsdt.base (prelink). */
struct elf_user_note {
	const char *provider, *name, *args;	/* args: "" for none */
	uint64_t pc;		/* the nop's address */
	uint64_t sem;		/* the semaphore's address, or 0 */
};

struct elf_user {
	const char *path;
	int is_dyn;		/* ET_DYN (PIE or library), else ET_EXEC */
	int has_dwarf;		/* it has a .debug_info section, or a debug
				   file by build-id under /usr/lib/debug */
	const char *build_id;	/* lowercase hex, or "" */
	struct elf_user_sym *funcs;	/* STT_FUNC, defined, sorted by name,
					   one per name */
	size_t nfuncs;
	struct elf_user_sym *objs;	/* STT_OBJECT and the rest, sorted by
					   name (locals first on a tie) */
	size_t nobjs;
	struct elf_user_sym *plts;	/* PLT slots by the function they
					   call, in .rela.plt's order */
	size_t nplts;
	struct elf_user_note *notes;	/* in file order */
	size_t nnotes;
	struct elf_user_load *loads;
	size_t nloads;
	const char **needed;	/* DT_NEEDED, in order */
	size_t nneeded;
	const char *runpath;	/* DT_RUNPATH, else DT_RPATH, or NULL */
	const char *interp;	/* PT_INTERP, or NULL */
};

struct elf_user_load {
	uint64_t vaddr, memsz, offset, filesz;
};

/* The file at PATH, read on first use; NULL with a message in ERR. */
const struct elf_user *elf_user_open(const char *path, char *err,
				     size_t errlen);

/* The file offset of ADDR through its PT_LOAD segment; 0 on success, -1
 * when no segment holds it. */
int elf_user_offset(const struct elf_user *eu, uint64_t addr, uint64_t *off);

/* The function or the data symbol NAME, or NULL. */
const struct elf_user_sym *elf_user_func(const struct elf_user *eu,
					 const char *name);
const struct elf_user_sym *elf_user_obj(const struct elf_user *eu,
					const char *name);

#endif
