/* stp_printf.h - printf for generated code, on the runtime formatter.
 *
 * The generated code passes the literal format and a tagged argument
 * array (types were checked at translation); the text is formatted
 * straight into the print buffer.  sprintf calls _stp_format directly.
 */
#ifndef STP_PRINTF_H
#define STP_PRINTF_H

#include "format.h"
#ifndef STP_RT_SPLIT	/* else compiled apart (stp_rtlib.c) */
#include "format.c"
#endif

/* Room that one printf may fill: the rest of an emptied buffer. */
static __maybe_unused void _stp_print_fmt(struct context *c, const char *fmt,
					  const struct _stp_fmt_arg *args, int nargs)
{
	if (sizeof c->pbuf - c->plen < MAXSTRINGLEN * 2)
		_stp_print_flush(c);
	c->plen += (size_t)_stp_format(c->pbuf + c->plen,
				       sizeof c->pbuf - c->plen, fmt, args, nargs);
}

#endif
