/* modload.c - read a .ko, find and change its name, insert and remove it.
 *
 * The module's name lives in the struct module image inside the
 * .gnu.linkonce.this_module section; .modinfo's "name=" entry says what it
 * is. Renaming writes a new name over that field, which is how a second copy
 * of the same script can run beside the first.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "../includes/sys/sdt.h"
#include "modload.h"
#include "stp_msgs.h"

#define MODLOAD_NAME_LEN 56	/* the kernel's MODULE_NAME_LEN on 64-bit */

static const Elf64_Shdr *modload_section(const struct stp_module *m,
					 const char *want)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)m->image;
	const Elf64_Shdr *sh, *strsh;
	int i;

	if (eh->e_shoff > m->size || eh->e_shstrndx >= eh->e_shnum ||
	    (size_t)eh->e_shnum * sizeof(*sh) > m->size - eh->e_shoff)
		return NULL;
	sh = (const Elf64_Shdr *)(m->image + eh->e_shoff);
	strsh = &sh[eh->e_shstrndx];
	if (strsh->sh_offset > m->size || strsh->sh_size > m->size - strsh->sh_offset)
		return NULL;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strsh->sh_size ||
		    sh[i].sh_offset > m->size ||
		    sh[i].sh_size > m->size - sh[i].sh_offset)
			continue;
		if (!strncmp(m->image + strsh->sh_offset + sh[i].sh_name, want,
			     strsh->sh_size - sh[i].sh_name))
			return &sh[i];
	}
	return NULL;
}

/* The value of KEY ("name=") in .modinfo, or NULL. */
static const char *modload_modinfo(const struct stp_module *m, const char *key)
{
	const Elf64_Shdr *sh = modload_section(m, ".modinfo");
	const char *p, *end;
	size_t k = strlen(key);

	if (!sh)
		return NULL;
	p = m->image + sh->sh_offset;
	end = p + sh->sh_size;
	for (; p < end; p += strnlen(p, end - p) + 1)
		if (!strncmp(p, key, k) && memchr(p, 0, end - p))
			return p + k;
	return NULL;
}

const char *modload_release(const struct stp_module *m, char *buf, size_t n)
{
	const char *v = modload_modinfo(m, "vermagic=");

	if (!v || !*v)
		return NULL;
	snprintf(buf, n, "%.*s", (int)strcspn(v, " "), v);
	return buf;
}

int modload_privilege(const struct stp_module *m)
{
	const Elf64_Shdr *sh = modload_section(m, ".stap_privilege");
	int level;

	if (!sh || sh->sh_size != sizeof(level))
		return -1;
	memcpy(&level, m->image + sh->sh_offset, sizeof(level));
	return level;
}

/* Find the name field in this_module: the first place the name appears
 * whole, on a pointer boundary, with room for MODULE_NAME_LEN bytes. */
static char *modload_find_name(struct stp_module *m, const char *name)
{
	const Elf64_Shdr *sh = modload_section(m, ".gnu.linkonce.this_module");
	size_t len = strlen(name), off;
	char *sec;

	if (!sh || !len || len >= MODLOAD_NAME_LEN)
		return NULL;
	sec = m->image + sh->sh_offset;
	for (off = 0; off + MODLOAD_NAME_LEN <= sh->sh_size; off += 8)
		if (!memcmp(sec + off, name, len + 1))
			return sec + off;
	return NULL;
}

static const char *modload_basename_name(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	char *dot;

	snprintf(buf, n, "%s", base ? base + 1 : path);
	dot = strstr(buf, ".ko");
	if (dot)
		*dot = 0;
	return buf;
}

const char *modload_name_of(const char *path)
{
	static char buf[MODLOAD_NAME_LEN];

	return modload_basename_name(path, buf, sizeof(buf));
}

int modload_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		fprintf(stderr, "ERROR: Couldn't open module file '%s': %s\n",
			path, strerror(errno));
	return fd;
}

int modload_read(struct stp_module *m, const char *path, int fd)
{
	const Elf64_Ehdr *eh;
	const char *name;
	char guess[MODLOAD_NAME_LEN];
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		fprintf(stderr, "ERROR: Couldn't open module file '%s': %s\n",
			path, strerror(errno));
		close(fd);
		return -1;
	}
	m->size = st.st_size;
	m->image = malloc(m->size ? m->size : 1);
	if (!m->image || read(fd, m->image, m->size) != (ssize_t)m->size) {
		fprintf(stderr, "ERROR: Couldn't read module file '%s': %s\n",
			path, m->image ? strerror(errno) : "out of memory");
		close(fd);
		return -1;
	}
	close(fd);
	eh = (const Elf64_Ehdr *)m->image;
	if (m->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "ERROR: Couldn't insert module '%s': %s\n",
			path, modload_strerror(ENOEXEC));
		return -1;
	}
	name = modload_modinfo(m, "name=");
	if (!name)
		name = modload_basename_name(path, guess, sizeof(guess));
	m->this_name = modload_find_name(m, name);
	snprintf(m->name, sizeof(m->name), "%s",
		 m->this_name ? m->this_name : name);
	return 0;
}

void modload_rename(struct stp_module *m, const char *newname)
{
	if (!m->this_name)
		return;
	memset(m->this_name, 0, MODLOAD_NAME_LEN);
	snprintf(m->this_name, MODLOAD_NAME_LEN, "%s", newname);
	snprintf(m->name, sizeof(m->name), "%s", m->this_name);
}

/* The SDT markers here and in staprun.c bear stap 4.8's names, which its
 * tapset aliases staprun.insert_module, staprun.remove_module and
 * staprun.send_control_message probe in the staprun program (stapio, which
 * shares this file, has them too). */
int modload_insert(struct stp_module *m, const char *params)
{
	return syscall(SYS_init_module, m->image, m->size, params);
}

int modload_delete(const char *name)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int tries;

	STAP_PROBE1(staprun, remove__module, name);
	/* stapio's files may close a moment after it exits */
	for (tries = 0; tries < 100; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -1;
		nanosleep(&pause, NULL);
	}
	return -1;
}

/* Here staprun sends no message (stapio talks to the module), yet has
 * the marker, as stap 4.8's staprun does. */
int modload_ctl_send(int fd, uint32_t type, const void *payload, uint32_t len)
{
	char buf[sizeof(struct stp_msg_hdr) + sizeof(struct stp_cmd_start)];
	struct stp_msg_hdr hdr = { .type = type, .len = len };

	if (len > sizeof(buf) - sizeof(hdr))	/* no command is longer */
		abort();
	memcpy(buf, &hdr, sizeof(hdr));
	if (len)
		memcpy(buf + sizeof(hdr), payload, len);
	STAP_PROBE3(stapio, send__ctlmsg, type, payload, len);
	return write(fd, buf, sizeof(hdr) + len) < 0 ? -1 : 0;
}

const char *modload_strerror(int err)
{
	switch (err) {
	case ENOEXEC: return "Invalid module format";
	case ENOENT: return "Unknown symbol in module";
	case ESRCH: return "Module has wrong symbol version";
	case EINVAL: return "Invalid parameters";
	default: return strerror(err);
	}
}
