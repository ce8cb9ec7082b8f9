/* regex_match.h - the matcher behind `s =~ "re"`, kernel and user space.
 *
 * The translator (translator/util/regex.c) compiles each regex into a small
 * instruction program emitted as static const data; this file runs it as
 * a Pike VM: one pass over the string, at most one thread per instruction,
 * an explicit stack for the epsilon closure (no recursion) and all memory
 * in a caller-provided workspace sized at translation time (no allocation
 * while matching).  The result is stap's: the leftmost-longest overall
 * match, and among the paths giving it, the one preferring earlier
 * alternatives and longer (greedy) repetitions for the groups.
 */
#ifndef STP_REGEX_MATCH_H
#define STP_REGEX_MATCH_H

#include "rt_compat.h"

#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif

enum stp_regex_op {
	STP_RX_CHAR,		/* byte c */
	STP_RX_ANY,		/* any byte */
	STP_RX_SET,		/* byte in sets[x] */
	STP_RX_SPLIT,		/* go to x, or (lower priority) to y */
	STP_RX_JMP,		/* go to x */
	STP_RX_SAVE,		/* capture slot x = position */
	STP_RX_BOL,		/* at the start of the string */
	STP_RX_EOL,		/* at its end */
	STP_RX_MATCH,
};

struct stp_regex_inst {
	unsigned char op, c;
	unsigned short x, y;
};

struct stp_regex {
	const struct stp_regex_inst *inst;
	const unsigned char (*sets)[32];	/* 256-bit byte sets */
	unsigned short ninst;
	unsigned short nslots;			/* 2 per group, group 0 included */
};

/* The matcher's workspace for NINST instructions and NSLOTS slots: two
 * thread lists (pc + slots each), the visit marks, the closure stack and
 * the slots of a new thread. */
#define STP_RX_LIST_BYTES(ninst, nslots) \
	(sizeof(int) * ((size_t)(ninst) * (1 + (size_t)(nslots)) + 1))
#define STP_RX_WORK_BYTES(ninst, nslots)				\
	(2 * STP_RX_LIST_BYTES(ninst, nslots) +			\
	 sizeof(unsigned int) * (size_t)(ninst) +			\
	 sizeof(struct stp_rx_frame) * ((size_t)(ninst) + 1) +		\
	 sizeof(int) * (size_t)(nslots))

/* A closure stack entry: a pc to explore, or (slot >= 0) a slot value to
 * restore once the paths through a SAVE are explored. */
struct stp_rx_frame {
	int pc, slot, val;
};

/* A thread list: n threads, each a pc (in pc[]) and its slots. */
struct stp_rx_list {
	int n;
	int *pc;
	int *slots;
};

struct stp_rx_vm {
	const struct stp_regex *re;
	int len;
	unsigned int gen, *mark;
	struct stp_rx_frame *stack;
};

static inline int _stp_rx_in_set(const unsigned char *set, unsigned char b)
{
	return (set[b >> 3] >> (b & 7)) & 1;
}

/* Add the threads reachable from PC without consuming input at POS, in
 * priority order, each carrying SLOTS as updated along its path.  SLOTS
 * is modified during the walk and restored before returning. */
static __maybe_unused void _stp_rx_add(struct stp_rx_vm *vm, struct stp_rx_list *l, int pc0,
			int *slots, int pos)
{
	const struct stp_regex_inst *in = vm->re->inst;
	int ns = vm->re->nslots, sp = 0;

	vm->stack[sp++] = (struct stp_rx_frame){ pc0, -1, 0 };
	while (sp > 0) {
		struct stp_rx_frame f = vm->stack[--sp];
		int pc = f.pc;

		if (f.slot >= 0) {
			slots[f.slot] = f.val;
			continue;
		}
		for (;;) {
			const struct stp_regex_inst *i = &in[pc];

			if (vm->mark[pc] == vm->gen)
				break;
			vm->mark[pc] = vm->gen;
			if (i->op == STP_RX_JMP) {
				pc = i->x;
			} else if (i->op == STP_RX_SPLIT) {
				vm->stack[sp++] = (struct stp_rx_frame){ i->y, -1, 0 };
				pc = i->x;
			} else if (i->op == STP_RX_SAVE) {
				vm->stack[sp++] = (struct stp_rx_frame){
					0, i->x, slots[i->x] };
				slots[i->x] = pos;
				pc++;
			} else if (i->op == STP_RX_BOL) {
				if (pos != 0)
					break;
				pc++;
			} else if (i->op == STP_RX_EOL) {
				if (pos != vm->len)
					break;
				pc++;
			} else {
				l->pc[l->n] = pc;
				memcpy(l->slots + (size_t)l->n * ns, slots,
				       sizeof(int) * ns);
				l->n++;
				break;
			}
		}
	}
}

static __maybe_unused int _stp_rx_step_ok(const struct stp_regex *re,
			   const struct stp_regex_inst *i, unsigned char b)
{
	switch (i->op) {
	case STP_RX_CHAR:
		return i->c == b;
	case STP_RX_ANY:
		return 1;
	case STP_RX_SET:
		return _stp_rx_in_set(re->sets[i->x], b);
	default:
		return 0;
	}
}

static __maybe_unused void _stp_rx_list_init(struct stp_rx_list *l, char **p, int ninst,
			      int ns)
{
	l->n = 0;
	l->pc = (int *)*p;
	l->slots = l->pc + ninst;
	*p += STP_RX_LIST_BYTES(ninst, ns);
}

/* Search S (LEN bytes) for RE.  On a match returns 1 and fills CAPS
 * (re->nslots ints: start and end of each group, -1 for a group that did
 * not take part); else returns 0.  WS must hold STP_RX_WORK_BYTES. */
static __maybe_unused int _stp_regex_exec(const struct stp_regex *re,
					  const char *s, int len, void *ws,
					  int *caps)
{
	struct stp_rx_list a, b, *cl = &a, *nl = &b, *t;
	struct stp_rx_vm vm;
	char *p = ws;
	int ns = re->nslots, found = 0, pos, k;
	int *seed;

	_stp_rx_list_init(&a, &p, re->ninst, ns);
	_stp_rx_list_init(&b, &p, re->ninst, ns);
	vm.re = re;
	vm.len = len;
	vm.gen = 1;
	vm.mark = (unsigned int *)p;
	memset(vm.mark, 0, sizeof(unsigned int) * re->ninst);
	vm.stack = (struct stp_rx_frame *)(vm.mark + re->ninst);
	seed = (int *)(vm.stack + re->ninst + 1);
	for (k = 0; k < ns; k++)
		seed[k] = -1;	/* _stp_rx_add restores what it changes */
	_stp_rx_add(&vm, cl, 0, seed, 0);
	for (pos = 0;; pos++) {
		unsigned char ch = pos < len ? (unsigned char)s[pos] : 0;
		int best_start = found ? caps[0] : 0;

		vm.gen++;
		nl->n = 0;
		for (k = 0; k < cl->n; k++) {
			const struct stp_regex_inst *i = &re->inst[cl->pc[k]];
			int *ts = cl->slots + (size_t)k * ns;

			if (found && ts[0] > best_start)
				continue;	/* cannot be leftmost */
			if (i->op == STP_RX_MATCH) {
				if (!found || ts[0] < caps[0] ||
				    (ts[0] == caps[0] && ts[1] > caps[1])) {
					memcpy(caps, ts, sizeof(int) * ns);
					found = 1;
					best_start = ts[0];
				}
				continue;
			}
			if (pos < len && _stp_rx_step_ok(re, i, ch))
				_stp_rx_add(&vm, nl, cl->pc[k] + 1, ts, pos + 1);
		}
		if (pos >= len)
			break;
		/* a new thread at each position until a match is known, at
		 * the lowest priority: earlier starts stay ahead */
		if (!found)
			_stp_rx_add(&vm, nl, 0, seed, pos + 1);
		else if (!nl->n)
			break;
		t = cl;
		cl = nl;
		nl = t;
	}
	return found;
}

#ifdef STP_CONTEXT_H
/* The per-CPU record behind matched() and ngroups(), followed by the
 * matcher's workspace; STP_REGEX_CTX_SIZE (generated) bytes of it. */
struct stp_regex_ctx {
	int result;		/* the last =~ (or !~) matched */
	int nslots;		/* capture slots of the last successful one */
	char str[MAXSTRINGLEN];	/* the string it matched */
	int caps[];		/* its slots, then the workspace */
};

#define STP_REGEX_CTX_BYTES(ninst, nslots)				\
	(sizeof(struct stp_regex_ctx) + sizeof(int) * (size_t)(nslots) +	\
	 STP_RX_WORK_BYTES(ninst, nslots))

/* `s =~ re`: 1 or 0, remembering the match for matched(). */
static __maybe_unused int _stp_regex_match(struct context *c,
					   const struct stp_regex *re,
					   const char *s)
{
	struct stp_regex_ctx *r = c->regex;
	int len = (int)strnlen(s, MAXSTRINGLEN - 1);

	/* a failed match leaves the slots and their count as they were:
	 * stap then reports a group beyond that count as nonexistent */
	r->result = _stp_regex_exec(re, s, len, r->caps + re->nslots, r->caps);
	if (r->result) {
		r->nslots = re->nslots;
		if (s != r->str) {
			memcpy(r->str, s, len);
			r->str[len] = 0;
		}
	}
	return r->result;
}

/* matched(n): group N of the last match into OUT; 0, or -1 when the last
 * successful match had no such group, -2 when the last match failed. */
static __maybe_unused int _stp_regex_group(struct context *c, int64_t n,
					   char *out)
{
	struct stp_regex_ctx *r = c->regex;
	int a, b;

	out[0] = 0;
	if (!r || n < 0 || 2 * n + 1 >= r->nslots)
		return -1;
	if (!r->result)
		return -2;
	a = r->caps[2 * n];
	b = r->caps[2 * n + 1];
	if (a >= 0 && b >= a) {
		memcpy(out, r->str + a, b - a);
		out[b - a] = 0;
	}
	return 0;
}

/* ngroups(): the last match's groups, group 0 included; -1 if it failed. */
static __maybe_unused int _stp_regex_ngroups(struct context *c)
{
	struct stp_regex_ctx *r = c->regex;

	return r && r->result ? r->nslots / 2 : -1;
}
#endif /* STP_CONTEXT_H */

#endif /* STP_REGEX_MATCH_H */
