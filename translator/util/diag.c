/* diag.c - printing of diagnostics; see diag.h for the format.
 *
 * The source line is quoted with tabs kept as they are, and the caret line
 * copies the tabs of the prefix so the caret lands under the right column
 * whatever the terminal's tab width.
 */
#include "util/diag.h"
#include "util/arena.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int last_shown;	/* was the last error/warning printed (for notes) */

/* Colour only on a terminal, and never when NO_COLOR is set or
 * SYSTEMTAP_COLORS is empty (as stap treats it). */
static int getenv_color_ok(void)
{
	const char *c = getenv("SYSTEMTAP_COLORS");

	return !getenv("NO_COLOR") && !(c && !*c);
}

void diag_init(struct diags *d)
{
	memset(d, 0, sizeof *d);
	d->out = stderr;
	d->color = isatty(STDERR_FILENO) && getenv_color_ok();
}

static void quote_line(struct diags *d, struct loc loc)
{
	const char *p, *end, *s;
	int line;

	if (!loc.file || !loc.file->text || loc.line <= 0)
		return;
	p = loc.file->text;
	for (line = 1; line < loc.line && *p; p++)
		if (*p == '\n')
			line++;
	if (line != loc.line)
		return;
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	fprintf(d->out, " %.*s\n ", (int)(end - p), p);
	for (s = p; s < end && s < p + loc.col - 1; s++)
		fputc(*s == '\t' ? '\t' : ' ', d->out);
	fputs(d->color ? "\033[1;32m^\033[0m\n" : "^\n", d->out);
}

static void vreport(struct diags *d, struct loc loc, const char *kind,
		    const char *color, const char *fmt, va_list ap)
{
	if (loc.file)
		fprintf(d->out, "%s%s:%d:%d: ", d->color ? "\033[1m" : "",
			loc.file->name, loc.line, loc.col);
	else
		fprintf(d->out, "%sstap: ", d->color ? "\033[1m" : "");
	if (d->color)
		fprintf(d->out, "%s%s:\033[0m\033[1m ", color, kind);
	else
		fprintf(d->out, "%s: ", kind);
	vfprintf(d->out, fmt, ap);
	fputs(d->color ? "\033[0m\n" : "\n", d->out);
	quote_line(d, loc);
}

static size_t seen_hash(const char *k)
{
	size_t h = 5381;

	while (*k)
		h = h * 33 + (unsigned char)*k++;
	return h;
}

/* Remember KEY; 0 if it was already there. */
static int seen_add(struct diags *d, const char *key)
{
	size_t i, j;

	if (2 * (d->nseen + 1) > d->capseen) {
		const char **old = d->seen;
		size_t oldcap = d->capseen;

		d->capseen = oldcap ? 2 * oldcap : 64;
		d->seen = arena_alloc(d->arena, d->capseen * sizeof *d->seen);
		for (i = 0; i < oldcap; i++) {
			if (!old[i])
				continue;
			for (j = seen_hash(old[i]) & (d->capseen - 1); d->seen[j];
			     j = (j + 1) & (d->capseen - 1))
				;
			d->seen[j] = old[i];
		}
	}
	for (j = seen_hash(key) & (d->capseen - 1); d->seen[j];
	     j = (j + 1) & (d->capseen - 1))
		if (!strcmp(d->seen[j], key))
			return 0;
	d->seen[j] = key;
	d->nseen++;
	return 1;
}

static void print_error(struct diags *d, struct loc loc, const char *fmt,
			...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(d, loc, "error", "\033[1;31m", fmt, ap);
	va_end(ap);
}

void diag_error(struct diags *d, struct loc loc, const char *id,
		const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (d->quiet || d->quiet_errors) {
		d->quieted++;
		last_shown = 0;
		return;
	}
	d->errors++;
	d->last_id = id;
	last_shown = 1;
	va_start(ap, fmt);
	if (!d->arena || !loc.file) {
		vreport(d, loc, "error", "\033[1;31m", fmt, ap);
		va_end(ap);
		return;
	}
	msg = arena_vprintf(d->arena, fmt, ap);
	va_end(ap);
	if (!seen_add(d, arena_printf(d->arena, "%s:%d:%d: %s", loc.file->name,
				      loc.line, loc.col, msg))) {
		last_shown = 0;
		return;
	}
	if (!seen_add(d, arena_printf(d->arena, "S %s:%d:%d: %s",
				      loc.file->name, loc.line, loc.col, id)) &&
	    !d->show_similar) {
		d->similar++;
		last_shown = 0;
		return;
	}
	print_error(d, loc, "%s", msg);
}

void diag_similar_summary(struct diags *d)
{
	if (!d->similar)
		return;
	fprintf(d->out, "Number of similar error messages suppressed: %d.\n",
		d->similar);
	fputs("Rerun with -v to see them.\n", d->out);
}

void diag_warning(struct diags *d, struct loc loc, const char *id,
		  const char *fmt, ...)
{
	const char *kind = d->warnings_are_errors ? "error" : "warning";
	va_list ap;

	if (d->quiet) {
		last_shown = 0;
		return;
	}
	if (d->arena && loc.file) {
		/* The same warning at the same place once (a probe body shared
		 * by several probe points is checked for each), as stap. */
		const char *msg;

		va_start(ap, fmt);
		msg = arena_vprintf(d->arena, fmt, ap);
		va_end(ap);
		if (!seen_add(d, arena_printf(d->arena, "W %s:%d:%d: %s",
					      loc.file->name, loc.line,
					      loc.col, msg))) {
			last_shown = 0;
			return;
		}
	}
	if (d->warnings_are_errors) {
		d->errors++;
		d->last_id = id;
	} else if (d->suppress_warnings) {
		last_shown = 0;
		return;
	}
	d->warnings++;
	last_shown = 1;
	va_start(ap, fmt);
	vreport(d, loc, kind, "\033[1;35m", fmt, ap);
	va_end(ap);
}

void diag_note(struct diags *d, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	if (!last_shown)
		return;
	va_start(ap, fmt);
	vreport(d, loc, "note", "\033[1;36m", fmt, ap);
	va_end(ap);
}

void diag_fatal(struct diags *d, const char *fmt, ...)
{
	va_list ap;
	struct loc none = {0};

	d->errors++;
	last_shown = 1;
	va_start(ap, fmt);
	vreport(d, none, "error", "\033[1;31m", fmt, ap);
	va_end(ap);
}

void diag_plain_warning(struct diags *d, const char *fmt, ...)
{
	va_list ap;
	struct loc none = {0};

	if (d->suppress_warnings) {
		last_shown = 0;
		return;
	}
	d->warnings++;
	last_shown = 1;
	va_start(ap, fmt);
	vreport(d, none, "warning", "\033[1;35m", fmt, ap);
	va_end(ap);
}
