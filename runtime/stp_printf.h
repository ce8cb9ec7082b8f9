/* stp_printf.h - printf and sprintf for generated code.
 *
 * The generated code passes the literal format and a typed argument array
 * (the types were checked at translation).  Each directive is rendered on
 * its own into a bounded buffer.
 */
#ifndef STP_PRINTF_H
#define STP_PRINTF_H

/* Render one directive SPEC (e.g. "%-08lld") with argument A into OUT;
 * returns the length written (bounded by SIZE - 1). */
static __maybe_unused int _stp_fmt_one(char *out, size_t size, const char *spec, char conv,
			const int64_t *star, int nstar,
			const struct _stp_print_arg *a)
{
	char cspec[40];
	size_t n = strlen(spec);
	int r;

	if (n + 3 >= sizeof cspec)
		return 0;
	memcpy(cspec, spec, n - 1);	/* without the conversion */
	n--;
	switch (conv) {
	case 's':
		cspec[n++] = 's';
		cspec[n] = '\0';
		if (nstar == 2)
			r = snprintf(out, size, cspec, (int)star[0], (int)star[1], a->s);
		else if (nstar == 1)
			r = snprintf(out, size, cspec, (int)star[0], a->s);
		else
			r = snprintf(out, size, cspec, a->s);
		break;
	case 'c':
		cspec[n++] = 'c';
		cspec[n] = '\0';
		r = nstar ? snprintf(out, size, cspec, (int)star[0], (int)a->l)
			  : snprintf(out, size, cspec, (int)a->l);
		break;
	case 'p':
		r = snprintf(out, size, "0x%llx", (unsigned long long)a->l);
		break;
	default:
		cspec[n++] = 'l';
		cspec[n++] = 'l';
		cspec[n++] = conv == 'i' ? 'd' : conv;
		cspec[n] = '\0';
		if (nstar == 2)
			r = snprintf(out, size, cspec, (int)star[0], (int)star[1], (long long)a->l);
		else if (nstar == 1)
			r = snprintf(out, size, cspec, (int)star[0], (long long)a->l);
		else
			r = snprintf(out, size, cspec, (long long)a->l);
		break;
	}
	return r < 0 ? 0 : (r < (int)size ? r : (int)size - 1);
}

/* Format FMT with ARGS into OUT (SIZE bytes, always terminated); returns
 * the length. */
static __maybe_unused size_t _stp_sprint_fmt(char *out, size_t size, const char *fmt,
			      const struct _stp_print_arg *args, int nargs)
{
	size_t len = 0;
	int ai = 0;

	out[0] = '\0';
	while (*fmt && len + 1 < size) {
		char spec[40];
		int64_t star[2];
		int ns = 0, sl = 0;

		if (*fmt != '%') {
			out[len++] = *fmt++;
			continue;
		}
		if (fmt[1] == '%') {
			out[len++] = '%';
			fmt += 2;
			continue;
		}
		spec[sl++] = *fmt++;
		while (*fmt && strchr("-+ #0", *fmt) && sl < 30)
			spec[sl++] = *fmt++;
		if (*fmt == '*') {
			spec[sl++] = *fmt++;
			star[ns++] = ai < nargs ? args[ai++].l : 0;
		}
		while (*fmt >= '0' && *fmt <= '9' && sl < 30)
			spec[sl++] = *fmt++;
		if (*fmt == '.') {
			spec[sl++] = *fmt++;
			if (*fmt == '*') {
				spec[sl++] = *fmt++;
				star[ns++] = ai < nargs ? args[ai++].l : 0;
			}
			while (*fmt >= '0' && *fmt <= '9' && sl < 30)
				spec[sl++] = *fmt++;
		}
		while (*fmt == 'l' || *fmt == 'h')
			fmt++;
		if (!*fmt || ai >= nargs)
			break;
		spec[sl++] = *fmt;
		spec[sl] = '\0';
		len += (size_t)_stp_fmt_one(out + len, size - len, spec, *fmt,
					    star, ns, &args[ai++]);
		fmt++;
	}
	out[len] = '\0';
	return len;
}

static __maybe_unused void _stp_print_fmt(struct context *c, const char *fmt,
			   const struct _stp_print_arg *args, int nargs)
{
	if (sizeof c->pbuf - c->plen < MAXSTRINGLEN * 2)
		_stp_print_flush(c);
	c->plen += _stp_sprint_fmt(c->pbuf + c->plen, sizeof c->pbuf - c->plen,
				   fmt, args, nargs);
}

#endif
