/* folio_mapping_anon: the low bit that marks an anonymous page's mapping
 * is FOLIO_MAPPING_ANON (6.16 renamed PAGE_MAPPING_ANON to it). */
#include <linux/page-flags.h>

unsigned long stp_feature = FOLIO_MAPPING_ANON;
