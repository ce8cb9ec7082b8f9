/* probes/procfs.c - the procfs probe family: files under /proc.
 *
 *   procfs[("path")][.umask(M)].read[.maxsize(N)]
 *   procfs[("path")][.umask(M)].write
 *
 * The path (default "command") names a file in /proc/systemtap/<module>/
 * (stap 4.8 accepts subdirectories here but fails to create them at run
 * time, and so does the runtime).
 * A read probe builds the file's text in $value (`=` and `.=` only, up to
 * N bytes); a write probe sees the bytes written in $value (read-only).
 * Files are owner-only unless .umask says otherwise (stap's default umask
 * is 0077).  The runtime is runtime/probes/procfs.c.
 */
#include <string.h>

#include "probes/family.h"

struct procfs_data {
	const char *path;
	int is_write;
	int64_t maxsize;	/* read: the buffer; 0: MAXSTRINGLEN */
	int64_t umask;
};

/* Paths already probed, to refuse a second read (or write) probe. */
static struct vec seen;
static const struct session *seen_session;

static int bad_path(const char *p)
{
	const char *c = p, *end;

	if (!*p || *p == '/')
		return 1;
	for (; c; c = end ? end + 1 : NULL) {
		end = strchr(c, '/');
		size_t n = end ? (size_t)(end - c) : strlen(c);
		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return 1;
	}
	return 0;
}

static int number(struct session *s, const struct probe_point *pt,
		  const struct pp_comp *c, int64_t *out)
{
	if (!c->arg || c->arg->kind != EX_NUM)
		return family_mismatch(s, pt, c, arena_printf(s->arena, "%s needs a number", c->name));
	*out = c->arg->u.num;
	return 0;
}

/* Is this the second read probe of its path?  (A path may have several
 * write probes: each write runs them all, as in stap.) */
static int duplicate(struct session *s, const struct probe_point *pt,
		     struct procfs_data *pd)
{
	struct procfs_data *o;
	int i;

	if (seen_session != s) {
		seen = (struct vec){0};
		seen_session = s;
	}
	VEC_EACH(seen, i, o)
		if (!o->is_write && !pd->is_write && !strcmp(o->path, pd->path)) {
			diag_error(&s->diags, pt->loc, "sema.procfs-duplicate",
				   "only one read procfs probe can exist for procfs path \"%s\"",
				   pd->path);
			return 1;
		}
	vec_push(s->arena, &seen, pd);
	return 0;
}

static int resolve_procfs(struct session *s, const struct probe_point *pt,
			  struct derived_probe *dp)
{
	const struct pp_comp *c = pt->comps.v[0];
	struct procfs_data *pd = ARENA_NEW(s->arena, struct procfs_data);
	int i = 1;

	pd->umask = 0077;
	pd->path = "command";
	if (c->has_arg) {
		if (!c->arg || c->arg->kind != EX_STR)
			return family_mismatch(s, pt, c, "procfs takes a path (a string)");
		pd->path = arena_strndup(s->arena, c->arg->u.str.s, c->arg->u.str.len);
		if (bad_path(pd->path))
			return family_mismatch(s, pt, c, "invalid procfs path (a relative path without empty, '.' or '..' parts)");
	}
	c = i < pt->comps.n ? pt->comps.v[i] : c;
	if (i < pt->comps.n && !strcmp(c->name, "umask")) {
		if (number(s, pt, c, &pd->umask))
			return -1;
		i++;
	}
	c = i < pt->comps.n ? pt->comps.v[i] : c;
	if (i >= pt->comps.n || c->has_arg ||
	    (strcmp(c->name, "read") && strcmp(c->name, "write")))
		return family_mismatch(s, pt, c, "expected .read or .write (after an optional .umask(M))");
	pd->is_write = !strcmp(c->name, "write");
	i++;
	c = i < pt->comps.n ? pt->comps.v[i] : c;
	if (!pd->is_write && i < pt->comps.n && !strcmp(c->name, "maxsize")) {
		if (number(s, pt, c, &pd->maxsize))
			return -1;
		if (pd->maxsize <= 0) {
			diag_error(&s->diags, c->loc, "sema.probe-arg",
				   "maxsize must be greater than 0");
			return -1;
		}
		i++;
	}
	if (i < pt->comps.n)
		return family_mismatch(s, pt, pt->comps.v[i], pd->is_write ?
				"nothing may follow .write" :
				"only .maxsize(N) may follow .read");
	if (duplicate(s, pt, pd))
		return -1;
	/* input.char and input.line: stap has staprun relay its stdin */
	if (pd->is_write && !strcmp(pd->path, "__stdin"))
		s->reads_stdin = 1;
	dp->data = pd;
	return 1;
}

/* $value alone: no components, no address. */
static int check_value(struct session *s, struct exp *x)
{
	const struct target_comp *tc;

	x->type = TY_STRING;	/* no type errors after this one */
	if (x->kind != EX_TARGET || strcmp(x->u.target.name, "value")) {
		diag_error(&s->diags, x->loc, "sema.procfs-target",
			   "invalid target symbol for procfs probe, $value expected");
		return -1;
	}
	if (x->u.target.comps.n || x->u.target.addr_of) {
		tc = x->u.target.comps.n ? x->u.target.comps.v[0] : NULL;
		diag_error(&s->diags, tc ? tc->loc : x->loc, "sema.procfs-target",
			   "procfs variable '$value' may not be used as %s",
			   !tc ? "an address" : tc->kind == TC_MEMBER ?
			   "a structure" : "an array");
		return -1;
	}
	return 0;
}

/* Reading $value: the bytes written, in a write probe. */
static int target_procfs(struct session *s, struct derived_probe *dp,
			 struct exp *x, int quiet)
{
	const struct procfs_data *pd = dp->data;
	struct tvar *tv;

	if (quiet)	/* @defined($value) */
		return x->kind == EX_TARGET && !strcmp(x->u.target.name, "value") &&
		       !x->u.target.comps.n && pd->is_write ? 0 : -1;
	if (check_value(s, x))
		return -1;
	if (!pd->is_write) {
		diag_error(&s->diags, x->loc, "sema.procfs-value-read",
			   "procfs $value variable cannot be read in a procfs read probe");
		return -1;
	}
	tv = ARENA_NEW(s->arena, struct tvar);
	tv->final = TV_PRETTY;
	tv->pretty = "_stp_procfs_value(c)";
	x->u.target.resolved = tv;
	x->type = TY_STRING;
	return 0;
}

/* Writing $value (= and .=): the text of the file, in a read probe. */
static int assign_procfs(struct session *s, struct derived_probe *dp,
			 struct exp *x, enum op op)
{
	const struct procfs_data *pd = dp->data;
	struct tvar *tv;

	if (check_value(s, x))
		return -1;
	if (pd->is_write) {
		diag_error(&s->diags, x->loc, "sema.procfs-value-write",
			   "procfs $value variable is read-only in a procfs write probe");
		return -1;
	}
	tv = ARENA_NEW(s->arena, struct tvar);
	tv->final = TV_PRETTY;
	tv->pretty = "\"\"";
	tv->assign_fn = "_stp_procfs_set";
	tv->append_fn = "_stp_procfs_append";
	x->u.target.resolved = tv;
	x->type = TY_STRING;
	return 0;
}

static void emit_decls_procfs(struct emit *e, struct vec *probes)
{
	emit_line(e, "#include \"probes/procfs.c\"");
}

struct entry {
	const char *path;
	int read_probe;		/* -1: none */
	struct vec write_probes;	/* struct derived_probe * */
	int64_t maxsize;
	int mode;
};

static struct entry *entry_of(struct emit *e, struct vec *entries,
			      const char *path)
{
	struct entry *en;
	int i;

	VEC_EACH(*entries, i, en)
		if (!strcmp(en->path, path))
			return en;
	en = ARENA_NEW(e->s->arena, struct entry);
	en->path = path;
	en->read_probe = -1;
	vec_push(e->s->arena, entries, en);
	return en;
}

static void emit_procfs(struct emit *e, struct vec *probes)
{
	struct vec entries = {0};
	struct derived_probe *dp;
	struct entry *en;
	int i;

	VEC_EACH(*probes, i, dp) {
		struct procfs_data *pd = dp->data;
		en = entry_of(e, &entries, pd->path);
		en->mode |= (pd->is_write ? 0222 : 0444) & ~(int)pd->umask;
		if (pd->is_write)
			vec_push(e->s->arena, &en->write_probes, dp);
		else {
			en->read_probe = dp->index;
			en->maxsize = pd->maxsize;
		}
	}
	VEC_EACH(entries, i, en) {
		int j;

		if (!en->write_probes.n)
			continue;
		emit_line(e, "static struct stp_probe *stp_procfs_writers%d[] = {", i);
		VEC_EACH(en->write_probes, j, dp)
			emit_line(e, "\t&stp_probes[%d],", dp->index);
		emit_line(e, "};");
	}
	emit_line(e, "static struct stp_procfs_file stp_procfs_files[] = {");
	VEC_EACH(entries, i, en) {
		emit_line(e, "\t{ .path = %s, .mode = 0%o,",
			  emit_cstr(e, en->path, strlen(en->path)), en->mode);
		emit_line(e, "\t  .read_probe = %s,", en->read_probe < 0 ? "NULL" :
			  arena_printf(e->s->arena, "&stp_probes[%d]", en->read_probe));
		if (en->write_probes.n)
			emit_line(e, "\t  .write_probes = stp_procfs_writers%d, .nwrite = %d,",
				  i, en->write_probes.n);
		emit_line(e, "\t  .maxsize = %s },", en->maxsize ?
			  arena_printf(e->s->arena, "%lld", (long long)en->maxsize) :
			  "MAXSTRINGLEN");
	}
	emit_line(e, "};");
	family_emit_table_start_stop(e, &family_procfs, "_stp_procfs",
				     "stp_procfs_files", entries.n);
}

static const char *const procfs_shapes[] = {
	"procfs.read", "procfs.write", "procfs.read.maxsize(number)",
	"procfs.umask(number).read", "procfs.umask(number).write",
	"procfs.umask(number).read.maxsize(number)",
	"procfs(string).read", "procfs(string).write",
	"procfs(string).read.maxsize(number)",
	"procfs(string).umask(number).read",
	"procfs(string).umask(number).write",
	"procfs(string).umask(number).read.maxsize(number)", NULL,
};

static const char *type_procfs(const struct derived_probe *dp)
{
	(void)dp;
	return "procfs";
}

const struct probe_family family_procfs = {
	.probe_type = type_procfs,
	.name = "procfs", .resolve = resolve_procfs, .emit = emit_procfs,
	.shapes = procfs_shapes,
	.emit_decls = emit_decls_procfs, .target_var = target_procfs,
	.target_assign = assign_procfs,
	.kind = "procfs",
};
