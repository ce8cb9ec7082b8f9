/* pg_slab: a slab page has the page flag PG_slab (newer kernels made slab
 * a page type: see pgty_slab). */
#include <linux/page-flags.h>

int stp_feature = PG_slab;
