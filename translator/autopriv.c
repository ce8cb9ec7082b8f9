/* autopriv.c - the privilege level a user who is not root runs a script
 * at, as stap 4.8 picks it.
 *
 * With pass 5 to reach and no --privilege, a user without stapdev's
 * credentials gets the highest level their groups give (stapsys, else
 * stapusr; stapdev implies stapsys, which implies stapusr), and one in
 * none of the groups is told what to join.  The messages saying what was
 * chosen and why are printed, as stap's, when the module could not be
 * built or with -v.  Pass 5 then has staprun -P build the module from the
 * script (run/run.c, staprun/build.c), in place of stap's compile server.
 * Reads the session's options (cmdline.c); writes s->privilege.
 */
#include <grp.h>
#include <stdio.h>
#include <unistd.h>
#include "session.h"
#include "autopriv.h"

static int autopriv_in_group(const char *name)
{
	struct group *g = getgrnam(name);
	gid_t groups[256];
	int i, n;

	if (!g)
		return 0;
	if (getegid() == g->gr_gid)
		return 1;
	n = getgroups(256, groups);
	for (i = 0; i < n; i++)
		if (groups[i] == g->gr_gid)
			return 1;
	return 0;
}

/* The user's credentials: a mask of STP_PRIV_* (stap's). */
static int autopriv_credentials(void)
{
	int c = 0;

	if (getuid() == 0 || autopriv_in_group("stapdev"))
		return STP_PRIV_STAPUSR | STP_PRIV_STAPSYS | STP_PRIV_STAPDEV;
	if (autopriv_in_group("stapsys"))
		c |= STP_PRIV_STAPUSR | STP_PRIV_STAPSYS;
	if (autopriv_in_group("stapusr"))
		c |= STP_PRIV_STAPUSR;
	return c;
}

int autopriv_select(struct session *s)
{
	int cred;

	if (s->last_pass < 5 || !s->script)
		return 0;
	cred = autopriv_credentials();
	if (cred & STP_PRIV_STAPDEV)
		return 0;
	if (!s->privilege) {
		if (cred & STP_PRIV_STAPSYS) {
			s->privilege = STP_PRIV_STAPSYS;
			s->auto_privilege_msg = "--privilege=stapsys was automatically selected because you are a member of the groups stapusr and stapsys.  [man stap]";
		} else if (cred & STP_PRIV_STAPUSR) {
			s->privilege = STP_PRIV_STAPUSR;
			s->auto_privilege_msg = "--privilege=stapusr was automatically selected because you are a member of the group stapusr.  [man stap]";
		} else {
			fputs("You are trying to run systemtap as a normal user.\n"
			      "You should either be root, or be part of the group \"stapusr\" and possibly one of the groups \"stapsys\" or \"stapdev\".  [man stap]\n"
			      "Try 'stap --help' for more information.\n", stderr);
			return 1;
		}
	}
	s->auto_privilege_cred = cred & STP_PRIV_STAPSYS ? STP_PRIV_STAPSYS
							: STP_PRIV_STAPUSR;
	return 0;
}

void autopriv_explain(const struct session *s, int failed)
{
	if (!s->auto_privilege_cred || (!failed && !s->verbose))
		return;
	if (s->auto_privilege_msg)
		fprintf(stderr, "%s\n", s->auto_privilege_msg);
	/* stap's words for its compile server, for what stands in for it */
	fprintf(stderr, "For users with the privilege level %s, the module created by compiling your script must be built by staprun with the installed translator.  [man staprun]\n",
		privilege_name(s->auto_privilege_cred));
	fputs("staprun -P was automatically selected in order to request compilation by staprun.\n",
	      stderr);
}
