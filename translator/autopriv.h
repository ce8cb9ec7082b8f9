/* autopriv.h - the privilege level of a user who is not root (autopriv.c). */
#ifndef AUTOPRIV_H
#define AUTOPRIV_H

struct session;

/* After the options: pick --privilege for a run (-p5) by a user without
 * stapdev's credentials.  1 (the message printed) for a user in none of
 * the stap groups. */
int autopriv_select(struct session *s);

/* At the end: what was picked and why, after a FAILED run or with -v. */
void autopriv_explain(const struct session *s, int failed);

#endif
