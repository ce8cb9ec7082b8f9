/* stp_rtlib.c - the part of the runtime no script changes.
 *
 * With STP_RT_SPLIT (translator/build/rtlib.c) this is compiled once per
 * kernel, runtime and -D options into an object kept in the cache, and
 * linked into each script's module, which then compiles only its own C:
 * the transport (rings, files, control messages), the printf formatter,
 * and arrays and aggregates (maps, statistics, histograms).  Nothing here may depend on a macro of the generated C: what
 * a script changes reaches this code as a variable (_stp_bulkmode,
 * _stp_fmt_legacy_ptr) set by the script's unit.  Without STP_RT_SPLIT
 * the same files are included by the script's unit (module.c,
 * stp_printf.h).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/string.h>

#include "stp_limits.h"
#include "stp_compat.h"
#include "format.c"
#include "transport/transport.c"
#include "map.c"
#include "map_sort.c"
#include "pmap.c"
#include "stat.c"
#include "hist.c"
