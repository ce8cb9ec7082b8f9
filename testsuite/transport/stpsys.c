/* stpsys.c - the fake module built for --privilege=stapsys, for the
 * module's own check of its loader's credentials at start (guest.sh's
 * priv-creds-* and priv-*-stapsys). */
#define STP_PRIVILEGE 0x4
#include "stpfake.c"
