/* sha256.h - SHA-256 (FIPS 180-4), for the module cache's keys.
 *
 * Incremental: init, feed any number of byte ranges, finish.  The digest
 * is also available as 64 lowercase hex digits.
 */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t total;		/* bytes fed so far */
	unsigned char block[64];
	size_t used;		/* bytes waiting in block */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t n);
void sha256_final(struct sha256 *c, unsigned char digest[32]);
/* Finish and write the digest as hex, NUL-terminated. */
void sha256_final_hex(struct sha256 *c, char hex[65]);

#endif
