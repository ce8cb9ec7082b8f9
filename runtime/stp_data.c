/* stp_data.c - arrays and aggregates: the runtime's maps and statistics,
 * included by modules whose scripts have array or aggregate globals, and
 * the end-of-run display of aggregates.  With STP_RT_SPLIT the maps and
 * statistics are compiled apart, once per kernel (stp_rtlib.c): they
 * depend on no macro of the generated C, only on -D's MAXSTRINGLEN.
 */
#ifdef STP_RT_SPLIT
#include "map_impl.h"
#include "stat.h"
/* The accessors a probe calls on every hit, inline as they are when
 * map.c is in the same unit (map_impl.h's layout). */
static __always_inline int64_t *_stp_map_val_int_inline(struct _stp_map *m, int id)
{
	return map_val(m, (uint32_t)id);
}
static __always_inline char *_stp_map_val_str_inline(struct _stp_map *m, int id)
{
	return map_val(m, (uint32_t)id);
}
static __always_inline struct _stp_stat_data *
_stp_map_val_stat_inline(struct _stp_map *m, int id)
{
	return map_val(m, (uint32_t)id);
}
static __always_inline int64_t _stp_map_key_int_inline(const struct _stp_map *m,
						       int id, int col)
{
	return *map_kint(m, (uint32_t)id, col);
}
static __always_inline const char *
_stp_map_key_str_inline(const struct _stp_map *m, int id, int col)
{
	return map_kstrp(m, (uint32_t)id, col);
}
static __always_inline int _stp_pmap_add_inline(struct _stp_pmap *pm, int cpu,
						const union _stp_key *k, int64_t v)
{
	return _stp_map_add_stat(pm->cpu[cpu], k, v);
}
#define _stp_map_val_int _stp_map_val_int_inline
#define _stp_map_val_str _stp_map_val_str_inline
#define _stp_map_val_stat _stp_map_val_stat_inline
#define _stp_map_key_int _stp_map_key_int_inline
#define _stp_map_key_str _stp_map_key_str_inline
#define _stp_pmap_add _stp_pmap_add_inline
#else
#include "map.c"
#include "map_sort.c"
#include "pmap.c"
#include "stat.c"
#include "hist.c"
#endif

/* A statistics global whose @hist_linear parameters stap refuses (stat.h):
 * the module does not start, with stap 4.8's warning and error; the
 * generated stp_globals_init() returns what this returns. */
static __maybe_unused int _stp_hist_refused(int64_t start, int64_t stop,
					    int64_t interval, const char *cname)
{
	char msg[256];

	if (interval == 0) {
		_stp_transport_warn(STP_HIST_ZERO_INTERVAL_MSG);
	} else {
		snprintf(msg, sizeof msg, STP_HIST_LINEAR_BAD_MSG, STP_MAX_BUCKETS - 2);
		_stp_transport_warn(msg);
	}
	snprintf(msg, sizeof msg, "global variable '%s' allocation failed", cname);
	_stp_transport_error(msg);
	return -EINVAL;
}

/* "NAME @count=N @min=… @max=… @sum=… @avg=…", as stap prints a
 * written-only aggregate at exit ("NAME @count=0x0" when empty). */
static __maybe_unused void _stp_display_stat(struct context *c, const char *name,
					     const struct _stp_hist *h,
					     const struct _stp_stat_data *d)
{
	static const char *const labels[] = {
		" @min=", " @max=", " @sum=", " @avg="
	};
	static const enum _stp_stat_op ops[] = {
		STP_STAT_MIN, STP_STAT_MAX, STP_STAT_SUM, STP_STAT_AVG
	};
	int64_t v;
	int i;

	_stp_print_str(c, name);
	if (!d || !d->count) {
		_stp_print_str(c, " @count=0x0\n");
		return;
	}
	_stp_print_str(c, " @count=");
	_stp_print_long(c, d->count);
	for (i = 0; i < 4; i++) {
		_stp_print_str(c, labels[i]);
		_stp_stat_extract(h, d, ops[i], &v);
		_stp_print_long(c, v);
	}
	_stp_print_str(c, "\n");
}
