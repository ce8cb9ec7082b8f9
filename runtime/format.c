/* format.c - printf format parsing (shared with the translator, so no
 * kernel-only code here) and the runtime formatter behind printf and
 * sprintf. Output semantics are stap 4.8's: the kernel-style number
 * printer (a '#' prefix even for 0, '0' padding kept with a precision),
 * %b raw native-endian integers, %m/%M raw or hex memory, %#c C escapes,
 * and widths clamped to the room left in the buffer. See format.h.
 */
#include "format.h"

/* stap's bound on one %s, whatever the precision says. */
#ifndef STP_BUFFER_SIZE
#define STP_BUFFER_SIZE 8192
#endif

/* Parsing. */

static int fmt_fail(struct _stp_fmt_error *err, const char *msg, size_t off)
{
	err->msg = msg;
	err->offset = off;
	return -1;
}

static int fmt_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* Width or precision digits; saturates far beyond any buffer size. */
static int fmt_number_field(const char *fmt, size_t *i)
{
	int v = 0;

	while (fmt_isdigit(fmt[*i])) {
		if (v < 100000000)
			v = v * 10 + (fmt[*i] - '0');
		(*i)++;
	}
	return v;
}

static unsigned fmt_flag(char c)
{
	switch (c) {
	case '-':
		return STP_FMT_LEFT;
	case '+':
		return STP_FMT_PLUS;
	case ' ':
		return STP_FMT_SPACE;
	case '#':
		return STP_FMT_SPECIAL;
	case '0':
		return STP_FMT_ZEROPAD;
	default:
		return 0;
	}
}

static int fmt_conv_ok(char c)
{
	return c && strchr("diuxXopcsbmM", c) != NULL;
}

/* directive -> '%' [flag] [width | '*'] ['.' [digits | '*']] ['l'] conv
 * Only one flag character: stap reads "%-05d" as '-' then width 05. */
static int fmt_directive(const char *fmt, size_t *pos, struct _stp_fmt_piece *p,
			 struct _stp_fmt_error *err)
{
	size_t i = *pos + 1;

	p->kind = STP_FMT_DIRECTIVE;
	if (fmt[i] == '\0')
		return fmt_fail(err, STP_FMT_MSG_BADCONV, i);
	p->flags = fmt_flag(fmt[i]);
	if (p->flags)
		i++;
	if (fmt[i] == '\0')
		return fmt_fail(err, STP_FMT_MSG_TRAILING, i);
	if (fmt[i] == '*') {
		p->width = STP_FMT_STAR;
		i++;
	} else if (fmt_isdigit(fmt[i])) {
		p->width = fmt_number_field(fmt, &i);
	}
	if (fmt[i] == '\0')
		return fmt_fail(err, STP_FMT_MSG_TRAILING, i);
	if (fmt[i] == '.') {
		i++;
		if (fmt[i] == '*') {
			p->prec = STP_FMT_STAR;
			i++;
		} else if (fmt_isdigit(fmt[i])) {
			p->prec = fmt_number_field(fmt, &i);
		}
	}
	if (fmt[i] == 'l')
		i++;
	if (fmt[i] == '\0') {
		/* stap drops a bare trailing "%." or "%l" without a word */
		if (p->flags || p->width != STP_FMT_NONE || p->prec != STP_FMT_NONE)
			return fmt_fail(err, STP_FMT_MSG_TRAILING, i);
		*pos = i;
		return 0;
	}
	if (!fmt_conv_ok(fmt[i]))
		return fmt_fail(err, STP_FMT_MSG_BADCONV, i);
	p->conv = fmt[i];
	*pos = i + 1;
	return 1;
}

int _stp_fmt_next(const char *fmt, size_t *pos, struct _stp_fmt_piece *p,
		  struct _stp_fmt_error *err)
{
	size_t i = *pos;

	memset(p, 0, sizeof(*p));
	p->width = p->prec = STP_FMT_NONE;
	p->offset = i;
	if (fmt[i] == '\0')
		return 0;
	p->kind = STP_FMT_LITERAL;
	if (fmt[i] == '%' && fmt[i + 1] == '%') {
		p->text = fmt + i + 1;
		p->len = 1;
		*pos = i + 2;
		return 1;
	}
	if (fmt[i] == '%')
		return fmt_directive(fmt, pos, p, err);
	while (fmt[i] && fmt[i] != '%')
		i++;
	p->text = fmt + *pos;
	p->len = i - *pos;
	*pos = i;
	return 1;
}

int _stp_fmt_piece_args(const struct _stp_fmt_piece *p, enum _stp_fmt_type *t)
{
	int n = 0;

	if (p->kind != STP_FMT_DIRECTIVE)
		return 0;
	if (p->width == STP_FMT_STAR)
		t[n++] = STP_FMT_T_LONG;
	if (p->prec == STP_FMT_STAR)
		t[n++] = STP_FMT_T_LONG;
	t[n++] = p->conv == 's' ? STP_FMT_T_STRING : STP_FMT_T_LONG;
	return n;
}

int _stp_fmt_check(const char *fmt, enum _stp_fmt_type *types, int max,
		   struct _stp_fmt_error *err)
{
	struct _stp_fmt_piece p;
	enum _stp_fmt_type t[3];
	size_t pos = 0;
	int r, i, k, n = 0;

	while ((r = _stp_fmt_next(fmt, &pos, &p, err)) > 0) {
		k = _stp_fmt_piece_args(&p, t);
		for (i = 0; i < k; i++, n++)
			if (n < max)
				types[n] = t[i];
	}
	return r < 0 ? -1 : n;
}

/* Output, bounded like stap's str/end pair: bytes past 'end' are
 * counted but not stored, and 'end' itself gets the final NUL. */

struct fmt_out {
	char *buf;
	int64_t end;	/* index of the last byte */
	int64_t pos;
};

static void out_put(struct fmt_out *o, char c)
{
	if (o->pos <= o->end)
		o->buf[o->pos] = c;
	o->pos++;
}

static int out_room(const struct fmt_out *o)
{
	return o->pos <= o->end;
}

/* The kernel-style integer printer stap uses for d i u o x X p. */
static void fmt_number(struct fmt_out *o, uint64_t num, uint32_t base,
		       int size, int prec, unsigned type)
{
	const char *digits = (type & STP_FMT_LARGE) ? "0123456789ABCDEF"
						    : "0123456789abcdef";
	char tmp[66], sign = 0, pad;
	int n = 0;

	if (type & STP_FMT_LEFT)
		type &= ~STP_FMT_ZEROPAD;
	pad = (type & STP_FMT_ZEROPAD) ? '0' : ' ';
	if (type & STP_FMT_SIGN) {
		if ((int64_t)num < 0) {
			sign = '-';
			num = 0 - num;
			size--;
		} else if (type & STP_FMT_PLUS) {
			sign = '+';
			size--;
		} else if (type & STP_FMT_SPACE) {
			sign = ' ';
			size--;
		}
	}
	if (type & STP_FMT_SPECIAL)
		size -= base == 16 ? 2 : base == 8 ? 1 : 0;
	do {
		uint32_t rem;

		num = _stp_rt_udivmod(num, base, &rem);
		tmp[n++] = digits[rem];
	} while (num);
	if (n > prec)
		prec = n;
	size -= prec;
	if (!(type & (STP_FMT_ZEROPAD | STP_FMT_LEFT)))
		while (size-- > 0)
			out_put(o, ' ');
	if (sign)
		out_put(o, sign);
	if ((type & STP_FMT_SPECIAL) && (base == 8 || base == 16)) {
		out_put(o, '0');
		if (base == 16)
			out_put(o, (type & STP_FMT_LARGE) ? 'X' : 'x');
	}
	if (!(type & STP_FMT_LEFT))
		while (size-- > 0)
			out_put(o, pad);
	while (n < prec--)
		out_put(o, '0');
	while (n-- > 0)
		out_put(o, tmp[n]);
	while (size-- > 0)
		out_put(o, ' ');
}

/* %#c: the escape letter for c, 0 when it needs octal, 1 when plain. */
static char fmt_char_escape(unsigned char c)
{
	switch (c) {
	case '\a': return 'a';
	case '\b': return 'b';
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	case '\v': return 'v';
	case '\'': return '\'';
	case '\\': return '\\';
	default:
		return c >= 0x20 && c < 0x7f ? 1 : 0;
	}
}

static void fmt_char(struct fmt_out *o, unsigned char c, int width,
		     unsigned flags)
{
	char esc = (flags & STP_FMT_SPECIAL) ? fmt_char_escape(c) : 1;
	int size = esc == 1 ? 1 : esc ? 2 : 4;

	if (!(flags & STP_FMT_LEFT))
		while (width-- > size)
			out_put(o, ' ');
	if (esc == 1) {
		out_put(o, (char)c);
	} else {
		out_put(o, '\\');
		if (esc) {
			out_put(o, esc);
		} else {
			out_put(o, (char)('0' + ((c >> 6) & 3)));
			out_put(o, (char)('0' + ((c >> 3) & 7)));
			out_put(o, (char)('0' + (c & 7)));
		}
	}
	while (width-- > size)
		out_put(o, ' ');
}

/* %s, %m (raw bytes) and %M (hex pairs); a '0' flag appends a NUL. */
static void fmt_mem(struct fmt_out *o, const char *p, size_t avail, int width,
		    int prec, char conv, unsigned flags)
{
	static const char hex[] = "0123456789abcdef";
	int i, len;

	if (conv == 's') {
		size_t lim = prec < 0 ? STP_BUFFER_SIZE
			     : prec > STP_BUFFER_SIZE ? STP_BUFFER_SIZE : prec;

		if (p == NULL)
			p = "<NULL>";
		for (len = 0; (size_t)len < lim && p[len]; len++)
			;
	} else {
		len = prec > 0 ? prec : 1;
		if (p == NULL)
			avail = 0;
		if ((size_t)len > avail)
			len = (int)avail;
	}
	if (!(flags & STP_FMT_LEFT)) {
		int actlen = conv == 'M' ? len * 2 : len;

		while (actlen < width-- && out_room(o))
			out_put(o, ' ');
	}
	if (conv == 'M') {
		for (i = 0; i < len && o->pos < o->end; i++) {
			unsigned char c = (unsigned char)p[i];

			out_put(o, hex[c >> 4]);
			out_put(o, hex[c & 15]);
		}
		len *= 2;
	} else {
		for (i = 0; i < len && out_room(o); i++)
			out_put(o, p[i]);
	}
	while (len < width-- && out_room(o))
		out_put(o, ' ');
	if ((flags & STP_FMT_ZEROPAD) && out_room(o))
		out_put(o, '\0');
}

static int fmt_binary_size(int n)
{
	return n == 1 || n == 2 || n == 4 || n == 8 ? n : -1;
}

/* %b: the value's low 1/2/4/8 bytes in host order, NUL padded to width.
 * Unspecified width and precision default to each other, then to 8. */
static void fmt_binary(struct fmt_out *o, int64_t num, int width, int prec,
		       unsigned flags)
{
	unsigned char bytes[8];
	int i;

	prec = fmt_binary_size(prec);
	if (width == -1) {
		if (prec == -1)
			prec = 8;
		width = prec;
	} else if (prec == -1) {
		prec = fmt_binary_size(width);
		if (prec == -1)
			prec = 8;
	}
	if (!(flags & STP_FMT_LEFT))
		while (prec < width-- && out_room(o))
			out_put(o, '\0');
	if (o->pos + prec - 1 <= o->end) {
		int8_t v1 = (int8_t)num;
		int16_t v2 = (int16_t)num;
		int32_t v4 = (int32_t)num;

		if (prec == 1)
			memcpy(bytes, &v1, 1);
		else if (prec == 2)
			memcpy(bytes, &v2, 2);
		else if (prec == 4)
			memcpy(bytes, &v4, 4);
		else
			memcpy(bytes, &num, 8);
		for (i = 0; i < prec; i++)
			out_put(o, (char)bytes[i]);
	}
	while (prec >= 0 && width >= 0 && prec < width-- && out_room(o))
		out_put(o, '\0');
}

/* Runtime arguments, forgiving about kinds: a mismatch reads as 0/"". */
struct fmt_args {
	const struct _stp_fmt_arg *v;
	int n, i;
};

static const struct _stp_fmt_arg *fmt_take(struct fmt_args *a)
{
	return a->i < a->n ? &a->v[a->i++] : NULL;
}

static int64_t fmt_take_long(struct fmt_args *a)
{
	const struct _stp_fmt_arg *x = fmt_take(a);

	return x && x->kind == STP_FMT_ARG_LONG ? x->n : 0;
}

/* stap truncates a '*' argument to int, then clamps it to [0, room]. */
static int fmt_clamp(int64_t v, int64_t room)
{
	if (v < 0)
		v = 0;
	if (v > room)
		v = room;
	return (int)v;
}

static int fmt_field(struct fmt_args *a, int spec, int64_t room)
{
	if (spec == STP_FMT_NONE)
		return -1;
	if (spec == STP_FMT_STAR)
		return fmt_clamp((int32_t)(uint32_t)(uint64_t)fmt_take_long(a),
				 room);
	return fmt_clamp(spec, room);
}

int _stp_fmt_legacy_ptr;

/* %p as SystemTap before 1.3 printed it (--compatible 1.2): zero-filled
 * to 16 digits, or to the width under '-'; a wider field is filled with
 * spaces on the left; a precision is ignored. */
static void fmt_legacy_ptr(int *width, int *prec, unsigned *flags)
{
	if (*width < 0) {
		*prec = 16;
	} else if (*flags & STP_FMT_LEFT) {
		*prec = *width - 2;
		*flags &= ~STP_FMT_LEFT;
	} else {
		*prec = *width - 2 < 16 ? *width - 2 : 16;
	}
}

static void fmt_one(struct fmt_out *o, const struct _stp_fmt_piece *p,
		    struct fmt_args *a)
{
	const struct _stp_fmt_arg *x;
	int64_t room = o->end - o->pos + 1;
	int width = fmt_field(a, p->width, room);
	int prec = fmt_field(a, p->prec, room);
	unsigned flags = p->flags;

	switch (p->conv) {
	case 's':
		x = fmt_take(a);
		fmt_mem(o, x && x->kind == STP_FMT_ARG_STR ? x->s : "", 0,
			width, prec, 's', flags);
		return;
	case 'm':
	case 'M':
		x = fmt_take(a);
		if (x && x->kind == STP_FMT_ARG_MEM)
			fmt_mem(o, x->mem.p, x->mem.len, width, prec, p->conv,
				flags);
		else
			fmt_mem(o, NULL, 0, width, prec, p->conv, flags);
		return;
	case 'c':
		fmt_char(o, (unsigned char)fmt_take_long(a), width, flags);
		return;
	case 'b':
		fmt_binary(o, fmt_take_long(a), width, prec, flags);
		return;
	case 'd':
	case 'i':
		flags |= STP_FMT_SIGN;
		fmt_number(o, (uint64_t)fmt_take_long(a), 10, width, prec, flags);
		return;
	case 'u':
		fmt_number(o, (uint64_t)fmt_take_long(a), 10, width, prec, flags);
		return;
	case 'o':
		fmt_number(o, (uint64_t)fmt_take_long(a), 8, width, prec, flags);
		return;
	case 'X':
		flags |= STP_FMT_LARGE;
		fmt_number(o, (uint64_t)fmt_take_long(a), 16, width, prec, flags);
		return;
	case 'p':
		flags |= STP_FMT_SPECIAL;
		if (_stp_fmt_legacy_ptr)
			fmt_legacy_ptr(&width, &prec, &flags);
		fmt_number(o, (uint64_t)fmt_take_long(a), 16, width, prec, flags);
		return;
	default:	/* 'x' */
		fmt_number(o, (uint64_t)fmt_take_long(a), 16, width, prec, flags);
		return;
	}
}

int _stp_format(char *buf, size_t size, const char *fmt,
		const struct _stp_fmt_arg *args, int nargs)
{
	struct fmt_out o = { buf, (int64_t)size - 1, 0 };
	struct fmt_args a = { args, nargs, 0 };
	struct _stp_fmt_piece p;
	struct _stp_fmt_error err;
	size_t pos = 0, i;

	if (size == 0)
		return 0;
	while (_stp_fmt_next(fmt, &pos, &p, &err) > 0) {
		if (p.kind == STP_FMT_DIRECTIVE) {
			fmt_one(&o, &p, &a);
			continue;
		}
		for (i = 0; i < p.len && out_room(&o); i++)
			out_put(&o, p.text[i]);
	}
	if (out_room(&o)) {
		buf[o.pos] = '\0';
		return (int)o.pos;
	}
	buf[o.end] = '\0';
	return (int)o.end;
}

size_t _stp_int64_to_str(char *buf, size_t size, int64_t v)
{
	char tmp[21];
	size_t n = (size_t)_stp_rt_i64_digits(tmp, v);

	if (size) {
		size_t k = n < size ? n : size - 1;

		memcpy(buf, tmp, k);
		buf[k] = '\0';
	}
	return n;
}

static int fmt_lower(char c)
{
	return c | 0x20;
}

static int fmt_isxdigit(char c)
{
	return fmt_isdigit(c) || (fmt_lower(c) >= 'a' && fmt_lower(c) <= 'f');
}

int64_t _stp_strtol(const char *s, int64_t base)
{
	uint32_t b = (uint32_t)(uint64_t)base;	/* an unsigned int there */
	uint64_t res = 0;
	int neg = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (b == 0) {
		if (s[0] == '0')
			b = fmt_lower(s[1]) == 'x' && fmt_isxdigit(s[2]) ? 16 : 8;
		else
			b = 10;
	}
	if (b == 16 && s[0] == '0' && fmt_lower(s[1]) == 'x')
		s += 2;
	for (;; s++) {
		uint32_t v;

		if (fmt_isdigit(*s))
			v = (uint32_t)(*s - '0');
		else if (fmt_lower(*s) >= 'a' && fmt_lower(*s) <= 'f')
			v = (uint32_t)(fmt_lower(*s) - 'a' + 10);
		else
			break;
		if (v >= b)
			break;
		res = res * b + v;
	}
	return neg ? (int64_t)(0 - res) : (int64_t)res;
}
