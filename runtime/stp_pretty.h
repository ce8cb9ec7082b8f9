/* stp_pretty.h - $var$ and $var$$ on structs and unions, as stap prints them.
 *
 * The translator describes each aggregate type a script pretty-prints as a
 * table of fields (emit/pretty.c); this walks the table over the object in
 * kernel memory: "{.a=1, .p=0x…, .s={...}, .arr=[...]}".  With $$ nested
 * aggregates are expanded and arrays show their first element.  Every
 * read is fault-safe, and the text stops at MAXSTRINGLEN - 1 bytes, where
 * stap's string ends too.
 */
#ifndef STP_PRETTY_H
#define STP_PRETTY_H

enum {
	_STP_PF_INT,		/* decimal; bit_size for a bitfield */
	_STP_PF_CHAR,		/* a char: '\000' */
	_STP_PF_PTR,		/* 0x… */
	_STP_PF_CHARS,		/* a char array: a quoted string */
	_STP_PF_SUB,		/* a nested aggregate: sub */
	_STP_PF_ELIDED,		/* {...} */
	_STP_PF_ELIDED_ARRAY,	/* [...] */
	_STP_PF_ARRAY,		/* [first, ...]: sub[0] is the element */
};

struct _stp_pfield {
	const char *label;	/* ".name=", "<union>=", ""; NULL ends */
	const struct _stp_pfield *sub;
	unsigned int off;	/* bits from the start of the aggregate */
	unsigned int n;		/* array elements; element size for ARRAY */
	unsigned char kind, size, bit_size, is_signed;
};

struct _stp_pbuf {
	char *s;
	size_t len;
};

static void _stp_pput(struct _stp_pbuf *b, const char *text)
{
	b->len += _stp_strlcpy(b->s + b->len, text, MAXSTRINGLEN - b->len);
	if (b->len > MAXSTRINGLEN - 1)
		b->len = MAXSTRINGLEN - 1;
}

static int _stp_pfull(const struct _stp_pbuf *b)
{
	return b->len >= MAXSTRINGLEN - 1;
}

static void _stp_pretty_char(struct _stp_pbuf *b, unsigned char ch)
{
	char tmp[8];

	if (ch == '\'' || ch == '\\')
		snprintf(tmp, sizeof tmp, "'\\%c'", ch);
	else if (ch < 32 || ch >= 127)
		snprintf(tmp, sizeof tmp, "'\\%03o'", ch);
	else
		snprintf(tmp, sizeof tmp, "'%c'", ch);
	_stp_pput(b, tmp);
}

/* Out of the recursion, so that its buffer is not on the stack of every
 * nesting level. */
static noinline void _stp_pretty_chars(struct context *c, struct _stp_pbuf *b,
				       u64 addr, int n, const char *where)
{
	char tmp[MAXSTRINGLEN];

	_stp_kread_quoted(c, tmp, addr, n, where);
	_stp_pput(b, tmp);
}

static void _stp_pretty_agg(struct context *c, struct _stp_pbuf *b, u64 addr,
			    const struct _stp_pfield *f, const char *where);

static void _stp_pretty_field(struct context *c, struct _stp_pbuf *b,
			      u64 addr, const struct _stp_pfield *f,
			      const char *where)
{
	char tmp[24];
	u64 a = addr + f->off / 8, v;
	int nbytes;

	switch (f->kind) {
	case _STP_PF_INT:
	case _STP_PF_CHAR:
		nbytes = f->bit_size ? (f->off % 8 + f->bit_size + 7) / 8 : f->size;
		v = _stp_kread(c, a, nbytes, where);
		if (c->last_error)
			return;
		if (f->bit_size)
			v = (u64)_stp_bitfield(v, f->off % 8, f->bit_size, f->is_signed);
		else if (f->is_signed && nbytes < 8 && (v >> (nbytes * 8 - 1)) & 1)
			v |= ~0ULL << (nbytes * 8);
		if (f->kind == _STP_PF_CHAR) {
			_stp_pretty_char(b, (unsigned char)v);
			return;
		}
		snprintf(tmp, sizeof tmp, f->is_signed ? "%lld" : "%llu",
			 (unsigned long long)v);
		_stp_pput(b, tmp);
		return;
	case _STP_PF_PTR:
		v = _stp_kread(c, a, 8, where);
		if (c->last_error)
			return;
		snprintf(tmp, sizeof tmp, "0x%llx", (unsigned long long)v);
		_stp_pput(b, tmp);
		return;
	case _STP_PF_CHARS:
		_stp_pretty_chars(c, b, a, (int)f->n, where);
		return;
	case _STP_PF_SUB:
		_stp_pretty_agg(c, b, a, f->sub, where);
		return;
	case _STP_PF_ELIDED:
		_stp_pput(b, "{...}");
		return;
	case _STP_PF_ELIDED_ARRAY:
		_stp_pput(b, "[...]");
		return;
	case _STP_PF_ARRAY:
		_stp_pput(b, "[");
		_stp_pretty_field(c, b, a, f->sub, where);
		_stp_pput(b, f->n > 1 ? ", ...]" : "]");
		return;
	}
}

static void _stp_pretty_agg(struct context *c, struct _stp_pbuf *b, u64 addr,
			    const struct _stp_pfield *f, const char *where)
{
	int i;

	if (!f->label) {	/* nothing stap can show */
		_stp_pput(b, "{...}");
		return;
	}
	_stp_pput(b, "{");
	for (i = 0; f[i].label && !_stp_pfull(b) && !c->last_error; i++) {
		if (i)
			_stp_pput(b, ", ");
		_stp_pput(b, f[i].label);
		_stp_pretty_field(c, b, addr, &f[i], where);
	}
	_stp_pput(b, "}");
}

/* The aggregate at ADDR described by F, into OUT (MAXSTRINGLEN). */
static __maybe_unused void _stp_pretty(struct context *c, char *out, u64 addr,
				       const struct _stp_pfield *f,
				       const char *where)
{
	struct _stp_pbuf b = { out, 0 };

	out[0] = '\0';
	_stp_pretty_agg(c, &b, addr, f, where);
}

#endif
