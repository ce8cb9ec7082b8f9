/* text.c - the text emitter of pass 3: indented lines of C into e->out.
 *
 * Lines, "… {" / "}" pairs that indent what is between them, raw text
 * (embedded C), and the two forms of text every emit file quotes into the
 * module: C string literals and the "… at FILE:LINE:COL" location of a
 * run-time error.  Knows nothing of the module's layout (module.c).
 */
#include <string.h>

#include "emit/emit_int.h"

const char *emit_sprintf(struct emit *e, const char *fmt, ...)
{
	va_list ap;
	const char *r;

	va_start(ap, fmt);
	r = arena_vprintf(e->s->arena, fmt, ap);
	va_end(ap);
	return r;
}

void emit_raw(struct emit *e, const char *text)
{
	sb_puts(&e->out, text);
}

static void indent(struct emit *e)
{
	int i;

	for (i = 0; i < e->indent; i++)
		sb_putc(&e->out, '\t');
}

void emit_line(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	indent(e);
	va_start(ap, fmt);
	sb_vprintf(&e->out, fmt, ap);
	va_end(ap);
	sb_putc(&e->out, '\n');
}

void emit_open(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	indent(e);
	va_start(ap, fmt);
	sb_vprintf(&e->out, fmt, ap);
	va_end(ap);
	sb_puts(&e->out, e->out.len && e->out.s[e->out.len - 1] != '\t' ? " {\n" : "{\n");
	e->indent++;
}

void emit_close(struct emit *e, const char *tail)
{
	e->indent--;
	indent(e);
	sb_printf(&e->out, "}%s\n", tail);
}

const char *emit_cstr(struct emit *e, const char *bytes, size_t len)
{
	struct strbuf sb = {0};
	const char *r;
	size_t i;

	sb_putc(&sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)bytes[i];
		if (ch == '"' || ch == '\\')
			sb_printf(&sb, "\\%c", ch);
		else if (ch == '\n')
			sb_puts(&sb, "\\n");
		else if (ch == '\t')
			sb_puts(&sb, "\\t");
		else if (ch < 32 || ch >= 127 || ch == '?')
			sb_printf(&sb, "\\%03o", ch);	/* also no trigraphs */
		else
			sb_putc(&sb, (char)ch);
	}
	sb_putc(&sb, '"');
	r = arena_strdup(e->s->arena, sb.s);
	sb_free(&sb);
	return r;
}

const char *emit_where(struct emit *e, const char *what, struct loc loc)
{
	char *text;

	if (!loc.file)
		return emit_cstr(e, what, strlen(what));
	text = arena_printf(e->s->arena, "%s at %s:%d:%d", what, loc.file->name,
			    loc.line, loc.col);
	return emit_cstr(e, text, strlen(text));
}
