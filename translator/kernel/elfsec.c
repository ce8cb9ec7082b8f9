/* elfsec.c - one section of a 64-bit ELF file; see elfsec.h. */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/elfsec.h"

static void say(char *err, size_t errlen, const char *msg, const char *path)
{
	if (err)
		snprintf(err, errlen, msg, path);
}

void *elfsec_find(const void *image, size_t len, const char *path,
		  const char *name, size_t *size, char *err, size_t errlen)
{
	const unsigned char *map = image;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)map;
	const Elf64_Shdr *sh, *strtab;
	void *copy;
	size_t i;

	if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof *sh > len ||
	    eh->e_shstrndx >= eh->e_shnum) {
		say(err, errlen, "%s is not a 64-bit ELF file", path);
		return NULL;
	}
	sh = (const Elf64_Shdr *)(map + eh->e_shoff);
	strtab = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strtab->sh_size ||
		    strtab->sh_offset + strtab->sh_size > len ||
		    strcmp((const char *)map + strtab->sh_offset + sh[i].sh_name,
			   name) ||
		    sh[i].sh_type == SHT_NOBITS ||
		    sh[i].sh_offset + sh[i].sh_size > len)
			continue;
		copy = malloc(sh[i].sh_size ? sh[i].sh_size : 1);
		memcpy(copy, map + sh[i].sh_offset, sh[i].sh_size);
		*size = sh[i].sh_size;
		return copy;
	}
	if (err)
		snprintf(err, errlen, "%s has no %s section", path, name);
	return NULL;
}

void *elfsec_read(const char *path, const char *name, size_t *size,
		  char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *map;
	void *copy;

	if (fd < 0 || fstat(fd, &st)) {
		say(err, errlen, "cannot open %s", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		say(err, errlen, "cannot map %s", path);
		return NULL;
	}
	copy = elfsec_find(map, (size_t)st.st_size, path, name, size, err, errlen);
	munmap(map, (size_t)st.st_size);
	return copy;
}
