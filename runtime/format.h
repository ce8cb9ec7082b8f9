/* format.h - printf formats: the parser the translator runs at compile
 * time (same source, linked into stap) and the formatter the module runs.
 * Both follow stap 4.8 exactly, quirks included: one flag character at
 * most ("%-05d" is '-' with width 05, "%#05x" loses the 0), "%.d" has no
 * precision, a '*' width below 0 is 0, "%#x" of 0 is "0x0", "%p" is %#x
 * on the 64-bit value, "%0s" appends a NUL byte.
 *
 * Translator (pass 1/2), for each printf/sprintf format literal:
 *   size_t pos = 0; struct _stp_fmt_piece p; struct _stp_fmt_error e;
 *   while ((r = _stp_fmt_next(fmt, &pos, &p, &e)) > 0)
 *           if (p.kind == STP_FMT_DIRECTIVE)
 *                   n += _stp_fmt_piece_args(&p, types + n);
 *   r < 0: parse error e.msg (STP_FMT_MSG_BADCONV / STP_FMT_MSG_TRAILING)
 *          found at byte e.offset of the format.
 *   n != number of arguments -> STP_FMT_MSG_NARGS; argument i must have
 *   type types[i] (STP_FMT_T_LONG or STP_FMT_T_STRING).
 *   %m/%M take an address: the caller reads (p.prec > 0 ? p.prec : 1)
 *   bytes from it (user memory when p.flags & STP_FMT_SPECIAL) and passes
 *   them to the formatter as an STP_FMT_ARG_MEM argument.
 *
 * Runtime: _stp_format(buf, size, fmt, args, nargs) writes at most
 * size - 1 bytes plus a NUL and returns the bytes written (which may
 * include NULs from %b/%0s). sprintf uses size MAXSTRINGLEN; printf a
 * size one larger than the bytes it may print.
 */
#ifndef STP_FORMAT_H
#define STP_FORMAT_H

#include "rt_compat.h"

/* Flag bits of a directive. */
#define STP_FMT_ZEROPAD	0x01	/* '0' */
#define STP_FMT_SIGN	0x02	/* signed conversion (d, i) */
#define STP_FMT_PLUS	0x04	/* '+' */
#define STP_FMT_SPACE	0x08	/* ' ' */
#define STP_FMT_LEFT	0x10	/* '-' */
#define STP_FMT_SPECIAL	0x20	/* '#' */
#define STP_FMT_LARGE	0x40	/* X */

/* Width / precision not given, or given as '*'. */
#define STP_FMT_NONE (-1)
#define STP_FMT_STAR (-2)

/* Exact texts of the diagnostics stap gives for formats. */
#define STP_FMT_MSG_BADCONV "invalid or missing conversion specifier"
#define STP_FMT_MSG_TRAILING "trailing incomplete print format conversion"
#define STP_FMT_MSG_NARGS "Wrong number of args to formatted print operator"

enum _stp_fmt_kind { STP_FMT_LITERAL, STP_FMT_DIRECTIVE };

struct _stp_fmt_piece {
	enum _stp_fmt_kind kind;
	const char *text;	/* literal: bytes to copy, inside fmt */
	size_t len;
	char conv;		/* directive: one of "diuxXopcsbmM" */
	unsigned flags;		/* STP_FMT_* bits */
	int width, prec;	/* >= 0, STP_FMT_NONE or STP_FMT_STAR */
	size_t offset;		/* where the piece starts in fmt */
};

struct _stp_fmt_error {
	const char *msg;
	size_t offset;		/* byte of fmt where parsing failed */
};

/* Next piece of fmt from *pos: 1 and *p filled, 0 at the end, -1 on a
 * malformed directive (*err filled). "%%" comes back as the literal "%". */
int _stp_fmt_next(const char *fmt, size_t *pos, struct _stp_fmt_piece *p,
		  struct _stp_fmt_error *err);

/* Argument types a directive consumes, in order ('*' width, '*'
 * precision, then the value). Returns their number (1..3). */
enum _stp_fmt_type { STP_FMT_T_LONG, STP_FMT_T_STRING };
int _stp_fmt_piece_args(const struct _stp_fmt_piece *p, enum _stp_fmt_type *t);

/* Check a whole format: fills up to max types, returns the number of
 * arguments it takes, or -1 with *err. */
int _stp_fmt_check(const char *fmt, enum _stp_fmt_type *types, int max,
		   struct _stp_fmt_error *err);

/* Runtime arguments, tagged. */
enum _stp_fmt_argkind { STP_FMT_ARG_LONG, STP_FMT_ARG_STR, STP_FMT_ARG_MEM };
struct _stp_fmt_arg {
	enum _stp_fmt_argkind kind;
	union {
		int64_t n;
		const char *s;
		struct {
			const void *p;
			size_t len;
		} mem;
	};
};

int _stp_format(char *buf, size_t size, const char *fmt,
		const struct _stp_fmt_arg *args, int nargs);
/* Nonzero: %p as SystemTap before 1.3 (--compatible 1.2) printed it; the
 * module sets it at load when built so (STP_LEGACY_PTR). */
extern int _stp_fmt_legacy_ptr;

/* Decimal text of v into buf (NUL-terminated, truncated to size - 1);
 * returns the length of the full text. */
size_t _stp_int64_to_str(char *buf, size_t size, int64_t v);

/* The tapset's strtol(str, base): the kernel's simple_strtol on a 64-bit
 * long. Optional '-', base 0 picks 16 ("0x" + hex digit), 8 (leading 0)
 * or 10; base 16 skips "0x"; digits stop at the first non-digit; no
 * whitespace or '+' is accepted; overflow wraps. */
int64_t _stp_strtol(const char *s, int64_t base);

#endif /* STP_FORMAT_H */
