/* errors.c - how pass 1 reports an error and names a token in it.
 *
 * The scanner, the preprocessor, the conditions and the grammar all report
 * through parse_error(), which counts errors per file (the quiet fast
 * attempt only counts them); token_desc() reads bison's token codes, so
 * the grammar's helpers (parse_help.c) need not.
 */
#include <stdarg.h>
#include <string.h>

#include "parse/parse.h"
#include "parse/parser.h"

void parse_error(struct parser *p, struct loc loc, const char *id,
		 const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!p->err_id) {
		p->err_id = id;
		p->err_loc = loc;
	}
	if (p->fast) {
		p->errors++;
		return;
	}
	va_start(ap, fmt);
	msg = arena_vprintf(p->a, fmt, ap);
	va_end(ap);
	p->errors++;
	if (!strncmp(id, "lex.", 4) || !strncmp(id, "pp.", 3))
		p->quiet_after = p->ntokens + 1;
	diag_error(&p->s->diags, loc, id, "%s", msg);
}

const char *token_desc(struct parser *p, const struct token *t)
{
	switch (t->type) {
	case 0:
		return "end of file";
	case IDENT:
		return arena_printf(p->a, "identifier '%s'", t->text);
	case NUMBER:
		return arena_printf(p->a, "number '%s'", t->text);
	case STRING:
		return arena_printf(p->a, "string \"%s\"", t->text);
	case EMBEDDED:
		return "embedded code";
	case PP_WORD:
		return arena_printf(p->a, "'%s'", t->text);
	case PP_LBRACE:
		return "'{'";
	case PP_RBRACE:
		return "'}'";
	}
	if (t->text && t->text[0] >= 'a' && t->text[0] <= 'z')
		return arena_printf(p->a, "keyword '%s'", t->text);
	return arena_printf(p->a, "'%s'", t->text ? t->text : "?");
}
