/* filemap_get_folio: a file's cached page by index is a folio,
 * filemap_get_folio(mapping, index), read through kmap_local_folio
 * (5.17 on; before, find_get_page() and kmap_atomic()).  It returns NULL
 * for a page not cached before 6.3, an ERR_PTR from then on. */
#include <linux/highmem.h>
#include <linux/pagemap.h>

void *stp_feature(struct address_space *mapping);
void *stp_feature(struct address_space *mapping)
{
	struct folio *f = filemap_get_folio(mapping, 0);
	void *k;

	if (IS_ERR_OR_NULL(f))
		return NULL;
	k = kmap_local_folio(f, 0);
	kunmap_local(k);
	folio_put(f);
	return k;
}
