/* probes/netfilter.c - netfilter.hook().pf() probes on nf hooks.
 *
 * As stap 4.8, each probe's hook goes into every network namespace that
 * exists when the script starts (nf hooks are per namespace), not into
 * those made later.  A pernet subsystem does it: its init runs for each
 * existing namespace while it registers, its exit for each namespace that
 * goes away (before netfilter's own cleanup, registered earlier) and for
 * all of them when it unregisters; a per-namespace flag says whether the
 * hooks went in there, so nothing is unregistered twice or in a namespace
 * that never had them.
 * The handler sees c->args: hooknum, in, okfn, out, skb, verdict (the
 * order of the translator's nf_vars); the verdict it leaves is returned.
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/netfilter_arp.h>
#include <linux/netfilter_bridge.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

struct stp_netfilter {
	struct stp_probe *probe;
	struct nf_hook_ops ops;
};

static struct stp_netfilter *_stp_nf_table;
static int _stp_nf_n;
static int _stp_nf_late;	/* set after start: new namespaces stay bare */
static unsigned int _stp_nf_id;	/* the per-namespace flag */

static notrace unsigned int _stp_nf_hook(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct stp_netfilter *nf = priv;
	u64 args[6] = {
		state->hook, (uintptr_t)state->in, (uintptr_t)state->okfn,
		(uintptr_t)state->out, (uintptr_t)skb, NF_ACCEPT,
	};
	unsigned int v;

	_stp_hit(nf->probe, NULL, args, NULL);
	v = (unsigned int)args[5];
	/* NF_DROP with an errno in the high bits can make nf_hook_slow
	 * return a positive value, which callers take as "go on" with the
	 * freed skb: keep drops plain. */
	if ((v & NF_VERDICT_MASK) == NF_DROP)
		v = NF_DROP;
	return v;
}

/* The packet of the netfilter probe running in C, or NULL when C runs
 * another probe: tapset C that must hand the kernel a real sk_buff
 * (netfilter.stp's __nf_ip6_proto) checks its argument against it. */
#define STP_NETFILTER_SKB 1
static __maybe_unused struct sk_buff *_stp_nf_skb(struct context *c)
{
	int i;

	for (i = 0; i < _stp_nf_n; i++)
		if (c->probe == _stp_nf_table[i].probe && c->args)
			return (struct sk_buff *)(uintptr_t)c->args[4];
	return NULL;
}

/* $verdict = V (guru mode). */
static __maybe_unused void _stp_nf_set_verdict(struct context *c, int64_t v)
{
	((u64 *)c->args)[5] = (u64)v;
}

static void _stp_nf_unregister(struct net *net, int n)
{
	while (--n >= 0)
		nf_unregister_net_hook(net, &_stp_nf_table[n].ops);
}

static int __net_init _stp_nf_net_init(struct net *net)
{
	int *registered = net_generic(net, _stp_nf_id);
	int i, rc;

	*registered = 0;
	if (READ_ONCE(_stp_nf_late))
		return 0;
	for (i = 0; i < _stp_nf_n; i++) {
		rc = nf_register_net_hook(net, &_stp_nf_table[i].ops);
		if (rc) {	/* stap skips namespaces without the family */
			_stp_nf_unregister(net, i);
			return rc == -ENOENT ? 0 : rc;
		}
	}
	*registered = 1;
	return 0;
}

static void __net_exit _stp_nf_net_exit(struct net *net)
{
	int *registered = net_generic(net, _stp_nf_id);

	if (*registered)
		_stp_nf_unregister(net, _stp_nf_n);
	*registered = 0;
}

static struct pernet_operations _stp_nf_net_ops = {
	.init = _stp_nf_net_init,
	.exit = _stp_nf_net_exit,
	.id = &_stp_nf_id,
	.size = sizeof(int),
};

static int _stp_netfilter_start(struct stp_netfilter *t, int n)
{
	int i, rc;

	for (i = 0; i < n; i++)
		t[i].ops.priv = &t[i];
	_stp_nf_table = t;
	_stp_nf_n = n;
	rc = register_pernet_subsys(&_stp_nf_net_ops);
	WRITE_ONCE(_stp_nf_late, 1);
	return rc;
}

static void _stp_netfilter_stop(void)
{
	unregister_pernet_subsys(&_stp_nf_net_ops);
}
