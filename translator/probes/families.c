/* families.c - the table of probe families.
 *
 * A probe point's first component names its family.  Adding a family means
 * one file under probes/, its record's name in family.h and one line here.
 * The order of the unique records is the order families start in (and the
 * reverse of stopping).
 */
#include <string.h>

#include "probes/family.h"

static const struct {
	const char *name;
	const struct probe_family *family;
} families[] = {
	{ "begin", &family_lifecycle },
	{ "end", &family_lifecycle },
	{ "error", &family_lifecycle },
	{ "never", &family_never },
	{ "timer", &family_timer },
	{ "kprobe", &family_kprobe },
	{ "procfs", &family_procfs },
	{ "perf", &family_perf },
	{ "kernel", &family_tracepoint },
	{ "kernel", &family_dwarf },
	{ "module", &family_kmark },
	{ "module", &family_dwarf },
	{ "netfilter", &family_netfilter },
	{ "process", &family_process },
	{ "process", &family_uprobe },
};

const struct probe_family *family_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof families / sizeof families[0]; i++)
		if (!strcmp(families[i].name, name))
			return families[i].family;
	return NULL;
}

const struct probe_family *family_lookup_next(const char *name,
					      const struct probe_family *prev)
{
	size_t i;
	int seen = !prev;

	for (i = 0; i < sizeof families / sizeof families[0]; i++) {
		if (strcmp(families[i].name, name))
			continue;
		if (seen)
			return families[i].family;
		seen = families[i].family == prev;
	}
	return NULL;
}

void family_list(void (*fn)(const struct probe_family *f, void *arg), void *arg)
{
	size_t i, j;

	for (i = 0; i < sizeof families / sizeof families[0]; i++) {
		for (j = 0; j < i; j++)
			if (families[j].family == families[i].family)
				break;
		if (j == i)
			fn(families[i].family, arg);
	}
}

/* The I-th name of the table (first components, such as "begin"), or
 * NULL past the end: for suggestions and --dump-probe-types. */
const char *family_name_at(size_t i)
{
	return i < sizeof families / sizeof families[0] ? families[i].name : NULL;
}
