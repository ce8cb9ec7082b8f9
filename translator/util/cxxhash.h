/* cxxhash.h - the order a libstdc++
 * std::unordered_multimap<std::string, T> iterates its entries in
 * (cxxhash.c).
 *
 * stap 4.8 keeps each compilation unit's functions in such a map, keyed by
 * name, and probes a wildcard's matches in the map's order; ctap's DWARF
 * index records that order to list and register them as stap does.
 */
#ifndef CXXHASH_H
#define CXXHASH_H

#include <stddef.h>
#include <stdint.h>

/* std::hash<std::string> of the LEN bytes at P (64-bit libstdc++). */
uint64_t cxxhash_string(const void *p, size_t len);

/* The iteration order of an unordered_multimap into which NAMES[0..N)
 * were emplaced in that order, from a default-constructed map (the
 * entries of one name end up adjacent).  ORDER (N entries) receives the
 * indexes of NAMES in the order the map visits them.  Returns 0, or -1
 * when out of memory. */
int cxxhash_multimap_order(const char *const *names, size_t n, size_t *order);

#endif
