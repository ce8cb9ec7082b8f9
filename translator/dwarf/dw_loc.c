/* dw_loc.c - DWARF location expressions to C at one pc; see dw_loc.h.
 *
 * Reads a variable's DW_AT_location (the list entry covering pc) or
 * DW_AT_const_value, the function's DW_AT_frame_base and the CFI's CFA
 * rule at pc; writes one C expression.  The DWARF stack machine is run
 * symbolically: each stack slot holds the C text of its value, so the
 * result is straight-line C with no run-time interpretation.  Branches
 * (DW_OP_bra, DW_OP_skip) are not translated.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dw_file.h"
#include "dwarf/dw_loc.h"

#define STACK_MAX 16
#define SLOT_LEN 1024

struct machine {
	struct dw_file *f;
	Dwarf_Die *func;	/* for DW_OP_fbreg */
	uint64_t pc;		/* DWARF address (file pc - bias) */
	uint64_t anchor;	/* sprint_symbol's link-time address */
	int user;		/* a user-space file: static addresses move
				   by the load bias (_stp_uaddr) */
	char stack[STACK_MAX][SLOT_LEN];
	int sp;
	int reads;
	int fb;			/* DW_OP_fbreg: the frame base was computed */
	int reg;		/* the location is register REG (DW_OP_reg*) */
	int is_value;		/* DW_OP_stack_value / implicit_value */
	int depth;		/* frame base and CFA recursion */
	size_t idx;		/* the operation being translated */
	Dwarf_Attribute *attr;	/* the location's attribute (entry_value's
				   operand comes from it) */
	int at_entry;		/* pc is the function's entry: a value at
				   entry is the value now */
	char *msg;		/* 256 bytes: why it failed */
};

static int fail(struct machine *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->msg, 256, fmt, ap);
	va_end(ap);
	return -1;
}

static int push(struct machine *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->sp == STACK_MAX)
		return fail(m, "DWARF expression stack overflow");
	va_start(ap, fmt);
	n = vsnprintf(m->stack[m->sp], SLOT_LEN, fmt, ap);
	va_end(ap);
	if (n >= SLOT_LEN)
		return fail(m, "DWARF expression too complex");
	m->sp++;
	return 0;
}

/* Pop the top into OUT (SLOT_LEN bytes). */
static int pop(struct machine *m, char *out)
{
	if (!m->sp)
		return fail(m, "DWARF expression stack underflow");
	strcpy(out, m->stack[--m->sp]);
	return 0;
}

static int is_module(struct dw_file *f)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(dw_file_module(f), &bias);
	GElf_Ehdr eh;

	return elf && gelf_getehdr(elf, &eh) && eh.e_type == ET_REL;
}

static int run(struct machine *m, const Dwarf_Op *ops, size_t n);

/* The frame base of m->func at pc. */
static int frame_base(struct machine *m)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (!m->func || !dwarf_attr_integrate(m->func, DW_AT_frame_base, &a))
		return fail(m, "no frame base for DW_OP_fbreg");
	if (dwarf_getlocation_addr(&a, m->pc, &ops, &n, 1) != 1)
		return fail(m, "no frame base at this address");
	return run(m, ops, n);
}

/* The canonical frame address at pc, from the CFI. */
static int cfa(struct machine *m)
{
	Dwfl_Module *mod = dw_file_module(m->f);
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(mod, &bias);
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t n;
	int rc;

	if (!cfi || dwarf_cfi_addrframe(cfi, m->pc, &frame) != 0) {
		cfi = dwfl_module_eh_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, m->pc, &frame) != 0)
			return fail(m, "no call frame information at this address");
	}
	if (dwarf_frame_cfa(frame, &ops, &n) != 0) {
		free(frame);
		return fail(m, "no CFA rule at this address");
	}
	rc = run(m, ops, n);
	free(frame);
	return rc;
}

static int binary(struct machine *m, const char *op, int is_signed)
{
	char a[SLOT_LEN], b[SLOT_LEN];

	if (pop(m, b) || pop(m, a))
		return -1;
	if (is_signed)
		return push(m, "(uint64_t)((int64_t)(%s) %s (int64_t)(%s))", a, op, b);
	return push(m, "((%s) %s (%s))", a, op, b);
}

static int binop(struct machine *m, uint8_t atom)
{
	switch (atom) {
	case DW_OP_plus: return binary(m, "+", 0);
	case DW_OP_minus: return binary(m, "-", 0);
	case DW_OP_mul: return binary(m, "*", 0);
	case DW_OP_and: return binary(m, "&", 0);
	case DW_OP_or: return binary(m, "|", 0);
	case DW_OP_xor: return binary(m, "^", 0);
	case DW_OP_shl: return binary(m, "<<", 0);
	case DW_OP_shr: return binary(m, ">>", 0);
	case DW_OP_shra: return binary(m, ">>", 1);
	case DW_OP_div: return binary(m, "/", 1);
	case DW_OP_mod: return binary(m, "%", 0);
	case DW_OP_eq: return binary(m, "==", 1);
	case DW_OP_ne: return binary(m, "!=", 1);
	case DW_OP_lt: return binary(m, "<", 1);
	case DW_OP_gt: return binary(m, ">", 1);
	case DW_OP_le: return binary(m, "<=", 1);
	case DW_OP_ge: return binary(m, ">=", 1);
	}
	return 1;
}

/* stap's complaint about an operation it does not translate. */
static int unhandled(struct machine *m, const Dwarf_Op *op)
{
	return fail(m, "unhandled DW_OP operation in DWARF expression [%zu] at %llu (%d: %llu, %llu)",
		    m->idx, (unsigned long long)op->offset, op->atom,
		    (unsigned long long)op->number,
		    (unsigned long long)op->number2);
}

static int unop(struct machine *m, const char *fmt)
{
	char a[SLOT_LEN];

	return pop(m, a) ? -1 : push(m, fmt, a);
}

/* Stack manipulation: DW_OP_dup, drop, over, pick, swap, rot. */
static int stackop(struct machine *m, const Dwarf_Op *op)
{
	char a[SLOT_LEN], b[SLOT_LEN], c[SLOT_LEN];

	switch (op->atom) {
	case DW_OP_dup:
		return m->sp ? push(m, "%s", m->stack[m->sp - 1]) :
			       fail(m, "DWARF expression stack underflow");
	case DW_OP_drop:
		return pop(m, a);
	case DW_OP_over: case DW_OP_pick:
		if ((int)op->number >= m->sp || (op->atom == DW_OP_over && m->sp < 2))
			return fail(m, "DWARF expression stack underflow");
		return push(m, "%s", m->stack[m->sp - 1 -
			    (op->atom == DW_OP_over ? 1 : (int)op->number)]);
	case DW_OP_swap:
		if (pop(m, a) || pop(m, b))
			return -1;
		return push(m, "%s", a) || push(m, "%s", b);
	case DW_OP_rot:
		if (pop(m, a) || pop(m, b) || pop(m, c))
			return -1;
		return push(m, "%s", a) || push(m, "%s", c) || push(m, "%s", b);
	}
	return 1;
}

static int deref(struct machine *m, uint64_t size)
{
	char a[SLOT_LEN];

	if (pop(m, a))
		return -1;
	m->reads = 1;
	return push(m, "_stp_dwarf_deref(c, %s, %d, _stp_w)", a, (int)size);
}

static int reg_op(struct machine *m, int reg, int64_t off, int is_breg)
{
	if (!is_breg) {
		m->reg = reg;
		return push(m, "_stp_dwarf_reg(c, %d)", reg);
	}
	return push(m, "(_stp_dwarf_reg(c, %d) + (uint64_t)%" PRId64 "LL)", reg, off);
}

static int literal(struct machine *m, const Dwarf_Op *op)
{
	switch (op->atom) {
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		return push(m, "(uint64_t)%" PRId64 "LL", (int64_t)op->number);
	}
	return push(m, "0x%" PRIx64 "ULL", (uint64_t)op->number);
}

static int address(struct machine *m, const Dwarf_Op *op)
{
	if (m->user)
		return push(m, "_stp_uaddr(c, 0x%" PRIx64 "ULL)",
			    (uint64_t)op->number);
	if (is_module(m->f)) {
		const char *c = dw_file_symaddr(m->f, op->number);

		if (!c)
			return fail(m, "module static addresses are not supported yet");
		return push(m, "%s", c);
	}
	return push(m, "_stp_kaddr_at(0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL)",
		    (uint64_t)op->number, m->anchor);
}

/* DW_OP_entry_value(E): E's value when the function was entered.  At
 * the entry itself that is E's value now; a register location E (the
 * usual case) pushes the register's contents. */
static int entry_value(struct machine *m, const Dwarf_Op *op)
{
	Dwarf_Attribute sub;
	Dwarf_Op *ops;
	size_t n;

	if (!m->at_entry || !m->attr ||
	    dwarf_getlocation_attr(m->attr, op, &sub) != 0 ||
	    dwarf_getlocation(&sub, &ops, &n) != 0 || n != 1)
		return unhandled(m, op);
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)
		return push(m, "_stp_dwarf_reg(c, %d)", ops[0].atom - DW_OP_reg0);
	if (ops[0].atom == DW_OP_regx)
		return push(m, "_stp_dwarf_reg(c, %d)", (int)ops[0].number);
	return unhandled(m, op);
}

static int one(struct machine *m, const Dwarf_Op *op)
{
	int rc;

	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31)
		return push(m, "%dULL", op->atom - DW_OP_lit0);
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		return reg_op(m, op->atom - DW_OP_reg0, 0, 0);
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31)
		return reg_op(m, op->atom - DW_OP_breg0, (int64_t)op->number, 1);
	if ((rc = binop(m, op->atom)) <= 0 || (rc = stackop(m, op)) <= 0)
		return rc;
	switch (op->atom) {
	case DW_OP_regx: return reg_op(m, (int)op->number, 0, 0);
	case DW_OP_bregx: return reg_op(m, (int)op->number, (int64_t)op->number2, 1);
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu: case DW_OP_const1s:
	case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
	case DW_OP_consts:
		return literal(m, op);
	case DW_OP_addr:
		return address(m, op);
	case DW_OP_call_frame_cfa:
		if (m->depth++ > 4)
			return fail(m, "DWARF frame base recursion");
		return cfa(m);
	case DW_OP_plus_uconst:
		return push(m, "0x%" PRIx64 "ULL", (uint64_t)op->number) ||
		       binop(m, DW_OP_plus);
	case DW_OP_neg: return unop(m, "(uint64_t)(-(int64_t)(%s))");
	case DW_OP_not: return unop(m, "(~(%s))");
	case DW_OP_abs: return unop(m, "({ int64_t _v = (int64_t)(%s); (uint64_t)(_v < 0 ? -_v : _v); })");
	case DW_OP_deref: return deref(m, 8);
	case DW_OP_deref_size: return deref(m, op->number);
	case DW_OP_entry_value: case DW_OP_GNU_entry_value:
		return entry_value(m, op);
	case DW_OP_GNU_parameter_ref:
		/* stap looks for the value in its callers' DW_TAG_GNU_call_site
		 * DIEs; DWARF 5 (the kernel's) has DW_TAG_call_site instead */
		return fail(m, "no DW_TAG_GNU_call_sites found");
	case DW_OP_nop: return 0;
	case DW_OP_stack_value:
		m->is_value = 1;
		return 0;
	}
	return unhandled(m, op);
}

static int run(struct machine *m, const Dwarf_Op *ops, size_t n)
{
	size_t i;
	char a[SLOT_LEN];

	for (i = 0; i < n; i++) {
		if (m->is_value || m->reg >= 0)
			return fail(m, "DWARF operation after the end of a location");
		if (ops[i].atom == DW_OP_fbreg) {	/* frame base + offset */
			m->fb = 1;
			if (m->depth++ > 4 || frame_base(m) || pop(m, a))
				return -1;
			if (push(m, "((%s) + (uint64_t)%" PRId64 "LL)", a,
				 (int64_t)ops[i].number))
				return -1;
			continue;
		}
		m->idx = i;
		if (one(m, &ops[i]))
			return -1;
	}
	return 0;
}

/* ---- pieces ---- */

struct piece {
	char c[SLOT_LEN];
	int is_addr;
	uint64_t bits, bit_off;		/* size, offset in its source */
};

/* A value in pieces wider than 64 bits (a struct passed in two
 * registers): its bytes gathered at run time into a scratch area of the
 * context (_stp_dwarf_pieces), whose address the variable then has, so
 * that members and pretty-printing read it as a struct in memory.  Whole
 * pieces of 1, 2, 4 or 8 bytes, 64 bytes at most; kernel code only. */
static int wide_pieces(struct machine *m, const struct piece *p, int np,
		       struct dw_loc *out)
{
	static unsigned slot;
	int k, len;
	uint64_t bytes = 0;

	for (k = 0; k < np; k++) {
		uint64_t b = p[k].bits / 8;
		if (p[k].bits % 8 || p[k].bit_off || (b != 1 && b != 2 && b != 4 && b != 8))
			return fail(m, "a DWARF value in pieces wider than 64 bits");
		bytes += b;
	}
	if (m->user || bytes > 64)
		return fail(m, "a DWARF value in pieces wider than 64 bits");
	len = snprintf(out->c, sizeof out->c,
		       "_stp_dwarf_pieces(c, %u, %d, (const u8[]){", slot++ % 4, np);
	for (k = 0; k < np; k++)
		len += snprintf(out->c + len, sizeof out->c - (size_t)len,
				"%s%u", k ? ", " : "", (unsigned)(p[k].bits / 8));
	len += snprintf(out->c + len, sizeof out->c - (size_t)len,
			"}, (const u64[]){");
	for (k = 0; k < np; k++) {
		if (p[k].is_addr)
			m->reads = 1;
		len += snprintf(out->c + len, sizeof out->c - (size_t)len,
				"%s%s%s%s%s", k ? ", " : "",
				p[k].is_addr ? "_stp_dwarf_deref(c, " : "", p[k].c,
				p[k].is_addr ? ", " : "",
				p[k].is_addr ? (p[k].bits == 8 ? "1, _stp_w)" :
						p[k].bits == 16 ? "2, _stp_w)" :
						p[k].bits == 32 ? "4, _stp_w)" : "8, _stp_w)") : "");
		if ((size_t)len >= sizeof out->c)
			return fail(m, "DWARF expression too complex");
	}
	snprintf(out->c + len, sizeof out->c - (size_t)len, "})");
	if ((size_t)len + 2 >= sizeof out->c)
		return fail(m, "DWARF expression too complex");
	out->kind = DW_LOC_ADDR;
	return 0;
}

/* Run the operations before each DW_OP_piece separately and combine the
 * pieces into one value of at most 64 bits (wider: wide_pieces). */
static int pieces(struct machine *m, const Dwarf_Op *ops, size_t n,
		  struct dw_loc *out)
{
	struct piece p[8];
	size_t i, start = 0;
	int np = 0, k, len;
	uint64_t shift = 0;
	char mask[32];

	for (i = 0; i < n; i++) {
		if (ops[i].atom != DW_OP_piece && ops[i].atom != DW_OP_bit_piece)
			continue;
		if (np == 8)
			return fail(m, "too many DWARF pieces");
		m->sp = 0, m->reg = -1, m->is_value = 0;
		if (run(m, ops + start, i - start))
			return -1;
		p[np].bits = ops[i].atom == DW_OP_piece ? 8 * ops[i].number : ops[i].number;
		p[np].bit_off = ops[i].atom == DW_OP_bit_piece ? ops[i].number2 : 0;
		if (m->sp)
			strcpy(p[np].c, m->stack[m->sp - 1]);
		else
			strcpy(p[np].c, "0ULL");	/* optimized-out piece */
		p[np].is_addr = m->sp && m->reg < 0 && !m->is_value;
		np++;
		start = i + 1;
	}
	for (k = 0; k < np; k++)
		shift += p[k].bits;
	if (shift > 64)
		return wide_pieces(m, p, np, out);
	shift = 0;
	len = snprintf(out->c, sizeof out->c, "(0ULL");
	for (k = 0; k < np; k++) {
		if (p[k].is_addr)
			m->reads = 1;
		snprintf(mask, sizeof mask, p[k].bits >= 64 ? "~0ULL" :
			 "0x%" PRIx64 "ULL", ((uint64_t)1 << (p[k].bits & 63)) - 1);
		len += snprintf(out->c + len, sizeof out->c - (size_t)len,
				" | ((((%s%s%s) >> %" PRIu64 ") & %s) << %" PRIu64 ")",
				p[k].is_addr ? "_stp_dwarf_deref(c, " : "", p[k].c,
				p[k].is_addr ? ", 8, _stp_w)" : "", p[k].bit_off, mask,
				shift);
		shift += p[k].bits;
		if ((size_t)len >= sizeof out->c)
			return fail(m, "DWARF expression too complex");
	}
	snprintf(out->c + len, sizeof out->c - (size_t)len, ")");
	out->kind = DW_LOC_VALUE;
	return 0;
}

static int has_piece(const Dwarf_Op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece)
			return 1;
	return 0;
}

/* ---- a variable ---- */

/* A constant's bytes: a block, or a string (with its NUL). */
static int const_bytes(Dwarf_Attribute *a, const unsigned char **p, size_t *n)
{
	Dwarf_Block b;
	const char *str;

	if (dwarf_formblock(a, &b) == 0) {
		*p = b.data;
		*n = b.length;
		return 0;
	}
	if ((str = dwarf_formstring(a))) {
		*p = (const unsigned char *)str;
		*n = strlen(str) + 1;
		return 0;
	}
	return -1;
}

static int const_value(Dwarf_Attribute *a, struct dw_loc *out)
{
	const unsigned char *p;
	Dwarf_Sword s;
	uint64_t v = 0;
	size_t i, n, o;

	if (dwarf_formsdata(a, &s) == 0) {
		v = (uint64_t)s;
	} else if (const_bytes(a, &p, &n)) {
		snprintf(out->msg, sizeof out->msg, "unsupported constant value form");
		return -1;
	} else if (n <= 8) {
		for (i = 0; i < n; i++)
			v |= (uint64_t)p[i] << (8 * i);
	} else if (4 * n + 40 < sizeof out->c) {
		/* a constant array (__func__): its bytes in the module */
		o = (size_t)snprintf(out->c, sizeof out->c, "(uint64_t)(unsigned long)\"");
		for (i = 0; i < n; i++)
			o += (size_t)snprintf(out->c + o, sizeof out->c - o, "\\%03o", p[i]);
		snprintf(out->c + o, sizeof out->c - o, "\"");
		out->kind = DW_LOC_ADDR;
		return 0;
	} else {
		snprintf(out->msg, sizeof out->msg, "constant value too large");
		return -1;
	}
	out->kind = DW_LOC_VALUE;
	snprintf(out->c, sizeof out->c, "0x%" PRIx64 "ULL", v);
	return 0;
}

static int implicit(const Dwarf_Op *op, struct dw_loc *out)
{
	uint64_t v = 0;
	size_t i;
	const unsigned char *d = (const unsigned char *)(uintptr_t)op->number2;

	if (op->number > 8)
		return -1;
	for (i = 0; i < op->number; i++)
		v |= (uint64_t)d[i] << (8 * i);
	out->kind = DW_LOC_VALUE;
	snprintf(out->c, sizeof out->c, "0x%" PRIx64 "ULL", v);
	return 0;
}

static enum dw_loc_status translate(struct dw_file *f, Dwarf_Die *func,
				    uint64_t pc, uint64_t anchor, int user,
				    Dwarf_Attribute *attr, int at_entry,
				    Dwarf_Op *ops, size_t n, struct dw_loc *out)
{
	struct machine *m = calloc(1, sizeof *m);
	int rc;

	m->f = f;
	m->attr = attr;
	m->at_entry = at_entry;
	m->anchor = anchor;
	m->user = user;
	m->func = func;
	m->pc = pc;
	m->reg = -1;
	m->msg = out->msg;
	if (n == 1 && ops[0].atom == DW_OP_implicit_value) {
		free(m);
		if (implicit(&ops[0], out))
			return snprintf(out->msg, sizeof out->msg,
					"implicit value wider than 64 bits"),
			       DW_LOC_UNSUPPORTED;
		return DW_LOC_OK;
	}
	if (has_piece(ops, n))
		rc = pieces(m, ops, n, out);
	else if ((rc = run(m, ops, n)) == 0) {
		if (!m->sp)
			rc = fail(m, "empty DWARF expression");
		else {
			snprintf(out->c, sizeof out->c, "%s", m->stack[m->sp - 1]);
			out->kind = m->is_value || m->reg >= 0 ? DW_LOC_VALUE : DW_LOC_ADDR;
			out->reg = m->is_value ? -1 : m->reg;
		}
	}
	out->reads = m->reads;
	out->fb = m->fb;
	free(m);
	return rc ? DW_LOC_UNSUPPORTED : DW_LOC_OK;
}

/* The location expression covering ADDR (DWARF address): 1, 0 none. */
static int location_at(Dwarf_Die *var, uint64_t addr, Dwarf_Attribute *a,
		       Dwarf_Op **ops, size_t *n)
{
	if (!dwarf_attr_integrate(var, DW_AT_location, a))
		return 0;
	return dwarf_getlocation_addr(a, addr, ops, n, 1) == 1 && *n > 0;
}

static uint64_t bias_of(struct dw_file *f)
{
	uint64_t bias;

	dw_file_dwarf(f, &bias);
	return bias;
}

/* A variable only declared in DWARF (the kernel's jiffies, which its
 * linker script defines): at its symbol's address, as stap finds it. */
static enum dw_loc_status declared(struct dw_file *f, Dwarf_Die *var,
				   uint64_t anchor, int user,
				   struct dw_loc *out)
{
	Dwarf_Op op = { .atom = DW_OP_addr };
	const char *name = dwarf_diename(var);
	uint64_t addr;

	if (!name || dw_file_symbol(f, name, &addr))
		return DW_LOC_NOT_AT_PC;
	op.number = addr;
	return translate(f, NULL, 0, anchor, user, NULL, 0, &op, 1, out);
}

enum dw_loc_status dw_loc_var(struct dw_file *f, uint64_t var_off,
			      uint64_t func_off, uint64_t pc,
			      uint64_t retry_pc, uint64_t anchor, int user,
			      struct dw_loc *out)
{
	Dwarf *dbg = dw_file_dwarf(f, NULL);
	uint64_t bias = bias_of(f);
	Dwarf_Die var, func;
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	memset(out, 0, sizeof *out);
	out->pc = pc;
	out->reg = -1;
	if (!dwarf_offdie(dbg, var_off, &var) ||
	    (func_off && !dwarf_offdie(dbg, func_off, &func)))
		return DW_LOC_NOT_AT_PC;
	if (dwarf_attr_integrate(&var, DW_AT_const_value, &a))
		return const_value(&a, out) ? DW_LOC_UNSUPPORTED : DW_LOC_OK;
	if (!dwarf_hasattr_integrate(&var, DW_AT_location) &&
	    dwarf_hasattr(&var, DW_AT_declaration))
		return declared(f, &var, anchor, user, out);
	if (!location_at(&var, pc - bias, &a, &ops, &n)) {
		if (!retry_pc)
			return DW_LOC_NOT_AT_PC;
		out->pc = pc = retry_pc;
		if (!location_at(&var, pc - bias, &a, &ops, &n))
			return DW_LOC_NOT_AT_PC;
	}
	/* a function's entry (stap retries those): entry values are now */
	return translate(f, func_off ? &func : NULL, pc - bias, anchor, user, &a,
			 retry_pc != 0, ops, n, out);
}

int dw_loc_covers(struct dw_file *f, uint64_t var_off, uint64_t pc)
{
	Dwarf *dbg = dw_file_dwarf(f, NULL);
	Dwarf_Attribute a;
	Dwarf_Die var;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_offdie(dbg, var_off, &var))
		return 0;
	if (dwarf_hasattr_integrate(&var, DW_AT_const_value))
		return 1;
	return location_at(&var, pc - bias_of(f), &a, &ops, &n);
}

void dw_loc_ranges(struct dw_file *f, uint64_t var_off, char *buf, size_t len)
{
	Dwarf *dbg = dw_file_dwarf(f, NULL);
	uint64_t bias = bias_of(f);
	Dwarf_Addr base, start, end;
	Dwarf_Attribute a;
	Dwarf_Die var;
	Dwarf_Op *ops;
	ptrdiff_t off = 0;
	size_t n, used = 0;

	buf[0] = '\0';
	if (!dwarf_offdie(dbg, var_off, &var) ||
	    !dwarf_attr_integrate(&var, DW_AT_location, &a))
		return;
	while ((off = dwarf_getlocations(&a, off, &base, &start, &end, &ops, &n)) > 0) {
		int k = snprintf(buf + used, len - used, "%s[0x%" PRIx64 ",0x%" PRIx64 "]",
				 used ? ", " : "", start + bias, end + bias);
		if (k < 0 || (size_t)k >= len - used)
			break;
		used += (size_t)k;
	}
}
