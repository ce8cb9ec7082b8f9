/* test_sha256.c - the module cache's SHA-256 against the FIPS 180-4
 * example digests, fed whole and in uneven pieces (block boundaries and
 * the two padding cases: the length fits the last block or needs another).
 */
#include "util/sha256.h"
#include "unit.h"

static void digest(const char *data, size_t n, size_t piece, char hex[65])
{
	struct sha256 c;
	size_t off;

	sha256_init(&c);
	for (off = 0; off < n; off += piece)
		sha256_update(&c, data + off, n - off < piece ? n - off : piece);
	sha256_final_hex(&c, hex);
}

static void check_all_pieces(const char *data, size_t n, const char *want)
{
	static const size_t pieces[] = { 1, 3, 55, 56, 63, 64, 65, 1000000 };
	char hex[65];
	size_t i;

	for (i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
		digest(data, n, pieces[i], hex);
		CHECK_STR(hex, want);
	}
}

int main(void)
{
	static char million[1000000];
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	check_all_pieces("abc", 3,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_all_pieces("", 0,
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* 56 bytes: the length no longer fits the padded block. */
	check_all_pieces(two, strlen(two),
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(million, 'a', sizeof million);
	check_all_pieces(million, sizeof million,
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	return unit_failures ? 1 : 0;
}
