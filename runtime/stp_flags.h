/* stp_flags.h - numbers as the names tapsets show for them: a value's
 * name from a table, or a flag word's names joined with '|' (what no name
 * covers appended in hex), as stap 4.8 prints flags and enums.  Tables
 * are NULL-ended arrays of struct _stp_flag_name, in printing order.
 */
#ifndef STP_FLAGS_H
#define STP_FLAGS_H

struct _stp_flag_name {
	unsigned long val;
	const char *name;
};

/* Append to BUF the name of VAL in TABLE (NULL-ended), else VAL in hex. */
static __maybe_unused void _stp_decode_value(const struct _stp_flag_name *table,
			      unsigned long val, char *buf, size_t len)
{
	size_t n = strlen(buf);

	for (; table->name; table++)
		if (table->val == val) {
			strlcat(buf, table->name, len);
			return;
		}
	snprintf(buf + n, len - n, "0x%lx", val);
}

/* Append to BUF the names of the bits of VAL, '|'-separated, then what
 * is left of VAL in hex. */
static __maybe_unused void _stp_decode_flags(const struct _stp_flag_name *table,
			      unsigned long val, char *buf, size_t len)
{
	int any = 0;
	size_t n;

	if (!val) {
		_stp_decode_value(table, 0, buf, len);
		return;
	}
	for (; table->name; table++) {
		if (!table->val || !(table->val & val))
			continue;
		if (any)
			strlcat(buf, "|", len);
		strlcat(buf, table->name, len);
		val &= ~table->val;
		any = 1;
	}
	if (!val)
		return;
	if (any)
		strlcat(buf, "|", len);
	n = strlen(buf);
	snprintf(buf + n, len - n, "0x%lx", val);
}

#define _STP_NAME(x) { x, #x }

#endif
