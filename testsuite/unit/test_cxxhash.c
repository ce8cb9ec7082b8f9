/* test_cxxhash.c - libstdc++'s unordered_multimap order
 * (util/cxxhash.c) against g++ 12's: the values below are what a C++
 * program printed with std::hash<std::string> and with
 * std::unordered_multimap<std::string, size_t> filled by emplace (each
 * order as an FNV-1a digest of the insertion indexes it visits, the last
 * one in full).  The names repeat, below and above the 20 entries up to
 * which an insertion scans the list for an equal key, and their counts
 * cross the bucket counts' growth points (13, 29, ..., 20753 buckets).
 */
#include <stdlib.h>

#include "util/cxxhash.h"
#include "unit.h"

static void check_hash(const char *s, uint64_t want)
{
	uint64_t got = cxxhash_string(s, strlen(s));

	if (got != want) {
		printf("cxxhash_string(\"%s\") = %016" PRIx64 ", want %016" PRIx64 "\n",
		       s, got, want);
		unit_failures++;
	}
}

/* The names the C++ program emplaced: N of them, with repeats (MOD
 * different ones; 0: about 3 in 4). */
static const char **names(size_t n, size_t mod)
{
	const char **v = malloc(n * sizeof *v);
	size_t i;

	for (i = 0; i < n; i++) {
		char *s = malloc(32);

		snprintf(s, 32, "fn_%zu", (i * 7919) % (mod ? mod : n * 3 / 4 + 1));
		v[i] = s;
	}
	return v;
}

static void free_names(const char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((void *)v[i]);
	free(v);
}

static void check_order_mod(size_t n, size_t mod, uint64_t want)
{
	const char **v = names(n, mod);
	size_t *order = malloc(n * sizeof *order), i;
	uint64_t d = 14695981039346656037ull;

	CHECK_INT(cxxhash_multimap_order(v, n, order), 0);
	for (i = 0; i < n; i++)
		d = (d ^ order[i]) * 1099511628211ull;
	if (d != want) {
		printf("order of %zu names (%zu different): digest %016" PRIx64
		       ", want %016" PRIx64 "\n", n, mod, d, want);
		unit_failures++;
	}
	free(order);
	free_names(v, n);
}

static void check_order(size_t n, uint64_t want)
{
	check_order_mod(n, 0, want);
}

int main(void)
{
	static const size_t twentyfour[] = {
		18, 16, 15, 13, 14, 21, 2, 9, 12, 1, 20, 22, 3, 23, 4, 5, 17,
		6, 0, 19, 7, 10, 8, 11,
	};
	const char **v = names(24, 0);
	size_t order[24], i;

	check_hash("", 0x553e93901e462a6eull);
	check_hash("a", 0x454ddee488c1ed6bull);
	check_hash("ab", 0x4c4da6cd289c737bull);
	check_hash("abcdefg", 0xdeee6830a3af82afull);
	check_hash("abcdefgh", 0x783db3e38db898bbull);
	check_hash("abcdefghi", 0xb4ec9257851c8aafull);
	check_hash("vfs_read", 0x9ad3cb01726b1004ull);
	check_hash("__x64_sys_read", 0xdcdcefa0779a3c51ull);
	check_hash("generic_file_llseek_size", 0xb6488e42cba7f62eull);
	check_hash("\xff\x80z", 0xeef5e318d92ba0c8ull);	/* bytes unsigned */

	check_order(1, 0xaf63bd4c8601b7dfull);
	check_order(2, 0x082f2207b4e88cc4ull);
	check_order(13, 0xf2744d2b5d375ec7ull);
	check_order(14, 0x3f635aaf9a64ba16ull);
	check_order(15, 0xb6bc2e28a33736a2ull);
	check_order(20, 0x09301fe491b56affull);
	check_order(21, 0xb66c4c3692f40d0bull);
	check_order(22, 0xd6e6eeae4538255aull);
	check_order(29, 0xe0a9b2b71d1797edull);
	check_order(30, 0xa108cae7503fe0acull);
	check_order(100, 0xdc196cabf703101full);
	check_order(128, 0x91a4d5ed9c129a09ull);
	check_order(129, 0x35487b17025b85fdull);
	check_order(1000, 0x3c553c9cce9e249full);
	check_order(5000, 0x02f4e4f7d2bff90dull);
	check_order(30000, 0xa8289c02907fe5f7ull);
	check_order_mod(300, 37, 0xc6869b6e61a8ea87ull);
	check_order_mod(2000, 300, 0x2cf5e6dcad083ea5ull);
	check_order_mod(40, 3, 0x2ad282f5bb07e559ull);

	CHECK_INT(cxxhash_multimap_order(v, 24, order), 0);
	for (i = 0; i < 24; i++)
		CHECK_INT(order[i], twentyfour[i]);
	CHECK_INT(cxxhash_multimap_order(v, 0, order), 0);
	free_names(v, 24);
	return unit_failures != 0;
}
