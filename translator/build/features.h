/* features.h - the target kernel's API by compile tests (features.c). */
#ifndef FEATURES_H
#define FEATURES_H

struct session;

/* Write DIR/stp_features.h for the target kernel, whose build is
 * identified by KERNEL_KEY (hex), from the cache or by running the tests
 * of the runtime's compat/ directory.  0 on success. */
int features_write(struct session *s, const char *dir, const char *kernel_key);

#endif
