/* elfsec.h - one section of a 64-bit ELF file, read without libelf.
 *
 * For the few fixed sections the translator takes from kernel images and
 * modules (.BTF, __tracepoints_strings, .modinfo): the file is mapped, its
 * section headers checked against its size, and the section copied out.
 */
#ifndef ELFSEC_H
#define ELFSEC_H

#include <stddef.h>

/* A malloc'ed copy of section NAME of the ELF64 file PATH (its size in
 * *SIZE), or NULL with a message in ERR (which may be NULL). */
void *elfsec_read(const char *path, const char *name, size_t *size,
		  char *err, size_t errlen);

/* The same from the LEN bytes at IMAGE, an ELF64 file in memory; PATH only
 * names it in messages. */
void *elfsec_find(const void *image, size_t len, const char *path,
		  const char *name, size_t *size, char *err, size_t errlen);

#endif
