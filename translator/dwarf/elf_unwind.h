/* elf_unwind.h - what a user backtrace needs of a program or library
 * file, read with libelf: its unwind tables (.eh_frame and the binary
 * search table of .eh_frame_hdr) with their link-time addresses, and where its build-id lies, so the runtime can tell the
 * file's mappings in a process from others of the same name.
 *
 * Its function symbols are those stap names addresses by: the .symtab of
 * the file's debug file (by build-id under /usr/lib/debug), else its own
 * .symtab, else .dynsym; at one address a global name wins over a local
 * one, and the later of two alike.  Knows nothing of the session; the
 * segments come from elf_user.h.  All is kept until the translator exits.
 */
#ifndef ELF_UNWIND_H
#define ELF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct elf_unwind_sec {
	const unsigned char *data;	/* NULL when the file has none */
	size_t len;
	uint64_t addr;			/* link-time address */
};

struct elf_unwind_sym {
	const char *name;
	uint64_t addr;		/* link-time address */
	uint64_t size;		/* up to the next symbol (the last: its own) */
};

struct elf_unwind {
	struct elf_unwind_sym *syms;	/* functions by address, one per
					   address */
	size_t nsyms;
	struct elf_unwind_sec eh_frame, eh_frame_hdr;
	const unsigned char *build_id;	/* the note's bytes, or NULL */
	size_t build_id_len;
	uint64_t build_id_addr;		/* their link-time address */
};

/* PATH's symbols and unwind data; 0 on success, -1 (with errno's message in ERR) when
 * it cannot be read as ELF. */
int elf_unwind_read(const char *path, struct elf_unwind *uw, char *err,
		    size_t errlen);

#endif
