/* usymtab.c - pass 3: the user files' symbols and unwind data packed into
 * the module, for usymname(), usymdata() and user backtraces.
 *
 * The files are those -d PATH names, those the probes lie in
 * (s->probed_files, as stap packs a process probe's program) and, with
 * --ldd, the libraries each of them loads (ldd.c), each by its
 * real path as stap names it.  A -d file that cannot be read as ELF gets
 * stap's warning.  runtime/usym.h has the tables' types; runtime/usym.c and
 * uunwind.c read them.  Written only when a kept function asks
 * (pragma:usymbols).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/elf_unwind.h"
#include "dwarf/elf_user.h"
#include "emit/emit_int.h"
#include "util/diag.h"
#include "util/fileio.h"

#define A emit_sprintf

static void add_file(struct session *s, struct vec *v, const char *path)
{
	const char *real = fio_target_realpath(s, path), *p;
	int i;

	if (!real)
		return;
	VEC_EACH(*v, i, p)
		if (!strcmp(p, real))
			return;
	vec_push(s->arena, v, (void *)real);
}

/* The libraries PATH loads (ldd.c). */
static void add_ldd(struct session *s, struct vec *v, const char *path)
{
	struct vec libs = {0};
	const char *lib;
	int i;

	emit_ldd_libs(s, path, &libs);
	VEC_EACH(libs, i, lib)
		add_file(s, v, lib);
}

/* -d PATH read as ELF, its links followed (inside --sysroot's DIR). */
static const struct elf_user *d_file(struct session *s, const char *path,
				     char *err, size_t errlen)
{
	const char *real = fio_target_realpath(s, path);

	return elf_user_open(real ? real : path, err, errlen);
}

/* -d PATH (a user file: it has a slash), the probed files, --ldd's. */
static void collect(struct emit *e, struct vec *files)
{
	struct session *s = e->s;
	const char *m;
	char err[256];
	int i, n;

	VEC_EACH(s->sym_modules, i, m)
		if (strchr(m, '/') && d_file(s, m, err, sizeof err))
			add_file(s, files, m);
	VEC_EACH(s->probed_files, i, m)
		add_file(s, files, m);
	if (!s->ldd)
		return;
	n = files->n;
	for (i = 0; i < n; i++)
		add_ldd(s, files, files->v[i]);
}

/* BYTES as a C string literal, escaped, in lines of 32. */
static void emit_bytes(struct emit *e, const char *name, const unsigned char *b,
		       size_t len)
{
	struct strbuf *out = &e->out;
	size_t i;

	emit_line(e, "static const u8 %s[] __attribute__((aligned(8))) =", name);
	for (i = 0; i < len; i++) {
		if (!(i % 32))
			sb_put(out, "\t\"", 2);
		sb_printf(out, "\\x%02x", b[i]);
		if (i % 32 == 31 || i + 1 == len)
			sb_put(out, "\"\n", 2);
	}
	if (!len)
		sb_put(out, "\t\"\"\n", 4);
	emit_line(e, "\t;");
}

/* The function symbols by address. */
static void emit_syms(struct emit *e, int k, const struct elf_unwind *uw)
{
	size_t i, names = 0;

	emit_line(e, "static const char _stp_umod%d_names[] =", k);
	for (i = 0; i < uw->nsyms; i++)
		emit_line(e, "\t\"%s\\0\"", uw->syms[i].name);
	emit_line(e, "\t\"\";");
	emit_line(e, "static const struct _stp_usym _stp_umod%d_syms[] = {", k);
	for (i = 0; i < uw->nsyms; i++) {
		uint64_t size = uw->syms[i].size;

		emit_line(e, "\t{ 0x%llx, 0x%llx, %zu },",
			  (unsigned long long)uw->syms[i].addr,
			  (unsigned long long)(size > 0xffffffffu ? 0xffffffffu : size),
			  names);
		names += strlen(uw->syms[i].name) + 1;
	}
	emit_line(e, "\t{ 0, 0, 0 }");
	emit_line(e, "};");
	emit_line(e, "#define _stp_umod%d_nsyms %zu", k, uw->nsyms);
}

static void emit_loads(struct emit *e, int k, const struct elf_user *eu)
{
	size_t i;

	emit_line(e, "static const struct _stp_uload _stp_umod%d_loads[] = {", k);
	for (i = 0; i < eu->nloads; i++)
		emit_line(e, "\t{ 0x%llx, 0x%llx, 0x%llx },",
			  (unsigned long long)eu->loads[i].vaddr,
			  (unsigned long long)eu->loads[i].offset,
			  (unsigned long long)eu->loads[i].filesz);
	emit_line(e, "\t{ 0, 0, 0 }");
	emit_line(e, "};");
}

/* "NAME, LEN, ADDR" of an optional section for the record. */
static const char *sec_fields(struct emit *e, const char *name,
			      const struct elf_unwind_sec *sec)
{
	if (!sec->data)
		return "NULL, 0, 0";
	emit_bytes(e, name, sec->data, sec->len);
	return A(e, "%s, %zu, 0x%llx", name, sec->len, (unsigned long long)sec->addr);
}

/* One file's tables; its record's initializer, or NULL when unreadable. */
static const char *emit_file(struct emit *e, int k, const char *path)
{
	const struct elf_user *eu;
	struct elf_unwind uw;
	struct elf_unwind_sec bid;
	const char *ehf, *ehh, *b, *slash = strrchr(path, '/');
	char err[256];

	eu = elf_user_open(path, err, sizeof err);
	if (!eu || elf_unwind_read(path, &uw, err, sizeof err))
		return NULL;
	emit_syms(e, k, &uw);
	emit_loads(e, k, eu);
	ehf = sec_fields(e, A(e, "_stp_umod%d_ehf", k), &uw.eh_frame);
	ehh = sec_fields(e, A(e, "_stp_umod%d_ehh", k), &uw.eh_frame_hdr);
	bid = (struct elf_unwind_sec){ uw.build_id, uw.build_id_len,
				       uw.build_id_addr };
	b = sec_fields(e, A(e, "_stp_umod%d_bid", k), &bid);
	return A(e, "{ %s, %s, _stp_umod%d_syms, _stp_umod%d_nsyms, _stp_umod%d_names, _stp_umod%d_loads, %zu, %s, %s, %s }",
		 emit_cstr(e, path, strlen(path)),
		 emit_cstr(e, slash + 1, strlen(slash + 1)), k, k, k, k,
		 eu->nloads, ehf, ehh, b);
}

/* stap's warning for each -d file (a path) it cannot read as ELF, whether
 * or not the script names user addresses. */
static void check_d_files(struct session *s)
{
	const char *m;
	char err[256];
	int i;

	VEC_EACH(s->sym_modules, i, m)
		if (strchr(m, '/') && !d_file(s, m, err, sizeof err))
			diag_plain_warning(&s->diags, "missing unwind/symbol data for module '%s'", m);
}

void emit_usym_table(struct emit *e)
{
	struct vec files = {0}, recs = {0};
	const char *f, *r;
	int i;

	check_d_files(e->s);
	if (!emit_pragma_used(e, "pragma:usymbols"))
		return;
	collect(e, &files);
	emit_line(e, "#include \"usym.h\"");
	VEC_EACH(files, i, f)
		if ((r = emit_file(e, recs.n, f)))
			vec_push(e->s->arena, &recs, (void *)r);
	emit_line(e, "#define STP_UMODS_N %d", recs.n);
	if (!recs.n)
		return;
	emit_line(e, "static const struct _stp_umod _stp_umods[] = {");
	VEC_EACH(recs, i, r)
		emit_line(e, "\t%s,", r);
	emit_line(e, "};");
}
