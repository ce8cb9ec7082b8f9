/* probes/netfilter.c - the netfilter probe family: packets at nf hooks.
 *
 *   netfilter.hook("HOOK").pf("PF")[.priority("P")]
 *   netfilter.pf("PF").hook("HOOK")[.priority("P")]
 *
 * PF names a protocol family (NFPROTO_IPV4, _IPV6, _ARP, _BRIDGE), HOOK
 * one of that family's hooks (NF_INET_LOCAL_OUT, NF_IP6_…, NF_ARP_…,
 * NF_BR_…), P a decimal priority or one of the family's NF_IP*_PRI_
 * names; as stap 4.8, other text is refused unless -g, which passes it to
 * the C compiler as is.  The handler sees $hooknum, $skb, $in, $out,
 * $okfn (longs) and, with -g, $verdict (NF_ACCEPT unless it assigns
 * another).  The runtime is runtime/probes/netfilter.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

struct nf_name {
	const char *name;
	long value;
};

static const struct nf_name nf_pfs[] = {
	{ "NFPROTO_IPV4", 2 }, { "NFPROTO_ARP", 3 }, { "NFPROTO_BRIDGE", 7 },
	{ "NFPROTO_IPV6", 10 }, { NULL, 0 },
};

static const struct nf_name nf_hooks_ipv4[] = {
	{ "NF_INET_PRE_ROUTING", 0 }, { "NF_INET_LOCAL_IN", 1 },
	{ "NF_INET_FORWARD", 2 }, { "NF_INET_LOCAL_OUT", 3 },
	{ "NF_INET_POST_ROUTING", 4 }, { "NF_IP_PRE_ROUTING", 0 },
	{ "NF_IP_LOCAL_IN", 1 }, { "NF_IP_FORWARD", 2 },
	{ "NF_IP_LOCAL_OUT", 3 }, { "NF_IP_POST_ROUTING", 4 }, { NULL, 0 },
};

static const struct nf_name nf_hooks_ipv6[] = {
	{ "NF_IP6_PRE_ROUTING", 0 }, { "NF_IP6_LOCAL_IN", 1 },
	{ "NF_IP6_FORWARD", 2 }, { "NF_IP6_LOCAL_OUT", 3 },
	{ "NF_IP6_POST_ROUTING", 4 }, { NULL, 0 },
};

static const struct nf_name nf_hooks_arp[] = {
	{ "NF_ARP_IN", 0 }, { "NF_ARP_OUT", 1 }, { "NF_ARP_FORWARD", 2 },
	{ NULL, 0 },
};

static const struct nf_name nf_hooks_bridge[] = {
	{ "NF_BR_PRE_ROUTING", 0 }, { "NF_BR_LOCAL_IN", 1 },
	{ "NF_BR_FORWARD", 2 }, { "NF_BR_LOCAL_OUT", 3 },
	{ "NF_BR_POST_ROUTING", 4 }, { NULL, 0 },
};

static const struct nf_name nf_pri_ipv4[] = {
	{ "NF_IP_PRI_FIRST", INT_MIN }, { "NF_IP_PRI_CONNTRACK_DEFRAG", -400 },
	{ "NF_IP_PRI_RAW", -300 }, { "NF_IP_PRI_SELINUX_FIRST", -225 },
	{ "NF_IP_PRI_CONNTRACK", -200 }, { "NF_IP_PRI_MANGLE", -150 },
	{ "NF_IP_PRI_NAT_DST", -100 }, { "NF_IP_PRI_FILTER", 0 },
	{ "NF_IP_PRI_SECURITY", 50 }, { "NF_IP_PRI_NAT_SRC", 100 },
	{ "NF_IP_PRI_SELINUX_LAST", 225 },
	{ "NF_IP_PRI_CONNTRACK_CONFIRM", INT_MAX },
	{ "NF_IP_PRI_LAST", INT_MAX }, { NULL, 0 },
};

static const struct nf_name nf_pri_ipv6[] = {
	{ "NF_IP6_PRI_FIRST", INT_MIN }, { "NF_IP6_PRI_CONNTRACK_DEFRAG", -400 },
	{ "NF_IP6_PRI_RAW", -300 }, { "NF_IP6_PRI_SELINUX_FIRST", -225 },
	{ "NF_IP6_PRI_CONNTRACK", -200 }, { "NF_IP6_PRI_MANGLE", -150 },
	{ "NF_IP6_PRI_NAT_DST", -100 }, { "NF_IP6_PRI_FILTER", 0 },
	{ "NF_IP6_PRI_SECURITY", 50 }, { "NF_IP6_PRI_NAT_SRC", 100 },
	{ "NF_IP6_PRI_SELINUX_LAST", 225 }, { "NF_IP6_PRI_LAST", INT_MAX },
	{ NULL, 0 },
};

/* The target variables, in stap's order (its -p2 lists them sorted);
 * the runtime passes them in this order in c->args. */
static const char *const nf_vars[] = {
	"hooknum", "in", "okfn", "out", "skb", "verdict",
};
#define NF_NVARS (int)(sizeof nf_vars / sizeof nf_vars[0])
#define NF_VERDICT 5

struct nf_data {
	const char *hook, *pf, *priority;	/* C text of .hooknum, … */
};

static const struct nf_name *lookup(const struct nf_name *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static const char *num(struct session *s, long v)
{
	return arena_printf(s->arena, "%ld", v);
}

static int unsupported(struct session *s, const struct pp_comp *c,
		       const char *what, const char *text, const char *pf)
{
	if (pf)
		diag_error(&s->diags, c->loc, "sema.netfilter-name",
			   "unsupported netfilter %s \"%s\" for protocol family \"%s\"; need stap -g",
			   what, text, pf);
	else
		diag_error(&s->diags, c->loc, "sema.netfilter-name",
			   "unsupported netfilter %s \"%s\"; need stap -g",
			   what, text);
	return -1;
}

/* A decimal int, as stap reads a priority (leading blanks and a sign). */
static int decimal(const char *p, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(p, &end, 10);
	return !errno && end != p && !*end && *v >= INT_MIN && *v <= INT_MAX;
}

/* Translate the names of NF to numbers (or keep them, under -g). */
static int nf_names(struct session *s, struct nf_data *nf,
		    const struct pp_comp *hook_c, const struct pp_comp *pf_c,
		    const struct pp_comp *pri_c)
{
	const struct nf_name *pf = lookup(nf_pfs, nf->pf), *n;
	const struct nf_name *hooks = NULL, *pris = NULL;
	long v;

	if (!pf)
		return s->guru ? 1 : unsupported(s, pf_c, "protocol family", nf->pf, NULL);
	nf->pf = num(s, pf->value);
	switch (pf->value) {
	case 2: hooks = nf_hooks_ipv4; pris = nf_pri_ipv4; break;
	case 3: hooks = nf_hooks_arp; break;
	case 7: hooks = nf_hooks_bridge; break;
	case 10: hooks = nf_hooks_ipv6; pris = nf_pri_ipv6; break;
	}
	n = lookup(hooks, nf->hook);
	if (n)
		nf->hook = num(s, n->value);
	else if (!s->guru)
		return unsupported(s, hook_c, "hook", nf->hook, nf->pf);
	n = lookup(pris, nf->priority);
	if (n)
		nf->priority = num(s, n->value);
	else if (decimal(nf->priority, &v))
		nf->priority = num(s, v);
	else if (!s->guru)
		return unsupported(s, pri_c, "priority", nf->priority, nf->pf);
	return 1;
}

static int resolve_netfilter(struct session *s, const struct probe_point *pt,
			     struct derived_probe *dp)
{
	const struct pp_comp *c, *hook_c = NULL, *pf_c = NULL, *pri_c = NULL;
	struct nf_data *nf = ARENA_NEW(s->arena, struct nf_data);
	int i;

	if (pt->comps.n < 3 || pt->comps.n > 4)
		return 0;
	for (i = 1; i < pt->comps.n; i++) {
		c = pt->comps.v[i];
		if (!family_str_arg(s, c))
			return 0;
		if (i < 3 && !strcmp(c->name, "hook") && !hook_c)
			hook_c = c;
		else if (i < 3 && !strcmp(c->name, "pf") && !pf_c)
			pf_c = c;
		else if (i == 3 && !strcmp(c->name, "priority"))
			pri_c = c;
		else
			return 0;
	}
	nf->hook = family_str_arg(s, hook_c);
	nf->pf = family_str_arg(s, pf_c);
	nf->priority = pri_c ? family_str_arg(s, pri_c) : "0";
	if (nf_names(s, nf, hook_c, pf_c, pri_c ? pri_c : pf_c) < 0)
		return -1;
	dp->data = nf;
	return 1;
}

static int var_index(const char *name)
{
	int i;

	for (i = 0; i < NF_NVARS; i++)
		if (!strcmp(nf_vars[i], name))
			return i;
	return -1;
}

/* $hooknum …: a long, its components ignored (as stap does). */
static struct tvar *nf_tvar(struct session *s, struct exp *x, int i)
{
	struct tvar *tv = ARENA_NEW(s->arena, struct tvar);

	tv->final = TV_VALUE;
	tv->base = arena_printf(s->arena, "c->args[%d]", i);
	tv->size = 8;
	tv->is_signed = 1;
	if (i == NF_VERDICT)
		tv->assign_fn = "_stp_nf_set_verdict";
	x->u.target.resolved = tv;
	x->type = TY_LONG;
	return tv;
}

static int check_var(struct session *s, struct exp *x, int quiet)
{
	int i = x->kind == EX_TARGET ? var_index(x->u.target.name) : -1;

	if (i < 0) {
		if (!quiet)
			diag_error(&s->diags, x->loc, "sema.netfilter-target",
				   "unsupported context variable '$%s' in a netfilter probe (alternatives: $hooknum, $skb, $in, $out, $okfn, $verdict)",
				   x->u.target.name);
		return -1;
	}
	if (x->u.target.addr_of) {
		if (!quiet)
			diag_error(&s->diags, x->loc, "sema.target-addr-of",
				   "cannot take address of netfilter hook context variable");
		return -1;
	}
	return i;
}

static int target_netfilter(struct session *s, struct derived_probe *dp,
			    struct exp *x, int quiet)
{
	int i = check_var(s, x, quiet);

	if (i < 0)
		return -1;
	if (i == NF_VERDICT && !s->guru) {
		if (!quiet)
			diag_error(&s->diags, x->loc, "sema.netfilter-verdict",
				   "write to netfilter verdict requires guru mode; need stap -g");
		return -1;
	}
	nf_tvar(s, x, i);
	return 0;
}

static int assign_netfilter(struct session *s, struct derived_probe *dp,
			    struct exp *x, enum op op)
{
	int i = check_var(s, x, 0);

	if (i < 0)
		return -1;
	if (i != NF_VERDICT) {
		diag_error(&s->diags, x->loc, "sema.netfilter-write",
			   "write to netfilter parameter not permitted");
		return -1;
	}
	if (!s->guru) {
		diag_error(&s->diags, x->loc, "sema.netfilter-verdict",
			   "write to netfilter verdict requires guru mode; need stap -g");
		return -1;
	}
	nf_tvar(s, x, i);
	return 0;
}

static int mark_var(struct walker *w, struct exp *e)
{
	int i = e->kind == EX_TARGET ? var_index(e->u.target.name) : -1;

	if (i >= 0)
		*(unsigned *)w->arg |= 1u << i;
	return 0;
}

/* -p2 and -L: stap turns each variable the body uses into a local
 * __nf_NAME, listed first and sorted. */
static void list_netfilter_locals(struct session *s, struct derived_probe *dp,
				  struct strbuf *out)
{
	unsigned used = 0;
	struct walker w = { .exp = mark_var, .arg = &used };
	int i;

	walk_stmt(&w, dp->body);
	for (i = 0; i < NF_NVARS; i++)
		if (used & (1u << i))
			sb_printf(out, " __nf_%s:long", nf_vars[i]);
}

static void emit_decls_netfilter(struct emit *e, struct vec *probes)
{
	emit_line(e, "#include \"probes/netfilter.c\"");
}

static void emit_netfilter(struct emit *e, struct vec *probes)
{
	struct derived_probe *dp;
	int i;

	emit_line(e, "static struct stp_netfilter stp_netfilters[] = {");
	VEC_EACH(*probes, i, dp) {
		const struct nf_data *nf = dp->data;
		emit_line(e, "\t{ .probe = &stp_probes[%d], .ops = { .hook = _stp_nf_hook,", dp->index);
		emit_line(e, "\t  .pf = %s, .hooknum = %s, .priority = %s } },",
			  nf->pf, nf->hook, nf->priority);
	}
	emit_line(e, "};");
	family_emit_start_stop(e, &family_netfilter,
			       arena_printf(e->s->arena, "_stp_netfilter_start(stp_netfilters, %d)",
					    probes->n),
			       "_stp_netfilter_stop()");
}

static const char *const netfilter_shapes[] = {
	"netfilter.hook(string).pf(string)",
	"netfilter.pf(string).hook(string)",
	"netfilter.hook(string).pf(string).priority(string)",
	"netfilter.pf(string).hook(string).priority(string)", NULL,
};

const struct probe_family family_netfilter = {
	.name = "netfilter", .resolve = resolve_netfilter,
	.emit = emit_netfilter, .emit_decls = emit_decls_netfilter,
	.shapes = netfilter_shapes, .patterns = netfilter_shapes,
	.target_var = target_netfilter, .target_assign = assign_netfilter,
	.list_alias_vars = list_netfilter_locals,
	.listing_locals = list_netfilter_locals,
	.kind = "netfilter",
};
