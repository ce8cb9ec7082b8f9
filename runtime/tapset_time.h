/* tapset_time.h - calendar arithmetic for the ctime tapset.
 *
 * Converts seconds since 1970-01-01 UTC to the civil date by counting whole
 * years, then months; the range is a signed 32-bit second count, so the
 * loops are short.
 */
#ifndef TAPSET_TIME_H
#define TAPSET_TIME_H

static int _stp_leap_year(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* "Thu Jan  1 00:00:00 1970" for SECS into OUT (at least 25 bytes). */
static __maybe_unused void _stp_ctime(char *out, int64_t secs)
{
	static const char wdays[] = "SunMonTueWedThuFriSat";
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	static const unsigned char mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31,
					       30, 31, 30, 31 };
	long days = (long)(secs / 86400), rem = (long)(secs % 86400);
	long year = 1970, wday, ylen;
	int mon = 0, mlen;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	wday = (4 + days) % 7;	/* 1970-01-01 was a Thursday */
	if (wday < 0)
		wday += 7;
	for (;;) {
		ylen = _stp_leap_year(year) ? 366 : 365;
		if (days < 0) {
			year--;
			days += _stp_leap_year(year) ? 366 : 365;
		} else if (days >= ylen) {
			days -= ylen;
			year++;
		} else {
			break;
		}
	}
	for (;; mon++) {
		mlen = mdays[mon] + (mon == 1 && _stp_leap_year(year));
		if (days < mlen)
			break;
		days -= mlen;
	}
	snprintf(out, MAXSTRINGLEN, "%.3s %.3s %2ld %02ld:%02ld:%02ld %ld",
		 wdays + 3 * wday, months + 3 * mon, days + 1, rem / 3600,
		 rem / 60 % 60, rem % 60, year);
}

#endif
