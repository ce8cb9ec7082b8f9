/* test_ucfi.c - runtime/ucfi.c's call frame rules over this program's own
 * .eh_frame (found through its PT_GNU_EH_FRAME, addresses as loaded):
 * the rule at a function's first byte, a pc without frame information,
 * and a walk of three frames by the rules that must meet the return
 * addresses the compiler knows.
 */
#define _GNU_SOURCE
#include <link.h>

#include "unit.h"
#include "ucfi.c"

static struct _stp_umod mod;

static int find_own(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Phdr) *hdr = NULL, *seg = NULL;
	const u8 *p, *h;
	int i;

	(void)size;
	(void)data;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = &info->dlpi_phdr[i];
	if (!hdr)
		return 0;
	h = (const u8 *)(info->dlpi_addr + hdr->p_vaddr);
	mod.ehh = h;
	mod.ehh_len = (u32)hdr->p_memsz;
	mod.ehh_addr = (u64)(uintptr_t)h;
	p = h + 4;
	mod.ehf_addr = _stp_eh_ptr(&p, h + mod.ehh_len, h[1], h, mod.ehh_addr, 0);
	mod.ehf = (const u8 *)(uintptr_t)mod.ehf_addr;
	for (i = 0; i < info->dlpi_phnum; i++) {	/* .eh_frame's segment */
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		u64 lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && mod.ehf_addr >= lo &&
		    mod.ehf_addr < lo + ph->p_memsz)
			seg = ph;
	}
	if (seg)
		mod.ehf_len = (u32)(info->dlpi_addr + seg->p_vaddr +
				    seg->p_memsz - mod.ehf_addr);
	return 1;	/* the program comes first */
}

/* One frame up from registers R by the rules at R[16]; 0 on success. */
static int step(u64 *r, int first)
{
	struct _stp_cfa c;
	u64 cfa;

	if (_stp_cfa_at(&c, &mod, r[16] - !first))
		return -1;
	cfa = r[c.rules.cfa_reg] + c.rules.cfa_off;
	if (c.rules.how[6] == STP_R_OFFSET)
		memcpy(&r[6], (const void *)(uintptr_t)(cfa + c.rules.val[6]), 8);
	if (c.rules.how[16] != STP_R_OFFSET)
		return -1;
	memcpy(&r[16], (const void *)(uintptr_t)(cfa + c.rules.val[16]), 8);
	r[7] = cfa;
	return 0;
}

static u64 ret_middle, ret_inner, walked[3];
static volatile int sink;

__attribute__((noipa)) static int inner(int x)
{
	u64 r[STP_UREGS] = { 0 };
	int i;

	ret_inner = (u64)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(r[16]), "=r"(r[7]), "=r"(r[6]));
	for (i = 0; i < 3; i++) {
		walked[i] = r[16];
		if (i < 2 && step(r, i == 0))
			break;
	}
	return x + sink;
}

__attribute__((noipa)) static int middle(int x)
{
	int v = inner(x + 1);

	ret_middle = (u64)(uintptr_t)__builtin_return_address(0);
	return v + sink;
}

__attribute__((noipa)) static int leaf(int x)
{
	return x + sink;
}

int main(void)
{
	struct _stp_cfa c;

	dl_iterate_phdr(find_own, NULL);
	CHECK(mod.ehh && mod.ehf && mod.ehf_len);

	/* at a function's first byte the CFA is rsp+8, the RA just below */
	CHECK_INT(_stp_cfa_at(&c, &mod, (u64)(uintptr_t)&leaf), 0);
	CHECK_INT(c.rules.cfa_reg, 7);
	CHECK_INT(c.rules.cfa_off, 8);
	CHECK_INT(c.rules.how[16], STP_R_OFFSET);
	CHECK_INT(c.rules.val[16], -8);
	CHECK_INT(c.ra_reg, 16);

	/* no frame information below the first function */
	CHECK_INT(_stp_cfa_at(&c, &mod, 1), -1);

	middle(sink);
	CHECK(walked[0] > (u64)(uintptr_t)&inner);
	CHECK_INT(walked[1], ret_inner);
	CHECK_INT(walked[2], ret_middle);
	return unit_failures != 0;
}
