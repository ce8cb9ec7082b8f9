/* test_sdt.c - SDT operands to C (translator/probes/sdt.c): every operand
 * form sys/sdt.h may leave, with sizes and signs, including the ones the
 * test programs' compilers did not happen to emit, and what it refuses. */
#include <stdint.h>
#include <stdlib.h>

#include "probes/family.h"
#include "unit.h"

/* What sdt.c and elf_user.c call outside these tests' reach: stubs. */
const char *dw_rooted(const char *path, char *buf, size_t n);
int fio_user_may_read(const char *path);
const char *kernel_modsym_c(struct session *s, const char *module,
			    const char *sym, uint64_t off);

const char *dw_rooted(const char *path, char *buf, size_t n)
{
	(void)buf;
	(void)n;
	return path;
}

int fio_user_may_read(const char *path)
{
	(void)path;
	return 1;
}

const char *kernel_modsym_c(struct session *s, const char *module,
			    const char *sym, uint64_t off)
{
	(void)s;
	(void)module;
	(void)sym;
	(void)off;
	return NULL;
}

static struct elf_user_sym objs[] = {
	{ "g", 0x4010, 4 }, { "tab", 0x4020, 32 },
};
static const struct elf_user eu = { .objs = objs, .nobjs = 2 };

static void check(struct session *s, const char *arg, const char *want,
		  int want_size, int line)
{
	int size = 0;
	const char *got = sdt_operand_c(s, &eu, arg, &size);

	if (!want) {
		if (got) {
			printf("line %d: %s: got %s, want NULL\n", line, arg, got);
			unit_failures++;
		}
		return;
	}
	if (!got || strcmp(got, want) || size != want_size) {
		printf("line %d: %s: got %s (size %d), want %s (size %d)\n", line,
		       arg, got ? got : "NULL", size, want, want_size);
		unit_failures++;
	}
}

#define T(arg, want, size) check(&s, arg, want, size, __LINE__)

int main(void)
{
	struct session s = { .arena = arena_new() };

	T("-4@%edi", "c->regs->di", -4);
	T("8@%rdx", "c->regs->dx", 8);
	T("-1@%r9b", "c->regs->r9", -1);
	T("2@%r8w", "c->regs->r8", 2);
	T("1@%ah", "(c->regs->ax >> 8)", 1);
	T("1@%sil", "c->regs->si", 1);
	T("-4@$5", "5LL", -4);
	T("-4@$-2", "-2LL", -4);
	T("8@$0x10", "16LL", 8);
	T("-4@-4(%rbp)", "_stp_sdt_uread(c, (-4LL + c->regs->bp + 0 * 1), 4)", -4);
	T("8@(%rax)", "_stp_sdt_uread(c, (0LL + c->regs->ax + 0 * 1), 8)", 8);
	T("-8@(%rax,%rdx,8)", "_stp_sdt_uread(c, (0LL + c->regs->ax + c->regs->dx * 8), 8)", -8);
	T("1@-96(%rbp,%rax,8)", "_stp_sdt_uread(c, (-96LL + c->regs->bp + c->regs->ax * 8), 1)", 1);
	T("8@(,%rcx,4)", "_stp_sdt_uread(c, (0LL + 0 + c->regs->cx * 4), 8)", 8);
	T("-4@g(%rip)", "_stp_sdt_uread(c, (0x4010ULL + _stp_sdt_bias(c)), 4)", -4);
	T("-8@16+tab(%rip)", "_stp_sdt_uread(c, (0x4030ULL + _stp_sdt_bias(c)), 8)", -8);
	T("8@tab+8(%rip)", "_stp_sdt_uread(c, (0x4028ULL + _stp_sdt_bias(c)), 8)", 8);
	T("%rsi", "c->regs->si", -8);	/* a version 1 note: no size */
	T("4@nosuch(%rip)", NULL, 0);
	T("4@%xmm0", NULL, 0);
	T("3@%eax", "c->regs->ax", 3);	/* an odd size is read as given */
	T("16@%eax", NULL, 0);
	T("4@8(%rip)", NULL, 0);	/* rip-relative without a symbol */
	T("4@(%rax", NULL, 0);
	if (unit_failures)
		return 1;
	printf("ok\n");
	return 0;
}
