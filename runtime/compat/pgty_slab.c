/* pgty_slab: a slab page's page_type has PGTY_slab in its top byte (6.12
 * has it; older kernels the PG_slab page flag: see pg_slab). */
#include <linux/page-flags.h>

int stp_feature = PGTY_slab;
