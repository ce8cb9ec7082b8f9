/* stp_error.h - runtime errors of a probe handler.
 *
 * A failing operation records its message (what `catch (msg)` sees) and
 * where it happened in the context, and jumps to the handler's error label (or the enclosing
 * try/catch).  When the handler ends with an error still set, it is
 * reported as "ERROR: <message> near <where>" and counted; past MAXERRORS
 * the session stops, as with stap.
 */
#ifndef STP_ERROR_H
#define STP_ERROR_H

static inline void _stp_error_at(struct context *c, const char *msg,
				 const char *where)
{
	if (msg != c->error_buffer)
		strscpy(c->error_buffer, msg, sizeof c->error_buffer);
	c->last_error = c->error_buffer;
	if (where)
		c->last_stmt = where;
}

/* error("msg") and STAP_ERROR(): the message alone, as stap reports
 * errors raised by the script itself (no "near …"). */
static inline void _stp_error_msg(struct context *c, const char *msg)
{
	_stp_error_at(c, msg, NULL);
	c->last_stmt = NULL;
}

__printf(2, 3)
static inline void _stp_error_fmt(struct context *c, const char *fmt, ...)
{
	char msg[MAXSTRINGLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	_stp_error_msg(c, msg);
}

#define CONTEXT c
#define THIS l
#define STAP_RETVALUE (l->__retvalue)
/* A formatted runtime error at WHERE (generated code: %m read faults). */
__printf(3, 4)
static inline void _stp_error_fmt_at(struct context *c, const char *where,
				     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->error_buffer, sizeof c->error_buffer, fmt, ap);
	va_end(ap);
	_stp_error_at(c, c->error_buffer, where);
}

/* In an embedded-C function, errors are "near" the function's name in its
 * declaration (STAP_FUNC_WHERE, defined around each such body). */
#define STAP_ERROR(...) do { _stp_error_fmt(c, __VA_ARGS__); \
	c->last_stmt = STAP_FUNC_WHERE; goto out; } while (0)
#define STAP_NEXT do { c->next = 1; goto out; } while (0)
#define STAP_PRINTF(...) _stp_printf(c, __VA_ARGS__)

#endif
