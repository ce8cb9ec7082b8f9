/* tpvisible.c - which tracepoint headers stap 4.8 can read; see
 * tpvisible.h.
 *
 * Reads headers of the kernel tree (build and source directories), never
 * compiles.  stap's query compile fails where the header includes a file
 * the tree lacks (Debian's headers have no fs/ or block/ internals), or a
 * TP_PROTO names a tag or a type that nothing the compile sees declares
 * ("declared inside parameter list", "unknown type name").  A file's
 * declarations are found by scanning its text for "struct X {", "struct
 * X;", typedefs and #defines; #includes are followed, #if is ignored.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kconfig.h"
#include "kernel/tpvisible.h"
#include "util/arena.h"
#include "util/fileio.h"

/* A set of strings, open addressing. */
struct strset {
	char **v;
	size_t cap, n;
};

static char **set_slot(const struct strset *set, const char *s)
{
	size_t i = str_hash(s) & (set->cap - 1);

	while (set->v[i] && strcmp(set->v[i], s))
		i = (i + 1) & (set->cap - 1);
	return &set->v[i];
}

static int set_has(const struct strset *set, const char *s)
{
	return set->cap && *set_slot(set, s);
}

/* Adds S (copied); returns 1 if it was new. */
static int set_add(struct strset *set, const char *s)
{
	char **slot;
	size_t i;

	if (2 * (set->n + 1) > set->cap) {
		struct strset big = {0};
		big.cap = set->cap ? 2 * set->cap : 256;
		big.v = calloc(big.cap, sizeof *big.v);
		for (i = 0; i < set->cap; i++)
			if (set->v[i])
				*set_slot(&big, set->v[i]) = set->v[i];
		big.n = set->n;
		free(set->v);
		*set = big;
	}
	slot = set_slot(set, s);
	if (*slot)
		return 0;
	*slot = xstrdup(s);
	set->n++;
	return 1;
}

static void set_clear(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->cap; i++)
		free(set->v[i]);
	free(set->v);
	memset(set, 0, sizeof *set);
}

/* One header's facts, read once. */
struct hfile {
	char *path;
	char **names; /* "s:TAG" and "t:TYPE" (typedef or macro) */
	int nnames;
	char **incs; /* the files it includes, NULL where none is found */
	int nincs;
	struct hfile *next;
};

struct tpvis {
	const struct kconfig *config; /* the kernel's .config */
	char dirs[16][4200];	      /* the search path of <...> */
	int ndirs;
	struct hfile *files[1024];	     /* by hash of the path */
	struct strset base_seen, base_names; /* the query's own includes */
};

static int ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* TEXT without its comments (replaced by a blank), malloc'd. */
static char *strip_comments(const char *text)
{
	char *out = xmalloc(strlen(text) + 1), *o = out;
	const char *p = text;

	while (*p) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
			*o++ = ' ';
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

static void add_name(struct hfile *f, char kind, const char *s, size_t n)
{
	f->names =
		xrealloc(f->names, (size_t)(f->nnames + 1) * sizeof *f->names);
	f->names[f->nnames] = xmalloc(n + 3);
	f->names[f->nnames][0] = kind;
	f->names[f->nnames][1] = ':';
	memcpy(f->names[f->nnames] + 2, s, n);
	f->names[f->nnames++][n + 2] = '\0';
}

/* PATH with "." and "x/.." taken out, in place (no symlinks are
 * followed: realpath's readlinks cost more than the scan). */
static void normalize(char *path)
{
	char *out = path, *p = path, *seg;

	while (*p) {
		while (*p == '/')
			p++;
		seg = p;
		while (*p && *p != '/')
			p++;
		if (p - seg == 1 && seg[0] == '.')
			continue;
		if (p - seg == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > path && *--out != '/')
				;
			continue;
		}
		if (p == seg)
			continue;
		*out++ = '/';
		memmove(out, seg, (size_t)(p - seg));
		out += p - seg;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

static char *found(char *path)
{
	normalize(path);
	return access(path, F_OK) ? NULL : xstrdup(path);
}

/* The file an #include of SPEC names: "x.h" beside FROM first, then
 * <x.h> along the search path (its answers kept); malloc'd, NULL if there
 * is none. */
static char *resolve(struct tpvis *v, const char *from, char delim,
		     const char *spec)
{
	char path[PATH_MAX + 8448], key[600], *r;
	const char *slash = strrchr(from, '/');
	struct hfile *c;
	size_t h;
	int i;

	if (delim == '"' && slash) {
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - from),
			 from, spec);
		if ((r = found(path)))
			return r;
	}
	snprintf(key, sizeof key, "<%s>", spec);
	h = str_hash(key) % (sizeof v->files / sizeof v->files[0]);
	for (c = v->files[h]; c; c = c->next)
		if (!strcmp(c->path, key))
			return c->incs[0] ? xstrdup(c->incs[0]) : NULL;
	r = NULL;
	for (i = 0; i < v->ndirs && !r; i++) {
		snprintf(path, sizeof path, "%s/%s", v->dirs[i], spec);
		r = found(path);
	}
	c = calloc(1, sizeof *c); /* a pseudo-file: its answer */
	c->path = xstrdup(key);
	c->incs = xmalloc(sizeof *c->incs);
	c->incs[0] = r ? xstrdup(r) : NULL;
	c->next = v->files[h];
	v->files[h] = c;
	return r;
}

/* The directive at P (after its '#'): an #include is recorded, a
 * #define's name declared. */
static void scan_directive(struct tpvis *v, struct hfile *f, const char *p)
{
	const char *e;
	char spec[512];

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "include", 7)) {
		for (p += 7; *p == ' ' || *p == '\t'; p++)
			;
		if (*p != '"' && *p != '<')
			return;
		e = strchr(p + 1, *p == '"' ? '"' : '>');
		if (!e || e - p - 1 >= (long)sizeof spec ||
		    memchr(p, '\n', (size_t)(e - p)))
			return;
		snprintf(spec, sizeof spec, "%.*s", (int)(e - p - 1), p + 1);
		f->incs = xrealloc(f->incs,
				   (size_t)(f->nincs + 1) * sizeof *f->incs);
		f->incs[f->nincs++] = resolve(v, f->path, *p, spec);
	} else if (!strncmp(p, "define", 6) &&
		   !ident_char((unsigned char)p[6])) {
		for (p += 6; *p == ' ' || *p == '\t'; p++)
			;
		for (e = p; ident_char((unsigned char)*e); e++)
			;
		if (e > p)
			add_name(f, 't', p, (size_t)(e - p));
	}
}

/* The name a typedef at P (after "typedef") declares: "(*NAME)" of a
 * function pointer, else the last identifier before its ';', '[' or
 * attribute.  Returns where the typedef ends. */
static const char *scan_typedef(struct hfile *f, const char *p)
{
	const char *last = NULL, *fp = NULL, *s;
	size_t lastn = 0, fpn = 0;
	int depth = 0, stop = 0;

	for (; *p && !(depth == 0 && *p == ';'); p++) {
		if (*p == '{' || *p == '(') {
			if (*p == '(' && depth == 0 && !fp) {
				for (s = p + 1; *s == ' ' || *s == '*'; s++)
					;
				fp = s;
				while (ident_char((unsigned char)*fp))
					fp++;
				fpn = (size_t)(fp - s);
				fp = fpn ? s : NULL;
			}
			depth++;
		} else if (*p == '}' || *p == ')') {
			depth--;
		} else if (depth == 0 && *p == '[') {
			stop = 1;
		} else if (depth == 0 && !stop &&
			   ident_char((unsigned char)*p) &&
			   !ident_char((unsigned char)p[-1])) {
			for (s = p; ident_char((unsigned char)*s); s++)
				;
			if (!strncmp(p, "__attribute__", 13))
				stop = 1;
			else {
				last = p;
				lastn = (size_t)(s - p);
			}
			p = s - 1;
		}
	}
	if (fp)
		add_name(f, 't', fp, fpn);
	else if (last)
		add_name(f, 't', last, lastn);
	return p;
}

/* A tag at P (after "struct", "union" or "enum") counts when defined or
 * declared: followed by '{' ("S:" and "s:") or ';' ("s:"). */
static void scan_tag(struct hfile *f, const char *p)
{
	const char *s, *e;

	while (isspace((unsigned char)*p))
		p++;
	for (s = p; ident_char((unsigned char)*p); p++)
		;
	e = p;
	while (isspace((unsigned char)*p))
		p++;
	if (e > s && (*p == '{' || *p == ';'))
		add_name(f, 's', s, (size_t)(e - s));
	if (e > s && *p == '{') /* complete: may be passed by value */
		add_name(f, 'S', s, (size_t)(e - s));
}

static int word_at(const char *text, const char *p, const char *w)
{
	size_t n = strlen(w);

	return (p == text || !ident_char((unsigned char)p[-1])) &&
	       !strncmp(p, w, n) && !ident_char((unsigned char)p[n]);
}

static void scan_decls(struct tpvis *v, struct hfile *f, const char *text)
{
	const char *p;
	int bol = 1;

	for (p = text; *p; p++) {
		if (bol && *p == '#') {
			scan_directive(v, f, p + 1);
			while (*p && (*p != '\n' || p[-1] == '\\'))
				p++;
			if (!*p)
				break;
			bol = 1; /* P is at the directive's newline */
			continue;
		}
		if (*p == '\n')
			bol = 1;
		else if (!isspace((unsigned char)*p))
			bol = 0;
		if (*p != 's' && *p != 'u' && *p != 'e' && *p != 't')
			continue;
		if (word_at(text, p, "struct") || word_at(text, p, "union"))
			scan_tag(f, p + (*p == 's' ? 6 : 5));
		else if (word_at(text, p, "enum"))
			scan_tag(f, p + 4);
		else if (word_at(text, p, "typedef"))
			p = scan_typedef(f, p + 7) - 1;
	}
}

static struct hfile *hfile_get(struct tpvis *v, const char *path,
			       const char *text)
{
	size_t h = str_hash(path) % (sizeof v->files / sizeof v->files[0]);
	struct hfile *f;
	char *owned = NULL, *clean;
	struct strbuf sb = {0};

	for (f = v->files[h]; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof *f);
	f->path = xstrdup(path);
	if (!text && !fio_read(path, &sb))
		text = owned = sb.s ? sb.s : xstrdup("");
	else if (!text)
		sb_free(&sb);
	if (text) {
		clean = strip_comments(text);
		tpvis_blank_false(v, clean);
		scan_decls(v, f, clean);
		free(clean);
	}
	free(owned);
	f->next = v->files[h];
	v->files[h] = f;
	return f;
}

/* The names of PATH and all it includes, into NAMES; files in SEEN or
 * BASE_SEEN are skipped. */
static void closure(struct tpvis *v, const char *path, struct strset *seen,
		    struct strset *names)
{
	struct hfile *f;
	int i;

	if (set_has(&v->base_seen, path) || !set_add(seen, path))
		return;
	f = hfile_get(v, path, NULL);
	for (i = 0; i < f->nnames; i++)
		set_add(names, f->names[i]);
	for (i = 0; i < f->nincs; i++)
		if (f->incs[i])
			closure(v, f->incs[i], seen, names);
}

struct tpvis *tpvis_new(const char roots[2][4096], const struct kconfig *config)
{
	static const char *const sub[] = {
		"arch/x86/include",
		"arch/x86/include/generated",
		"include",
		"arch/x86/include/uapi",
		"arch/x86/include/generated/uapi",
		"include/uapi",
		"include/generated/uapi",
		"",
	};
	/* what kbuild includes first, then what stap's query includes */
	static const char *const prelude[] = {
		"linux/kconfig.h",    "linux/compiler_types.h",
		"linux/tracepoint.h", "linux/interrupt.h",
		"linux/module.h",     "linux/skbuff.h",
		"linux/kvm_host.h",
	};
	struct tpvis *v = calloc(1, sizeof *v);
	struct strset seen = {0};

	v->config = config;
	size_t i, r;
	char *p;

	for (i = 0; i < sizeof sub / sizeof sub[0]; i++)
		for (r = 0; r < 2; r++)
			if (roots[r][0] && v->ndirs < 16)
				snprintf(v->dirs[v->ndirs++], sizeof v->dirs[0],
					 "%s/%s", roots[r], sub[i]);
	for (i = 0; i < sizeof prelude / sizeof prelude[0]; i++) {
		p = resolve(v, "", '<', prelude[i]);
		if (p)
			closure(v, p, &seen, &v->base_names);
		free(p);
	}
	v->base_seen = seen;
	return v;
}

static int known(const struct tpvis *v, const struct strset *names,
		 const char *key)
{
	return set_has(&v->base_names, key) || set_has(names, key);
}

/* Whether the parameter P..E of a TP_PROTO names only declared types. */
static int param_ok(const struct tpvis *v, const struct strset *names,
		    const char *p, const char *e)
{
	static const char *const builtin[] = {
		"const",  "volatile", "signed",	  "unsigned",	"short",
		"long",	  "int",      "char",	  "void",	"float",
		"double", "_Bool",    "restrict", "__restrict",
	};
	const char *words[32];
	size_t lens[32], i;
	int n = 0, k, tag = 0;
	char key[300];
	char need = memchr(p, '*', (size_t)(e - p)) ? 's' : 'S';

	if (memchr(p, '(', (size_t)(e - p))) /* a function pointer */
		return 1;
	while (p < e && n < 32) {
		const char *s = p;
		while (s < e && !ident_char((unsigned char)*s))
			s++;
		for (p = s; p < e && ident_char((unsigned char)*p); p++)
			;
		if (p > s && !isdigit((unsigned char)*s)) {
			words[n] = s;
			lens[n++] = (size_t)(p - s);
		}
		if (p < e && *p == '[') /* an array's size */
			break;
	}
	if (n > 1)
		n--; /* the parameter's name */
	for (k = 0; k < n; k++) {
		if (lens[k] >= 250)
			continue;
		if (tag) {
			snprintf(key, sizeof key, "%c:%.*s", need, (int)lens[k],
				 words[k]);
			if (!known(v, names,
				   key)) /* a macro's name: rcu_head */
				key[0] = 't';
			if (!known(v, names, key))
				return 0;
			tag = 0;
			continue;
		}
		if ((lens[k] == 6 && !strncmp(words[k], "struct", 6)) ||
		    (lens[k] == 5 && !strncmp(words[k], "union", 5)) ||
		    (lens[k] == 4 && !strncmp(words[k], "enum", 4))) {
			tag = 1;
			continue;
		}
		for (i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
			if (strlen(builtin[i]) == lens[k] &&
			    !strncmp(builtin[i], words[k], lens[k]))
				break;
		if (i < sizeof builtin / sizeof builtin[0])
			continue;
		snprintf(key, sizeof key, "t:%.*s", (int)lens[k], words[k]);
		if (!known(v, names, key))
			return 0;
	}
	return 1;
}

/* Whether every TP_PROTO of TEXT names only declared types. */
static int protos_ok(const struct tpvis *v, const struct strset *names,
		     const char *text)
{
	const char *p = text, *s;
	int depth;

	while ((p = strstr(p, "TP_PROTO(")) != NULL) {
		if (p > text && ident_char((unsigned char)p[-1])) {
			p++;
			continue;
		}
		p += strlen("TP_PROTO(");
		for (s = p, depth = 0; *p; p++) {
			if (*p == '(') {
				depth++;
			} else if (depth == 0 && (*p == ',' || *p == ')')) {
				if (!param_ok(v, names, s, p))
					return 0;
				if (*p == ')')
					break;
				s = p + 1;
			} else if (*p == ')') {
				depth--;
			}
		}
	}
	return 1;
}

/* What stap 4.8's query declares or includes ahead of a few headers
 * (seen in the query sources it writes), for the headers whose outcome it
 * changes on the kernels of the matrix: "s:TAG", or "i:FILE" included. */
static const struct {
	const char *header;
	const char *tags[6];
} declared_ahead[] = {
	{"bcache.h",
	 {"s:bkey", "s:btree", "s:cache_set", "s:cache", "s:bcache_device"}},
	{"power_cpu_migrate.h", {"i:linux/migrate_mode.h"}},
	{"ib_umad.h", {"s:ib_mad_hdr", "s:ib_user_mad_hdr", "s:ib_umad_file"}},
	{"thermal_power_allocator.h", {"s:thermal_zone_device"}},
	{"clk.h", {"s:clk_duty"}},
	{"asoc.h", {"i:sound/soc.h"}},
	{"mdio.h", {"i:linux/phy.h"}},
	{"fsi_master_gpio.h",
	 {"s:fsi_master_acf", "s:fsi_master", "s:fsi_master_gpio"}},
	{"siox.h", {"s:siox_device", "s:siox_master"}},
};

static void add_declared_ahead(struct tpvis *v, const char *path,
			       struct strset *seen, struct strset *names)
{
	const char *base = strrchr(path, '/'), *d;
	size_t i, k;
	char *inc;

	base = base ? base + 1 : path;
	for (i = 0; i < sizeof declared_ahead / sizeof declared_ahead[0]; i++) {
		if (strcmp(declared_ahead[i].header, base))
			continue;
		for (k = 0; k < 6 && (d = declared_ahead[i].tags[k]); k++) {
			if (d[0] == 's') {
				set_add(names, d);
				continue;
			}
			inc = resolve(v, path, '<', d + 2);
			if (inc)
				closure(v, inc, seen, names);
			free(inc);
		}
	}
}

int tpvis_compiles(struct tpvis *v, const char *path, const char *text)
{
	struct strset seen = {0}, names = {0};
	char real[PATH_MAX], *clean;
	struct hfile *f;
	int i, ok = 1;

	snprintf(real, sizeof real, "%s", path);
	normalize(real);
	f = hfile_get(v, real, text);
	for (i = 0; i < f->nincs; i++)
		if (!f->incs[i])
			ok = 0;
	if (ok) {
		closure(v, real, &seen, &names);
		for (i = 0; i < f->nnames; i++) /* when the query saw it */
			set_add(&names, f->names[i]);
		add_declared_ahead(v, real, &seen, &names);
		clean = strip_comments(text);
		ok = protos_ok(v, &names, clean);
		free(clean);
	}
	set_clear(&seen);
	set_clear(&names);
	return ok;
}

/* A condition's value: 1, 0, or -1 where it names more than CONFIG_
 * options (a guard macro: taken as true). */
struct cond {
	const struct tpvis *v;
	const char *p;
};

static void cond_blanks(struct cond *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static int cond_or(struct cond *c);

/* CONFIG_X's value for a test: "y" for defined(), "y" or "m" for
 * IS_ENABLED(); else -1 (not an option). */
static int option(struct cond *c, int enabled_too)
{
	const char *s = c->p, *val;
	char name[128];

	while (isalnum((unsigned char)*c->p) || *c->p == '_')
		c->p++;
	if (c->p - s >= (long)sizeof name || strncmp(s, "CONFIG_", 7))
		return -1;
	snprintf(name, sizeof name, "%.*s", (int)(c->p - s), s);
	val = kconfig_get(c->v->config, name);
	return val && (!strcmp(val, "y") || (enabled_too && !strcmp(val, "m")));
}

/* CONFIG_X alone (set to y), or compared with a number: "CONFIG_X >= 5". */
static int compared(struct cond *c)
{
	const char *s = c->p, *val;
	char name[128], op[3] = "";
	long a, b;

	while (isalnum((unsigned char)*c->p) || *c->p == '_')
		c->p++;
	if (c->p - s >= (long)sizeof name)
		return -1;
	snprintf(name, sizeof name, "%.*s", (int)(c->p - s), s);
	val = kconfig_get(c->v->config, name);
	cond_blanks(c);
	if (strchr("<>=!", *c->p) && c->p[0] &&
	    !(c->p[0] == '!' && c->p[1] != '=')) {
		op[0] = *c->p++;
		if (*c->p == '=')
			op[1] = *c->p++;
		cond_blanks(c);
		b = strtol(c->p, (char **)&s, 0);
		if (s == c->p)
			return -1;
		c->p = s;
		a = val ? strtol(val, NULL, 0) : 0;
		return !strcmp(op, ">=")   ? a >= b
		       : !strcmp(op, ">")  ? a > b
		       : !strcmp(op, "<=") ? a <= b
		       : !strcmp(op, "<")  ? a < b
		       : !strcmp(op, "==") ? a == b
		       : !strcmp(op, "!=") ? a != b
					   : -1;
	}
	return val && !strcmp(val, "y");
}

static int cond_term(struct cond *c)
{
	static const char *const tests[] = {"defined", "IS_ENABLED",
					    "IS_BUILTIN"};
	size_t i, n;
	int r;

	cond_blanks(c);
	if (*c->p == '!') {
		c->p++;
		r = cond_term(c);
		return r < 0 ? r : !r;
	}
	if (*c->p == '(') {
		c->p++;
		r = cond_or(c);
		cond_blanks(c);
		if (*c->p == ')')
			c->p++;
		return r;
	}
	for (i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		n = strlen(tests[i]);
		if (strncmp(c->p, tests[i], n) ||
		    ident_char((unsigned char)c->p[n]))
			continue;
		c->p += n;
		cond_blanks(c);
		if (*c->p == '(')
			c->p++;
		cond_blanks(c);
		r = option(c, i == 1);
		cond_blanks(c);
		if (*c->p == ')')
			c->p++;
		return r;
	}
	if (!strncmp(c->p, "CONFIG_", 7))
		return compared(c);
	while (*c->p && !strchr("|&)\n", *c->p)) /* anything else */
		c->p++;
	return -1;
}

static int cond_or(struct cond *c)
{
	int r = cond_term(c), b;
	char op;

	for (;;) {
		cond_blanks(c);
		if ((c->p[0] != '|' && c->p[0] != '&') || c->p[1] != c->p[0])
			return r;
		op = c->p[0];
		c->p += 2;
		b = cond_term(c);
		if (op == '|')
			r = r == 1 || b == 1 ? 1 : r < 0 || b < 0 ? -1 : 0;
		else
			r = r == 0 || b == 0 ? 0 : r < 0 || b < 0 ? -1 : 1;
	}
}

/* The value of the #if, #ifdef or #ifndef whose directive word is at P
 * (after "#"); -1 for the unknown. */
static int directive_value(const struct tpvis *v, const char *p)
{
	struct cond c = {v, p};
	int r;

	if (!strncmp(p, "ifdef", 5) || !strncmp(p, "ifndef", 6)) {
		c.p = p + (p[2] == 'd' ? 5 : 6);
		cond_blanks(&c);
		r = option(&c, 0);
		return r < 0 || p[2] == 'd' ? r : !r;
	}
	c.p = p + 2;
	return cond_or(&c);
}

void tpvis_blank_false(const struct tpvis *v, char *text)
{
	int live[64], taken[64], depth = 0, r, cond, outer; /* per level */
	char *p, *line;

	if (!v->config)
		return;
	for (line = text; *line; line = p + (*p == '\n')) {
		cond = 0;
		outer = depth < 2 || live[depth - 2];
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '#') {
			for (p++; *p == ' ' || *p == '\t'; p++)
				;
			cond = 1;
			if (!strncmp(p, "if", 2) && depth < 64) {
				int on = depth == 0 || live[depth - 1];
				r = on ? directive_value(v, p) : 0;
				live[depth] = on && r != 0;
				taken[depth++] = r == 1; /* unknown: both */
			} else if (!strncmp(p, "elif", 4) && depth) {
				r = taken[depth - 1] || !outer
					    ? 0
					    : directive_value(v, p + 2);
				live[depth - 1] = outer && r != 0;
				taken[depth - 1] |= r == 1;
			} else if (!strncmp(p, "else", 4) && depth) {
				live[depth - 1] = outer && !taken[depth - 1];
				taken[depth - 1] = 1;
			} else if (!strncmp(p, "endif", 5) && depth) {
				depth--;
			} else {
				cond = 0;
			}
		}
		r = !cond && depth && !live[depth - 1]; /* blank it */
		for (p = line; *p && *p != '\n'; p++) {
			if (*p == '\\' && p[1] == '\n') { /* continued */
				if (r)
					*p = ' ';
				p++;
				continue;
			}
			if (r)
				*p = ' ';
		}
	}
}
