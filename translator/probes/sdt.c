/* probes/sdt.c - an SDT marker's operand as C (pass 2, for uprobe.c and
 * kmark.c).
 *
 * sys/sdt.h leaves each argument as "[-]SIZE@OPERAND", the operand in the
 * assembler's AT&T syntax: a register (%rdi, %esi, %al, %r8d), base and
 * displacement (-4(%rbp)), a full effective address (8(%rax,%rdx,8)), an
 * immediate ($5), or a symbol relative to %rip (gs(%rip), tab+16(%rip)).
 * The C computes the raw value at the probe from the user registers
 * (c->regs); memory is read through _stp_sdt_uread, and a symbol's
 * link-time address is moved by the load bias, _stp_sdt_bias(c).  The
 * conversion to SIZE bytes with or without sign is target.c's.  For a
 * kernel module's marker (kmark.c, no EU) memory is kernel memory, read
 * through _stp_kread, and symbol operands are not read.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "probes/family.h"

static const struct {
	const char *names[5];	/* 64, 32, 16, low 8, high 8 bits */
	const char *field;	/* struct pt_regs */
} regs[] = {
	{ { "rax", "eax", "ax", "al", "ah" }, "ax" },
	{ { "rbx", "ebx", "bx", "bl", "bh" }, "bx" },
	{ { "rcx", "ecx", "cx", "cl", "ch" }, "cx" },
	{ { "rdx", "edx", "dx", "dl", "dh" }, "dx" },
	{ { "rsi", "esi", "si", "sil", NULL }, "si" },
	{ { "rdi", "edi", "di", "dil", NULL }, "di" },
	{ { "rbp", "ebp", "bp", "bpl", NULL }, "bp" },
	{ { "rsp", "esp", "sp", "spl", NULL }, "sp" },
	{ { "r8", "r8d", "r8w", "r8b", NULL }, "r8" },
	{ { "r9", "r9d", "r9w", "r9b", NULL }, "r9" },
	{ { "r10", "r10d", "r10w", "r10b", NULL }, "r10" },
	{ { "r11", "r11d", "r11w", "r11b", NULL }, "r11" },
	{ { "r12", "r12d", "r12w", "r12b", NULL }, "r12" },
	{ { "r13", "r13d", "r13w", "r13b", NULL }, "r13" },
	{ { "r14", "r14d", "r14w", "r14b", NULL }, "r14" },
	{ { "r15", "r15d", "r15w", "r15b", NULL }, "r15" },
	{ { "rip", "eip", NULL, NULL, NULL }, "ip" },
};

/* The register %NAME (LEN chars) as C, or NULL. */
static const char *reg_c(struct session *s, const char *name, size_t len)
{
	size_t i;
	int k;

	for (i = 0; i < sizeof regs / sizeof regs[0]; i++)
		for (k = 0; k < 5; k++) {
			const char *r = regs[i].names[k];
			if (!r || strlen(r) != len || strncmp(r, name, len))
				continue;
			return arena_printf(s->arena, k == 4 ?
				"(c->regs->%s >> 8)" : "c->regs->%s", regs[i].field);
		}
	return NULL;
}

/* "%reg" at *P (advanced past it). */
static const char *take_reg(struct session *s, const char **p)
{
	size_t n;
	const char *r;

	if (**p != '%')
		return NULL;
	n = strspn(*p + 1, "abcdefghijklmnopqrstuvwxyz0123456789");
	r = reg_c(s, *p + 1, n);
	*p += 1 + n;
	return r;
}

/* "(%base[,%index[,scale]])" or "(,%index,scale)" at P as an address
 * expression, DISP added; NULL if malformed. */
static const char *address_c(struct session *s, const char *p, const char *disp)
{
	const char *base = NULL, *index = NULL;
	long scale = 1;
	char *end;

	if (*p++ != '(')
		return NULL;
	if (*p == '%' && !(base = take_reg(s, &p)))
		return NULL;
	if (*p == ',') {
		p++;
		if (!(index = take_reg(s, &p)))
			return NULL;
		if (*p == ',') {
			scale = strtol(p + 1, &end, 10);
			p = end;
		}
	}
	if (strcmp(p, ")") || (!base && !index))
		return NULL;
	return arena_printf(s->arena, "(%s + %s + %s * %ld)", disp,
			    base ? base : "0", index ? index : "0", scale);
}

/* "[OFF+]SYM[+OFF](%rip)": the symbol's address at run time, in the
 * program EU or in kernel module KMOD. */
static const char *symbol_c(struct session *s, const struct elf_user *eu,
			    const char *kmod, const char *op, size_t len)
{
	const char *text = arena_strndup(s->arena, op, len);
	const struct elf_user_sym *sym;
	long long off = 0;
	char *p = (char *)text, *end, *name;

	if (isdigit((unsigned char)*p) || *p == '-') {
		off = strtoll(p, &end, 0);
		if (*end != '+')
			return NULL;
		p = end + 1;
	}
	name = p;
	p += strcspn(p, "+-");
	if (*p) {
		off += strtoll(p, &end, 0);
		if (*end)
			return NULL;
		*p = '\0';
	}
	if (kmod)
		return kernel_modsym_c(s, kmod, name, (uint64_t)off);
	sym = elf_user_obj(eu, name);
	if (!sym)
		sym = elf_user_func(eu, name);
	if (!sym)
		return NULL;
	return arena_printf(s->arena, "(0x%llxULL + _stp_sdt_bias(c))",
			    (unsigned long long)(sym->addr + (uint64_t)off));
}

/* sdt_operand_c, in program EU or kernel module KMOD (one of them). */
static const char *operand_c(struct session *s, const struct elf_user *eu,
			     const char *kmod, const char *arg, int *size)
{
	const char *at = strchr(arg, '@'), *op, *paren, *addr;
	char *end;
	long long v;

	*size = 8;
	if (at) {
		*size = (int)strtol(arg, &end, 10);
		if (end != at || !*size || abs(*size) > 8)
			return NULL;
		op = at + 1;
	} else {
		op = arg;	/* version 1 notes: no size, a long */
		*size = -8;
	}
	if (*op == '$') {
		v = strtoll(op + 1, &end, 0);
		return *end ? NULL : arena_printf(s->arena, "%lldLL", v);
	}
	if (*op == '%') {
		const char *r = take_reg(s, &op);
		return *op ? NULL : r;
	}
	paren = strchr(op, '(');
	if (!paren)
		return NULL;
	v = paren == op ? 0 : strtoll(op, &end, 0);
	if (paren == op || end == paren) {
		/* %rip plus a number needs the next instruction's address */
		if (!strcmp(paren, "(%rip)"))
			return NULL;
		addr = address_c(s, paren, arena_printf(s->arena, "%lldLL", v));
	} else if (!strcmp(paren, "(%rip)") && (eu || kmod)) {
		addr = symbol_c(s, eu, kmod, op, (size_t)(paren - op));
	} else {
		return NULL;
	}
	if (!addr)
		return NULL;
	if (!eu)	/* a kernel module's marker */
		return arena_printf(s->arena, "_stp_kread(c, %s, %d, NULL)",
				    addr, abs(*size));
	return arena_printf(s->arena, "_stp_sdt_uread(c, %s, %d)", addr,
			    abs(*size));
}

const char *sdt_operand_c(struct session *s, const struct elf_user *eu,
			  const char *arg, int *size)
{
	return operand_c(s, eu, NULL, arg, size);
}

const char *sdt_kernel_operand_c(struct session *s, const char *module,
				 const char *arg, int *size)
{
	return operand_c(s, NULL, module, arg, size);
}
