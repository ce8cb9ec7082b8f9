/* tapdoc.c - the tapset reference, written from the tapset sources' doc
 * comments at build time.
 *
 * Reads every .stp file under the tapset directories named on the command
 * line.  A public function (a name not starting with '_') or probe alias
 * is documented by the block of `//` lines directly above its definition;
 * a block whose head names several functions ("uid(), gid(): ...") also
 * documents the others it names.  Writes one page per function
 * (function::NAME.3stap) and per alias (probe::NAME.3stap) into OUTDIR,
 * and the index sections stapfuncs(3stap) and stapprobes(3stap) append
 * (funcs.index, probes.index).  With --undocumented it writes nothing but
 * the list of public names that have no doc comment, one per line.  With
 * --examples DIR it writes examples.index, the section stapex(3stap) ends
 * with: each example's header comment (after its #! line: a first line
 * "NAME.stp - summary", paragraphs, and the "#   stap ..." usage lines).
 * Doc comments are the only input: nothing here knows any tapset.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXVARS 64

struct entry {
	int is_probe;
	char *name;
	char *file;     /* relative to its tapset directory */
	char *synopsis; /* signature lines, '\n'-separated */
	char *doc;      /* NULL: undocumented */
	char *vars[MAXVARS];
	int nvars;
	char *same_as; /* "probe a = b { }": b, whose variables a has */
};

static struct entry *entries;
static int nentries, aentries;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "tapdoc: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static char *concat(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *p = xmalloc(la + ls + lb + 1);

	memcpy(p, a, la);
	memcpy(p + la, sep, ls);
	memcpy(p + la + ls, b, lb + 1);
	return p;
}

static struct entry *find(int is_probe, const char *name)
{
	for (int i = 0; i < nentries; i++)
		if (entries[i].is_probe == is_probe &&
		    !strcmp(entries[i].name, name))
			return &entries[i];
	return NULL;
}

/* The entry for NAME, made on first sight; a later definition (another
 * arity, another architecture's file) adds its synopsis. */
static struct entry *add(int is_probe, const char *name, const char *file,
			 const char *synopsis, const char *doc)
{
	struct entry *e = find(is_probe, name);

	if (e) {
		if (!strstr(e->synopsis, synopsis)) {
			char *s = concat(e->synopsis, "\n", synopsis);
			free(e->synopsis);
			e->synopsis = s;
		}
		if (!e->doc && doc)
			e->doc = xstrdup(doc);
		return e;
	}
	if (nentries == aentries) {
		aentries = aentries ? 2 * aentries : 256;
		entries = realloc(entries, aentries * sizeof *entries);
		if (!entries) {
			fprintf(stderr, "tapdoc: out of memory\n");
			exit(1);
		}
	}
	e = &entries[nentries++];
	memset(e, 0, sizeof *e);
	e->is_probe = is_probe;
	e->name = xstrdup(name);
	e->file = xstrdup(file);
	e->synopsis = xstrdup(synopsis);
	e->doc = doc ? xstrdup(doc) : NULL;
	return e;
}

static void add_var(struct entry *e, const char *name, size_t len)
{
	for (int i = 0; i < e->nvars; i++)
		if (strlen(e->vars[i]) == len && !strncmp(e->vars[i], name, len))
			return;
	if (e->nvars < MAXVARS)
		e->vars[e->nvars++] = xstrndup(name, len);
}

static size_t ident_len(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* A file's lines, NUL-terminated in place. */
struct lines {
	char **v;
	int n;
};

static int read_lines(const char *path, struct lines *l)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int a = 0;

	if (!f)
		return -1;
	l->v = NULL;
	l->n = 0;
	while ((len = getline(&buf, &cap, f)) >= 0) {
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		if (l->n == a) {
			a = a ? 2 * a : 512;
			l->v = realloc(l->v, a * sizeof *l->v);
			if (!l->v)
				exit(1);
		}
		l->v[l->n++] = xstrndup(buf, len);
	}
	free(buf);
	fclose(f);
	return 0;
}

/* The `//` block ending on line I-1 (text without the markers), or NULL. */
static char *doc_above(struct lines *l, int i)
{
	int first = i;
	char *doc = xstrdup("");

	while (first > 0 && !strncmp(l->v[first - 1], "//", 2))
		first--;
	if (first == i) {
		free(doc);
		return NULL;
	}
	for (int j = first; j < i; j++) {
		const char *t = l->v[j] + 2;
		char *d;

		if (*t == ' ')
			t++;
		d = concat(doc, *doc ? "\n" : "", t);
		free(doc);
		doc = d;
	}
	return doc;
}

/* Does the head of DOC (before its first ':') name NAME as "NAME("? */
static int doc_names(const char *doc, const char *name)
{
	const char *colon = strchr(doc, ':'), *p = doc;
	size_t n = strlen(name);

	if (!colon)
		return 0;
	while ((p = strstr(p, name)) && p < colon) {
		if ((p == doc || !isalnum((unsigned char)p[-1])) && p[n] == '(')
			return 1;
		p += n;
	}
	return 0;
}

/* The variables an alias body sets at its top level (one tab in). */
static void body_vars(struct entry *e, struct lines *l, int i)
{
	int depth = 0, started = 0;

	for (; i < l->n; i++) {
		const char *s = l->v[i];
		size_t n;

		if (started && s[0] == '\t' && (n = ident_len(s + 1)) &&
		    !strncmp(s + 1 + n, " = ", 3))
			add_var(e, s + 1, n);
		for (; *s; s++) {
			if (*s == '{') {
				depth++;
				started = 1;
			} else if (*s == '}' && --depth == 0 && started)
				return;
		}
	}
}

static void scan_function(struct lines *l, int i, const char *file,
			  char **groupdoc)
{
	const char *s = l->v[i] + strlen("function");
	const char *end;
	size_t n;
	char *name, *syn, *doc;

	while (*s == ' ' || *s == '\t')
		s++;
	n = ident_len(s);
	if (!n || s[0] == '_')
		return;
	name = xstrndup(s, n);
	end = strchr(s, ')');
	syn = end ? xstrndup(s, end + 1 - s) : xstrdup(s);
	doc = doc_above(l, i);
	if (doc)
		*groupdoc = doc;
	else if (*groupdoc && doc_names(*groupdoc, name))
		doc = *groupdoc;
	add(0, name, file, syn, doc);
	free(name);
	free(syn);
}

/* "probe a.b, c.d ? = ..." or "probe a.b += ...": one entry per name. */
static void scan_probe(struct lines *l, int i, const char *file)
{
	const char *s = l->v[i] + strlen("probe");
	const char *eq = strchr(s, '=');
	char *doc = doc_above(l, i);

	if (!eq)
		return;
	while (s < eq) {
		const char *start;
		size_t n;
		struct entry *e;
		char *name;

		while (s < eq && (isspace((unsigned char)*s) || *s == ','))
			s++;
		start = s;
		while (s < eq && !isspace((unsigned char)*s) && *s != ',' &&
		       *s != '+')
			s++;
		if (s == start) {
			s++;
			continue;
		}
		name = xstrndup(start, s - start);
		if (name[0] != '_') {
			e = add(1, name, file, name, doc);
			body_vars(e, l, i);
			n = strspn(eq + 1, " ");
			start = eq + 1 + n;
			n = strcspn(start, " ?,{");
			if (!e->nvars && n && !strncmp(start + n, " { }", 4))
				e->same_as = xstrndup(start, n);
		}
		free(name);
	}
	free(doc);
}

static void scan_file(const char *path, const char *rel)
{
	struct lines l;
	char *groupdoc = NULL;

	if (read_lines(path, &l)) {
		fprintf(stderr, "tapdoc: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (int i = 0; i < l.n; i++) {
		const char *s = l.v[i];

		if (!strncmp(s, "function", 8) && isspace((unsigned char)s[8]))
			scan_function(&l, i, rel, &groupdoc);
		else if (!strncmp(s, "probe", 5) && isspace((unsigned char)s[5]))
			scan_probe(&l, i, rel);
	}
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .stp under DIR (REL is the path so far), in name order. */
static void scan_dir(const char *dir, const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0;

	if (!d) {
		fprintf(stderr, "tapdoc: %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_names);
	for (int i = 0; i < n; i++) {
		char *path = concat(dir, "/", names[i]);
		char *r = *rel ? concat(rel, "/", names[i]) : xstrdup(names[i]);
		struct stat st;
		size_t len = strlen(names[i]);

		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			scan_dir(path, r);
		else if (len > 4 && !strcmp(names[i] + len - 4, ".stp"))
			scan_file(path, r);
		free(path);
		free(r);
		free(names[i]);
	}
	free(names);
}

/* roff-safe text: backslashes doubled, a leading '.' or '\'' escaped */
static void roff(FILE *f, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

/* Where the doc's text starts: after its head ("NAME(): ", "NAME: ",
 * "a(), NAME(): ") if it has one. */
static const char *doc_text(const struct entry *e)
{
	const char *d = e->doc, *colon;
	size_t n = strlen(e->name);

	if (!strncmp(d, "Probe ", 6) && !strncmp(d + 6, e->name, n))
		d += 6;		/* "Probe NAME: ..." */
	colon = strstr(d, ": ");
	if (colon && (size_t)(colon - d) < n + 40 && !strncmp(d, e->name, n) &&
	    !memchr(d, '\n', colon - d))
		d = colon + 2;
	else if (doc_names(d, e->name))
		d = strchr(d, ':') + 1;
	while (*d == ' ')
		d++;
	return d;
}

/* The summary: the doc's first sentence, without its head. */
static char *summary(const struct entry *e)
{
	const char *d, *end;

	if (!e->doc)
		return xstrdup("");
	d = doc_text(e);
	for (end = d; *end; end++)
		if ((*end == '.' && (end[1] == ' ' || end[1] == '\n' ||
				     !end[1])) ||
		    (*end == '\n' && end[1] == '\n'))
			break;
	{
		char *s = xstrndup(d, end - d);
		for (char *p = s; *p; p++)
			if (*p == '\n')
				*p = ' ';
		return s;
	}
}

/* What the doc says of variable VAR: its line "VAR: text" (or "VAR - "). */
/* Does LINE (after its indentation) begin "IDENT: " or "IDENT - "?  The
 * identifier's length, or 0. */
static size_t item_len(const char *line)
{
	size_t n;

	line += strspn(line, " ");
	n = ident_len(line);
	return n && (!strncmp(line + n, ": ", 2) || !strncmp(line + n, " - ", 3)) ? n : 0;
}

/* Is LINE the description of one of E's variables? */
static int var_line(const struct entry *e, const char *line)
{
	size_t n = item_len(line);

	line += strspn(line, " ");
	for (int i = 0; n && i < e->nvars; i++)
		if (strlen(e->vars[i]) == n && !strncmp(line, e->vars[i], n))
			return 1;
	return 0;
}

/* What the doc says of variable VAR: its line "VAR: text" (or "VAR - "),
 * with the lines after it up to a blank one or the next "NAME: " line. */
static char *var_doc(const struct entry *e, const char *var)
{
	size_t n = strlen(var);
	char *what = NULL;

	for (const char *d = e->doc; d && *d;) {
		const char *eol = strchrnul(d, '\n'), *t = d + strspn(d, " ");

		if (what) {
			char *line = xstrndup(d, eol - d), *w;

			if (!*t || t == eol || item_len(line)) {
				free(line);
				return what;
			}
			w = concat(what, " ", t == d ? line : line + (t - d));
			free(what);
			free(line);
			what = w;
		} else if (!strncmp(t, var, n) && item_len(t) == n) {
			t += n + 2 + (t[n] == ' ');
			what = xstrndup(t, eol - t);
		}
		d = *eol ? eol + 1 : eol;
	}
	return what;
}

/* The doc as paragraphs: its head ("NAME(): ") dropped, the lines that
 * describe variables left to VALUES. */
static void description(FILE *f, const struct entry *e)
{
	const char *d = doc_text(e);
	int in_var = 0;	/* in a variable's description (its line and more) */

	while (*d) {
		const char *eol = strchrnul(d, '\n');
		char *line = xstrndup(d, eol - d);

		if (var_line(e, line))
			in_var = 1;
		else if (!*line || item_len(line))
			in_var = 0;
		if (!*line)
			fputs(".PP\n", f);
		else if (!in_var) {
			roff(f, line);
			fputc('\n', f);
		}
		free(line);
		d = *eol ? eol + 1 : eol;
	}
}

static FILE *open_out(const char *dir, const char *name)
{
	char *path = concat(dir, "/", name);
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "tapdoc: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	free(path);
	return f;
}

static void close_out(FILE *f)
{
	if (ferror(f) || fclose(f)) {
		fprintf(stderr, "tapdoc: write error\n");
		exit(1);
	}
}

static void write_page(const char *outdir, const struct entry *e,
		       const char *version)
{
	const char *kind = e->is_probe ? "probe" : "function";
	char *page = concat(kind, "::", e->name);
	char *file = concat(page, "", ".3stap");
	char *sum = summary(e);
	FILE *f = open_out(outdir, file);
	/* "probe a = b { }" where b is an alias: a's page points to b's (not
	 * where b is a probe point, such as perf.type(0).config(0)) */
	int same = e->same_as && find(1, e->same_as);

	fprintf(f, ".TH \"%s\" 3stap \"ctap %s\" \"SystemTap Tapset Reference\"\n",
		page, version);
	fputs(".SH NAME\n", f);
	roff(f, page);
	fputs(" \\- ", f);
	roff(f, *sum ? sum : "(undocumented)");
	fputs("\n.SH SYNOPSIS\n.nf\n", f);
	if (e->is_probe)
		fputs("probe ", f);
	roff(f, e->synopsis);
	fputs("\n.fi\n", f);
	if (e->nvars) {
		int rest = 0;

		fputs(".SH VALUES\n", f);
		for (int i = 0; i < e->nvars; i++) {
			char *what = var_doc(e, e->vars[i]);

			if (!what) {
				rest++;
				continue;
			}
			fputs(".TP\n.B ", f);
			roff(f, e->vars[i]);
			fputc('\n', f);
			roff(f, what);
			fputc('\n', f);
			free(what);
		}
		if (rest)
			fputs(e->nvars > rest ? ".PP\nAnd:\n" : ".PP\n", f);
		for (int i = 0, n = 0; i < e->nvars; i++) {
			char *what = var_doc(e, e->vars[i]);

			if (!what) {
				fputs(n++ ? ",\n.B " : ".B ", f);
				roff(f, e->vars[i]);
			}
			free(what);
		}
		if (rest)
			fputc('\n', f);
	}
	if (e->doc || same) {
		fputs(".SH DESCRIPTION\n", f);
		if (e->doc)
			description(f, e);
		if (same) {
			fputs(e->doc ? ".PP\nThe same probe and values as\n.BR "
				     : "The same probe and values as\n.BR ", f);
			roff(f, "probe::");
			roff(f, e->same_as);
			fputs(" (3stap).\n", f);
		}
	}
	fputs(".SH FILES\n", f);
	roff(f, e->file);
	fputs(" (in the tapset directory)\n", f);
	fprintf(f, ".SH SEE ALSO\n.BR %s (3stap),\n.BR stap (1)\n",
		e->is_probe ? "stapprobes" : "stapfuncs");
	close_out(f);
	free(sum);
	free(file);
	free(page);
}

/* The index a stapfuncs/stapprobes page ends with: one line per name. */
static void write_index(const char *outdir, int is_probe)
{
	FILE *f = open_out(outdir, is_probe ? "probes.index" : "funcs.index");
	const char *last = "";

	for (int i = 0; i < nentries; i++) {
		const struct entry *e = &entries[i];
		char *sum;

		if (e->is_probe != is_probe)
			continue;
		if (strcmp(last, e->file)) {
			fputs(".SS ", f);
			roff(f, e->file);
			fputc('\n', f);
			last = e->file;
		}
		sum = summary(e);
		fputs(".TP\n.B ", f);
		roff(f, e->is_probe ? e->name : e->synopsis);
		fputc('\n', f);
		roff(f, *sum ? sum : "(undocumented)");
		fputc('\n', f);
		free(sum);
	}
	close_out(f);
}

static int cmp_entries(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : strcmp(x->name, y->name);
}

static void usage(void)
{
	fprintf(stderr, "usage: tapdoc [--undocumented] [--version V] "
			"[-o OUTDIR] TAPSETDIR...\n"
			"       tapdoc --examples DIR -o OUTDIR\n");
	exit(2);
}

/* One example's header comment as an index entry; its usage lines as an
 * example block. */
static void example_entry(FILE *f, const char *path, const char *name)
{
	struct lines l;
	int i = 0, in_usage = 0, blank = 0;

	if (read_lines(path, &l)) {
		fprintf(stderr, "tapdoc: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (l.n && !strncmp(l.v[0], "#!", 2))
		i++;
	fputs(".TP\n.B ", f);
	roff(f, name);
	fputc('\n', f);
	for (; i < l.n && l.v[i][0] == '#'; i++) {
		const char *t = l.v[i] + 1 + (l.v[i][1] == ' ');
		size_t n = strlen(name);

		if (!strncmp(t, "golden: ", 8))
			continue;	/* the test suite's note */
		if (!strncmp(t, name, n) && !strncmp(t + n, " - ", 3))
			t += n + 3;
		if (!strncmp(t, "  stap ", 7)) {
			fputs(in_usage ? "" : blank ? ".nf\n" : ".IP\n.nf\n", f);
			in_usage = 1;
			roff(f, t + 2);
			fputc('\n', f);
			continue;
		}
		if (in_usage)
			fputs(".fi\n", f);
		in_usage = 0;
		blank = !*t;
		if (!*t)
			fputs(".IP\n", f);
		else {
			roff(f, t);
			fputc('\n', f);
		}
	}
	if (in_usage)
		fputs(".fi\n", f);
}

static void write_examples(const char *dir, const char *outdir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0;
	FILE *f;

	if (!d) {
		fprintf(stderr, "tapdoc: %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".stp")) {
			names = realloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_names);
	f = open_out(outdir, "examples.index");
	for (int i = 0; i < n; i++) {
		char *path = concat(dir, "/", names[i]);

		example_entry(f, path, names[i]);
		free(path);
		free(names[i]);
	}
	free(names);
	close_out(f);
}

int main(int argc, char **argv)
{
	const char *outdir = NULL, *version = "", *examples = NULL;
	int undocumented = 0, i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--undocumented"))
			undocumented = 1;
		else if (!strcmp(argv[i], "--version") && i + 1 < argc)
			version = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outdir = argv[++i];
		else if (!strcmp(argv[i], "--examples") && i + 1 < argc)
			examples = argv[++i];
		else
			usage();
	}
	if (examples && outdir && i == argc) {
		if (mkdir(outdir, 0777) && errno != EEXIST) {
			fprintf(stderr, "tapdoc: %s: %s\n", outdir, strerror(errno));
			return 1;
		}
		write_examples(examples, outdir);
		return 0;
	}
	if (i == argc || (!undocumented && !outdir))
		usage();
	for (; i < argc; i++)
		scan_dir(argv[i], "");
	for (i = 0; i < nentries; i++) {
		struct entry *t = entries[i].same_as ?
					  find(1, entries[i].same_as) : NULL;

		for (int j = 0; t && j < t->nvars; j++)
			add_var(&entries[i], t->vars[j], strlen(t->vars[j]));
	}
	qsort(entries, nentries, sizeof *entries, cmp_entries);
	if (undocumented) {
		for (i = 0; i < nentries; i++)
			if (!entries[i].doc)
				printf("%s %s (%s)\n",
				       entries[i].is_probe ? "probe" : "function",
				       entries[i].name, entries[i].file);
		return 0;
	}
	if (mkdir(outdir, 0777) && errno != EEXIST) {
		fprintf(stderr, "tapdoc: %s: %s\n", outdir, strerror(errno));
		return 1;
	}
	for (i = 0; i < nentries; i++)
		write_page(outdir, &entries[i], version);
	write_index(outdir, 0);
	write_index(outdir, 1);
	return 0;
}
