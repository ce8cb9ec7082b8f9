/* stubs.c - passes not yet written (temporary while the tree is laid). */
#include "session.h"

int pass_parse(struct session *s) { return 0; }
int pass_elaborate(struct session *s) { return 0; }
int pass_translate(struct session *s) { return 0; }
