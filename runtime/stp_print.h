/* stp_print.h - script output through the per-CPU print buffer.
 *
 * Prints append to the context's buffer; the buffer goes to the transport
 * when the handler ends (or when it fills), so one handler's output stays
 * together.  printf formatting is the runtime's formatter (format.c).
 */
#ifndef STP_PRINT_H
#define STP_PRINT_H

static __maybe_unused void _stp_print_flush(struct context *c)
{
	if (c->plen) {
		_stp_transport_write(c->pbuf, c->plen);
		c->plen = 0;
	}
}

/* system(CMD): stapio runs CMD once the output printed before it has
 * reached stapio, so the command is sent after the probe's flush.  Only
 * scripts that call system() (STP_NEED_SYSTEM) carry its buffer. */
#ifdef STP_NEED_SYSTEM
static __maybe_unused void _stp_system_send(struct context *c)
{
	if (unlikely(c->system_pending)) {
		c->system_pending = 0;
		_stp_transport_system(c->system_cmd);
	}
}

static __maybe_unused void _stp_system(struct context *c, const char *cmd)
{
	if (c->system_pending) {
		_stp_print_flush(c);
		_stp_system_send(c);
	}
	strscpy(c->system_cmd, cmd, sizeof c->system_cmd);
	c->system_pending = 1;
}
#else
#define _stp_system_send(c) do { } while (0)
#endif

static __maybe_unused void _stp_print_mem_slow(struct context *c, const char *s, size_t n)
{
	while (n) {
		size_t room = sizeof c->pbuf - c->plen;
		if (!room) {
			_stp_print_flush(c);
			continue;
		}
		if (room > n)
			room = n;
		memcpy(c->pbuf + c->plen, s, room);
		c->plen += room;
		s += room;
		n -= room;
	}
}

/* Room for N bytes in the buffer (a printf of plain directives makes it
 * for its longest line first, so the line is never split by a flush). */
static inline void _stp_print_reserve(struct context *c, size_t n)
{
	if (sizeof c->pbuf - c->plen < n)
		_stp_print_flush(c);
}

/* Inline for the common case, where the bytes fit: a short literal of a
 * known length becomes a few moves. */
static inline void _stp_print_mem(struct context *c, const char *s, size_t n)
{
	if (likely(n <= sizeof c->pbuf - c->plen)) {
		memcpy(c->pbuf + c->plen, s, n);
		c->plen += n;
		return;
	}
	_stp_print_mem_slow(c, s, n);
}

static inline void _stp_print_str(struct context *c, const char *s)
{
	_stp_print_mem(c, s, strlen(s));
}

/* A number's digits straight into the buffer when there is room. */
static inline void _stp_print_long(struct context *c, int64_t v)
{
	char buf[24];

	if (likely(sizeof c->pbuf - c->plen >= sizeof buf)) {
		c->plen += (size_t)_stp_ltoa(c->pbuf + c->plen, v);
		return;
	}
	_stp_print_mem_slow(c, buf, (size_t)_stp_ltoa(buf, v));
}

/* For runtime code that produces text in pieces (histograms). */
static __maybe_unused void _stp_print_emit(void *ctx, const char *s, size_t n)
{
	_stp_print_mem(ctx, s, n);
}

/* A string as stap shows a written-only global: in double quotes, the
 * bytes as they are. */
static __maybe_unused void _stp_print_quoted(struct context *c, const char *s)
{
	_stp_print_mem(c, "\"", 1);
	_stp_print_str(c, s);
	_stp_print_mem(c, "\"", 1);
}

__printf(2, 3)
static __maybe_unused void _stp_printf(struct context *c, const char *fmt, ...)
{
	char buf[MAXSTRINGLEN * 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	_stp_print_mem(c, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}

#endif
