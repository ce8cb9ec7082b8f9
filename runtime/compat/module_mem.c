/* module_mem: a module's text, data and read-only parts are
 * THIS_MODULE->mem[MOD_TEXT] and the like (6.4 on; before, one
 * core_layout with the text first). */
#include <linux/module.h>

unsigned int stp_feature(const struct module *m);
unsigned int stp_feature(const struct module *m)
{
	return m->mem[MOD_TEXT].size + m->mem[MOD_RO_AFTER_INIT].size;
}
