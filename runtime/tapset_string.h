/* tapset_string.h - helpers of the string and conversion tapsets: escaping
 * text for display (text_str, string_quoted, *_quoted readers), UTF-8
 * decoding and UTF-32 encoding, and tokenize()'s per-CPU state.
 *
 * Escaping follows stap 4.8 exactly, since scripts print its output:
 * printable ASCII as is, \a \b \f \n \r \t \v \" \\ short escapes, valid
 * UTF-8 sequences as \uXXXX / \UXXXXXXXX, any other byte as \ooo; an output
 * budget cuts the text, and a quoted cut text ends in "... without a
 * partial escape sequence.
 */
#ifndef TAPSET_STRING_H
#define TAPSET_STRING_H

#include "stp_mem.h"

/* Bytes of escaped input; AVAIL of them are known, and past them the
 * source is unreadable when FAULTED (else they end at a NUL). */
struct _stp_text_in {
	const char *p;
	long avail;
	int faulted;
};

/* Decode one character of at most SIZE bytes from IN at offset OFF into
 * *C.  Returns its byte count, or -1 when a byte it needs is unreadable.
 * Anything but well-formed, shortest-form UTF-8 below U+110000 outside the
 * surrogates decodes as its first byte alone. */
static __maybe_unused int
_stp_utf8_decode(const struct _stp_text_in *in, long off, long size, int *c)
{
	unsigned char b, b2;
	int n, i, v;

	if (size <= 0 || off >= in->avail)
		return -1;
	b = (unsigned char)in->p[off];
	*c = b;
	if ((b & 0xE0) == 0xC0 && size >= 2) {
		n = 2;
		v = b & 0x1F;
	} else if ((b & 0xF0) == 0xE0 && size >= 3) {
		n = 3;
		v = b & 0x0F;
	} else if ((b & 0xF8) == 0xF0 && size >= 4) {
		n = 4;
		v = b & 0x07;
	} else {
		return 1;
	}
	for (i = 1; i < n; i++) {
		if (off + i >= in->avail)
			return -1;
		b2 = (unsigned char)in->p[off + i];
		if ((b2 & 0xC0) != 0x80)
			return 1;
		v = (v << 6) | (b2 & 0x3F);
	}
	if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
		return 1;
	if (v < 0x80 || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
		return 1;
	*c = v;
	return n;
}

static __maybe_unused char
_stp_hex_digit(int v)
{
	return "0123456789ABCDEF"[v & 15];
}

/* The escape of C (a byte, or a code point of a multi-byte sequence when
 * WIDE) into BUF; returns its length. */
static __maybe_unused int
_stp_escape_char(char *buf, int c, int wide)
{
	static const char shorts[] = "\aa\bb\ff\nn\rr\tt\vv\"\"\\\\";
	int i, num;

	if (wide) {
		num = c <= 0xFFFF ? 6 : 10;
		buf[0] = '\\';
		buf[1] = c <= 0xFFFF ? 'u' : 'U';
		for (i = 2; i < num; i++)
			buf[i] = _stp_hex_digit(c >> ((num - 1 - i) * 4));
		return num;
	}
	if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
		buf[0] = (char)c;
		return 1;
	}
	for (i = 0; shorts[i]; i += 2)
		if (shorts[i] == c) {
			buf[0] = '\\';
			buf[1] = shorts[i + 1];
			return 2;
		}
	/* NUL too (the caller shows it as "\0") */
	buf[0] = '\\';
	buf[1] = (char)('0' + ((c >> 6) & 3));
	buf[2] = (char)('0' + ((c >> 3) & 7));
	buf[3] = (char)('0' + (c & 7));
	return 4;
}

/* Escape up to INLEN bytes of IN into OUT (MAXSTRINGLEN bytes), using at
 * most OUTLEN bytes of output (both: <= 0 or too big means MAXSTRINGLEN-1).
 * QUOTED adds the double quotes, and "... when input is left over; BUFFER
 * goes on past NUL bytes.  Returns 0, or -1 if the input was unreadable. */
static __maybe_unused int
_stp_text_escape(char *out, const struct _stp_text_in *in, long inlen,
		 long outlen, int quoted, int buffer)
{
	char *o = out, *esc = NULL, tmp[12];
	long off = 0, left;
	int c = 0, esc_len = 0, n, num, wide;

	if (inlen <= 0 || inlen > MAXSTRINGLEN - 1)
		inlen = MAXSTRINGLEN - 1;
	if (outlen <= 0 || outlen > MAXSTRINGLEN - 1)
		outlen = MAXSTRINGLEN - 1;
	left = outlen;
	if (quoted) {
		left = (left < 5 ? 5 : left) - 2;
		*o++ = '"';
	}
	while (inlen > 0) {
		n = _stp_utf8_decode(in, off, inlen, &c);
		if (n < 0) {
			out[0] = '\0';
			return -1;
		}
		if ((c == 0 && !buffer) || left <= 0)
			break;
		off += n;
		inlen -= n;
		wide = n > 1;
		num = _stp_escape_char(tmp, c, wide);
		if (num > 1) {
			/* an escape near the end may have to go whole */
			if (!esc && left - 3 < num) {
				esc = o;
				esc_len = num;
			}
			if (left < num)
				break;
		}
		if (c == 0) {	/* stap shows "\0" but counts it as "\000" */
			memcpy(o, "\\0", 2);
			o += 2;
		} else {
			memcpy(o, tmp, (size_t)num);
			o += num;
		}
		left -= num;
	}
	if (quoted) {
		if (c && inlen > 0) {
			char *cut = o - 3 + left;

			o = (esc && esc < cut && cut < esc + esc_len) ? esc : cut;
			memcpy(o, "\"...", 4);
			o += 4;
		} else {
			*o++ = '"';
		}
	}
	*o = '\0';
	return 0;
}

/* Escape a script string. */
static __maybe_unused void
_stp_text_escape_str(char *out, const char *s, long inlen, long outlen,
		     int quoted)
{
	struct _stp_text_in in = { s, (long)strlen(s) + 1, 0 };

	_stp_text_escape(out, &in, inlen, outlen, quoted, 0);
}

/* Scratch space for memory being escaped: one per CPU, used only inside a
 * probe handler (preemption is off, and a CPU runs one handler at a time). */
static DEFINE_PER_CPU(char[MAXSTRINGLEN], _stp_text_scratch);

/* Escape memory at ADDR (kernel, or user when USER): a string, or INLEN
 * bytes when BUFFER.  Returns -1 if the bytes needed are unreadable. */
static __maybe_unused int
_stp_text_escape_mem(char *out, unsigned long addr, long inlen, long outlen,
		     int quoted, int user, int buffer)
{
	struct _stp_text_in in;
	char *buf = this_cpu_ptr(_stp_text_scratch);
	long span = inlen <= 0 || inlen > MAXSTRINGLEN - 1 ? MAXSTRINGLEN - 1 : inlen;

	in.p = buf;
	in.avail = _stp_read_span(buf, addr, (size_t)span, user, !buffer,
				  &in.faulted);
	return _stp_text_escape(out, &in, inlen, outlen, quoted, buffer);
}

/* At most N characters of the kernel string at ADDR (up to a NUL), escaped
 * and quoted into OUT (MAXSTRINGLEN bytes): "" when N <= 0, the address in
 * hex when ADDR is 0 or unreadable. */
static __maybe_unused void
_stp_kernel_string_quoted(char *out, unsigned long addr, long n)
{
	if (addr && n <= 0)
		strlcpy(out, "\"\"", MAXSTRINGLEN);
	else if (!addr ||
		 _stp_text_escape_mem(out, addr, n, MAXSTRINGLEN, 1, 0, 0) < 0)
		snprintf(out, MAXSTRINGLEN, "0x%lx", addr);
}

/* Code point C as UTF-8 into BUF of SIZE bytes (with a NUL).  Returns the
 * bytes written, 0 if it does not fit, -1 if C is no character. */
static __maybe_unused int
_stp_utf32_encode(char *buf, int size, u32 c)
{
	int n, i;

	if (c <= 0x7F)
		n = 1;
	else if (c <= 0x7FF)
		n = 2;
	else if (c >= 0xD800 && c <= 0xDFFF)
		return -1;
	else if (c <= 0xFFFF)
		n = 3;
	else if (c <= 0x10FFFF)
		n = 4;
	else
		return -1;
	if (size <= n)
		return 0;
	if (n == 1) {
		buf[0] = (char)c;
	} else {
		for (i = n - 1; i > 0; i--) {
			buf[i] = (char)(0x80 | (c & 0x3F));
			c >>= 6;
		}
		buf[0] = (char)((0xF00 >> n) | c);
	}
	buf[n] = '\0';
	return n;
}

/* The UTF-16 (WIDTH 2) or UTF-32 (WIDTH 4) string at ADDR as UTF-8 into
 * OUT; returns NULL, or the error message in ERRBUF. */
static __maybe_unused const char *
_stp_read_string_utf(char *out, unsigned long addr, int width, int user,
		     char *errbuf, size_t errlen)
{
	int left = MAXSTRINGLEN, rc;
	u32 c;
	u16 lo;

	out[0] = '\0';
	while (left > 1) {
		c = 0;
		if (_stp_read_mem(&c, addr, (size_t)width, user))
			goto fault;
		if (!c)
			break;
		if (width == 2 && c >= 0xD800 && c <= 0xDBFF) {
			if (_stp_read_mem(&lo, addr + 2, 2, user)) {
				addr += 2;
				goto fault;
			}
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c & 0x3FF) << 10) + (lo & 0x3FF);
				addr += 2;
			}
		}
		rc = _stp_utf32_encode(out, left, c);
		if (rc < 0) {
			snprintf(errbuf, errlen, "invalid UTF-%d character U+%X at 0x%lx",
				 width * 8, c, addr);
			return errbuf;
		}
		if (!rc)
			break;
		out += rc;
		left -= rc;
		addr += (unsigned long)width;
	}
	return NULL;
fault:
	snprintf(errbuf, errlen, "%s string copy fault at 0x%lx [man error::fault]",
		 user ? "user" : "kernel", addr);
	return errbuf;
}

/* tokenize(): the string being cut, and where the next token starts (NULL
 * when it is used up).  Per CPU, like stap's per-context state. */
struct _stp_tok_state {
	char str[MAXSTRINGLEN];
	char *next;
};
static DEFINE_PER_CPU(struct _stp_tok_state, _stp_tok);

/* The next non-empty token of the current string (a new one when INPUT is
 * not empty), cut at any byte of DELIM; "" when none is left. */
static __maybe_unused void
_stp_tokenize(char *ret, const char *input, const char *delim)
{
	struct _stp_tok_state *t = this_cpu_ptr(&_stp_tok);
	char *tok;

	if (input[0]) {
		_stp_strlcpy(t->str, input, MAXSTRINGLEN);
		t->next = t->str;
	}
	ret[0] = '\0';
	while (t->next) {
		tok = t->next;
		t->next = strpbrk(tok, delim);
		if (t->next)
			*t->next++ = '\0';
		if (tok[0]) {
			_stp_strlcpy(ret, tok, MAXSTRINGLEN);
			return;
		}
	}
}

#endif
