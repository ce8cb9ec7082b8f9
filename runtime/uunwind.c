/* uunwind.c - user backtraces: the call frame information (.eh_frame) of
 * the packed files (runtime/usym.h) interpreted for x86_64, from the user
 * registers of the probed task.
 *
 * Bounded: MAXBACKTRACE frames, a CFA program of at most
 * STP_CFA_STEPS steps each, a state stack of STP_CFA_STATES; the user
 * stack is read without faulting (stp_mem.h), under the mmap lock taken
 * with trylock (usym.c).  Unwinding stops at a pc whose file is not packed
 * (stap's warning names it: rerun with -d), at one without frame
 * information, or at a return address of 0.
 */
#ifndef STP_UUNWIND_C
#define STP_UUNWIND_C

#include "usym.c"

#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20
#endif
#define STP_CFA_STEPS 512
#define STP_CFA_STATES 8
#define STP_UREGS 17		/* DWARF x86_64: 0-15 the GPRs, 16 the RA */

enum { STP_R_SAME, STP_R_UNDEF, STP_R_OFFSET, STP_R_VAL_OFFSET, STP_R_REG };

struct _stp_cfa_rules {
	u8 how[STP_UREGS];
	s64 val[STP_UREGS];
	int cfa_reg;
	s64 cfa_off;
};

struct _stp_cfa {
	const struct _stp_umod *m;
	u32 code_align;
	s64 data_align;
	int ra_reg;
	u8 fde_enc;
	int has_z;		/* the CIE's augmentation starts with 'z' */
	struct _stp_cfa_rules rules, init, stack[STP_CFA_STATES];
	int depth;
};

struct _stp_ubt {
	unsigned long pc[MAXBACKTRACE];
	int n;
};

/* x86_64 is little-endian: a 4-byte field of the tables, at any alignment. */
static u32 _stp_le32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof v);
	return v;
}

static u64 _stp_uleb(const u8 **p, const u8 *end)
{
	u64 v = 0;
	int shift = 0;

	while (*p < end) {
		u8 b = *(*p)++;

		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static s64 _stp_sleb(const u8 **p, const u8 *end)
{
	u64 v = 0;
	int shift = 0;
	u8 b = 0;

	while (*p < end) {
		b = *(*p)++;
		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= ~(u64)0 << shift;
	return (s64)v;
}

static u64 _stp_fixed(const u8 **p, const u8 *end, int size)
{
	u64 v = 0;
	int i;

	if (end - *p < size) {
		*p = end;
		return 0;
	}
	for (i = 0; i < size; i++)
		v |= (u64)(*p)[i] << (8 * i);
	*p += size;
	return v;
}

/* A DW_EH_PE-encoded pointer at *P in section bytes SEC (at link address
 * SEC_ADDR); DATA is the base of datarel.  Indirect pointers are not
 * supported (they do not hold code addresses). */
static u64 _stp_eh_ptr(const u8 **p, const u8 *end, u8 enc, const u8 *sec,
		       u64 sec_addr, u64 data)
{
	u64 at = sec_addr + (*p - sec), v;

	switch (enc & 0x0f) {
	case 0x00: v = _stp_fixed(p, end, 8); break;
	case 0x01: v = _stp_uleb(p, end); break;
	case 0x02: v = _stp_fixed(p, end, 2); break;
	case 0x03: v = _stp_fixed(p, end, 4); break;
	case 0x04: v = _stp_fixed(p, end, 8); break;
	case 0x09: v = (u64)_stp_sleb(p, end); break;
	case 0x0a: v = (u64)(s16)_stp_fixed(p, end, 2); break;
	case 0x0b: v = (u64)(s32)_stp_fixed(p, end, 4); break;
	case 0x0c: v = _stp_fixed(p, end, 8); break;
	default: *p = end; return 0;
	}
	switch (enc & 0x70) {
	case 0x10: return v + at;
	case 0x30: return v + data;
	default: return v;
	}
}

/* The FDE for link-time address PC in M's .eh_frame, by .eh_frame_hdr's
 * table when it has the usual encoding, else by a walk; its offset in
 * .eh_frame, or -1. */
static long _stp_fde_search(const struct _stp_umod *m, u64 pc)
{
	const u8 *h = m->ehh, *p;
	u64 count, lo, hi, mid, start;
	u32 len, off;

	if (!h || m->ehh_len < 12 || h[0] != 1 || h[3] != 0x3b)
		return -1;
	p = h + 4;
	_stp_eh_ptr(&p, h + m->ehh_len, h[1], h, m->ehh_addr, m->ehh_addr);
	count = _stp_eh_ptr(&p, h + m->ehh_len, h[2], h, m->ehh_addr,
			    m->ehh_addr);
	if (!count || (u64)(h + m->ehh_len - p) < count * 8)
		return -1;
	lo = 0;
	hi = count - 1;
	while (lo < hi) {	/* the last entry starting at or below pc */
		mid = lo + (hi - lo + 1) / 2;
		start = m->ehh_addr + (s32)_stp_le32(p + mid * 8);
		if (start <= pc)
			lo = mid;
		else
			hi = mid - 1;
	}
	start = m->ehh_addr + (s32)_stp_le32(p + lo * 8);
	if (start > pc)
		return -1;
	off = (u32)(m->ehh_addr + (s32)_stp_le32(p + lo * 8 + 4) -
		    m->ehf_addr);
	if (off + 8 > m->ehf_len)
		return -1;
	len = _stp_le32(m->ehf + off);
	return len && len != 0xffffffff && off + 4 + len <= m->ehf_len ? off : -1;
}

/* Read the CIE at OFF of C->m's .eh_frame; its instructions in *INSNS.
 * 0 on success. */
static int _stp_cie(struct _stp_cfa *c, u32 off, const u8 **insns,
		    const u8 **end)
{
	const u8 *f = c->m->ehf, *p = f + off + 4, *aug, *aug_end;
	u32 len = _stp_le32(f + off);

	if (len == 0xffffffff || off + 4 + len > c->m->ehf_len)
		return -1;
	*end = f + off + 4 + len;
	if (_stp_le32(p) != 0 || *end - p < 6)
		return -1;
	p += 4;
	if (*p != 1 && *p != 3)
		return -1;
	p++;
	aug = p;
	p += strnlen((const char *)p, *end - p) + 1;
	if (p >= *end || (aug[0] && aug[0] != 'z'))
		return -1;
	c->code_align = (u32)_stp_uleb(&p, *end);
	c->data_align = _stp_sleb(&p, *end);
	c->ra_reg = aug[-1] == 1 ? *p++ : (int)_stp_uleb(&p, *end);
	c->fde_enc = 0;
	c->has_z = aug[0] == 'z';
	if (c->has_z) {
		u64 alen = _stp_uleb(&p, *end);

		aug_end = p + alen;
		for (aug++; *aug && p < aug_end; aug++) {
			if (*aug == 'R')
				c->fde_enc = *p++;
			else if (*aug == 'L')
				p++;
			else if (*aug == 'P')
				_stp_eh_ptr(&p, aug_end, *p++, f, c->m->ehf_addr, 0);
			else if (*aug != 'S' && *aug != 'B')
				return -1;
		}
		p = aug_end;
	}
	*insns = p;
	return p <= *end && c->ra_reg < STP_UREGS ? 0 : -1;
}

static int _stp_cfa_rule(struct _stp_cfa_rules *r, u64 reg, u8 how, s64 val)
{
	if (reg >= STP_UREGS)
		return 0;	/* a register we do not track (xmm…) */
	r->how[reg] = how;
	r->val[reg] = val;
	return 0;
}

/* Run CFA instructions [P, END) while the location stays at or below PC;
 * LOC starts at the FDE's first address.  0 on success. */
static int _stp_cfa_run(struct _stp_cfa *c, const u8 *p, const u8 *end,
			u64 loc, u64 pc, int *steps)
{
	struct _stp_cfa_rules *r = &c->rules;
	u64 reg;
	s64 off;
	u8 op;

	while (p < end && loc <= pc) {
		if (++*steps > STP_CFA_STEPS)
			return -1;
		op = *p++;
		switch (op >> 6) {
		case 1:		/* advance_loc */
			loc += (u64)(op & 0x3f) * c->code_align;
			continue;
		case 2:		/* offset */
			off = (s64)_stp_uleb(&p, end) * c->data_align;
			_stp_cfa_rule(r, op & 0x3f, STP_R_OFFSET, off);
			continue;
		case 3:		/* restore */
			_stp_cfa_rule(r, op & 0x3f, c->init.how[op & 0x3f],
				      c->init.val[op & 0x3f]);
			continue;
		}
		switch (op) {
		case 0x00: break;	/* nop */
		case 0x02: loc += _stp_fixed(&p, end, 1) * c->code_align; break;
		case 0x03: loc += _stp_fixed(&p, end, 2) * c->code_align; break;
		case 0x04: loc += _stp_fixed(&p, end, 4) * c->code_align; break;
		case 0x05:	/* offset_extended */
			reg = _stp_uleb(&p, end);
			_stp_cfa_rule(r, reg, STP_R_OFFSET,
				      (s64)_stp_uleb(&p, end) * c->data_align);
			break;
		case 0x06:	/* restore_extended */
			reg = _stp_uleb(&p, end);
			if (reg < STP_UREGS)
				_stp_cfa_rule(r, reg, c->init.how[reg],
					      c->init.val[reg]);
			break;
		case 0x07:	/* undefined */
			_stp_cfa_rule(r, _stp_uleb(&p, end), STP_R_UNDEF, 0);
			break;
		case 0x08:	/* same_value */
			_stp_cfa_rule(r, _stp_uleb(&p, end), STP_R_SAME, 0);
			break;
		case 0x09:	/* register */
			reg = _stp_uleb(&p, end);
			_stp_cfa_rule(r, reg, STP_R_REG, (s64)_stp_uleb(&p, end));
			break;
		case 0x0a:	/* remember_state */
			if (c->depth >= STP_CFA_STATES)
				return -1;
			c->stack[c->depth++] = *r;
			break;
		case 0x0b:	/* restore_state */
			if (!c->depth)
				return -1;
			*r = c->stack[--c->depth];
			break;
		case 0x0c:	/* def_cfa */
			r->cfa_reg = (int)_stp_uleb(&p, end);
			r->cfa_off = (s64)_stp_uleb(&p, end);
			break;
		case 0x0d:	/* def_cfa_register */
			r->cfa_reg = (int)_stp_uleb(&p, end);
			break;
		case 0x0e:	/* def_cfa_offset */
			r->cfa_off = (s64)_stp_uleb(&p, end);
			break;
		case 0x11:	/* offset_extended_sf */
			reg = _stp_uleb(&p, end);
			_stp_cfa_rule(r, reg, STP_R_OFFSET,
				      _stp_sleb(&p, end) * c->data_align);
			break;
		case 0x12:	/* def_cfa_sf */
			r->cfa_reg = (int)_stp_uleb(&p, end);
			r->cfa_off = _stp_sleb(&p, end) * c->data_align;
			break;
		case 0x13:	/* def_cfa_offset_sf */
			r->cfa_off = _stp_sleb(&p, end) * c->data_align;
			break;
		case 0x14:	/* val_offset */
			reg = _stp_uleb(&p, end);
			_stp_cfa_rule(r, reg, STP_R_VAL_OFFSET,
				      (s64)_stp_uleb(&p, end) * c->data_align);
			break;
		case 0x15:	/* val_offset_sf */
			reg = _stp_uleb(&p, end);
			_stp_cfa_rule(r, reg, STP_R_VAL_OFFSET,
				      _stp_sleb(&p, end) * c->data_align);
			break;
		case 0x2e:	/* GNU_args_size */
			_stp_uleb(&p, end);
			break;
		default:	/* expressions (PLT, signal frames): give up */
			return -1;
		}
	}
	return 0;
}

/* The rules at link-time PC of module M; 0 on success. */
static int _stp_cfa_at(struct _stp_cfa *c, const struct _stp_umod *m, u64 pc)
{
	long off = _stp_fde_search(m, pc);
	const u8 *p, *end, *cie_insns, *cie_end;
	u64 start, range;
	u32 cie;
	int steps = 0;

	if (off < 0)
		return -1;
	memset(c, 0, sizeof *c);
	c->m = m;
	p = m->ehf + off + 4;
	end = p + _stp_le32(m->ehf + off);
	cie = _stp_le32(p);
	if (!cie || cie > (u32)off + 4 || _stp_cie(c, off + 4 - cie, &cie_insns,
						    &cie_end))
		return -1;
	p += 4;
	start = _stp_eh_ptr(&p, end, c->fde_enc, m->ehf, m->ehf_addr, 0);
	range = _stp_eh_ptr(&p, end, c->fde_enc & 0x0f, m->ehf, m->ehf_addr, 0);
	if (pc < start || pc - start >= range)
		return -1;
	if (c->has_z) {		/* skip the FDE's augmentation data */
		u64 alen = _stp_uleb(&p, end);

		p += alen;
	}
	if (_stp_cfa_run(c, cie_insns, cie_end, 0, (u64)-1, &steps))
		return -1;
	c->init = c->rules;
	return _stp_cfa_run(c, p, end, start, pc, &steps);
}

/* The caller's registers from R (one frame up), by the rules for PC of
 * M; 0 on success. */
static int _stp_ustep(const struct _stp_umod *m, u64 pc, u64 *r, u32 *known)
{
	struct _stp_cfa c;
	u64 cfa, v, out[STP_UREGS];
	u32 got = 0;
	int i;

	if (_stp_cfa_at(&c, m, pc) || c.rules.cfa_reg < 0 ||
	    c.rules.cfa_reg >= STP_UREGS || !(*known & (1u << c.rules.cfa_reg)))
		return -1;
	cfa = r[c.rules.cfa_reg] + c.rules.cfa_off;
	for (i = 0; i < STP_UREGS; i++) {
		switch (c.rules.how[i]) {
		case STP_R_SAME:
			out[i] = r[i];
			got |= *known & (1u << i);
			break;
		case STP_R_OFFSET:
			if (_stp_read_user(&v, cfa + c.rules.val[i], sizeof v))
				return -1;
			out[i] = v;
			got |= 1u << i;
			break;
		case STP_R_VAL_OFFSET:
			out[i] = cfa + c.rules.val[i];
			got |= 1u << i;
			break;
		case STP_R_REG:
			if (c.rules.val[i] >= STP_UREGS)
				return -1;
			out[i] = r[c.rules.val[i]];
			got |= *known & (1u << c.rules.val[i]);
			break;
		default:
			out[i] = 0;
		}
	}
	if (!(got & (1u << c.ra_reg)))
		return -1;
	out[16] = out[c.ra_reg];
	out[7] = cfa;		/* the caller's rsp is the CFA */
	memcpy(r, out, sizeof out);
	*known = got | (1u << 7) | (1u << 16);
	return 0;
}

/* The DWARF x86_64 registers of user registers REGS (16: the pc). */
static void _stp_uregs(const struct pt_regs *regs, u64 *r)
{
	r[0] = regs->ax; r[1] = regs->dx; r[2] = regs->cx; r[3] = regs->bx;
	r[4] = regs->si; r[5] = regs->di; r[6] = regs->bp; r[7] = regs->sp;
	r[8] = regs->r8; r[9] = regs->r9; r[10] = regs->r10;
	r[11] = regs->r11; r[12] = regs->r12; r[13] = regs->r13;
	r[14] = regs->r14; r[15] = regs->r15; r[16] = regs->ip;
}

/* The user registers of the probed context: the probe's own when it
 * stopped user code, else those the task entered the kernel with. */
static const struct pt_regs *_stp_user_regs(struct context *c)
{
	if (c->regs && user_mode(c->regs))
		return c->regs;
	if (current->mm && !(current->flags & PF_KTHREAD))
		return task_pt_regs(current);
	return NULL;
}

/* The user frames' pcs into BT; the path of the file whose missing
 * unwind data stopped it into MISSING ("" if none). */
static void _stp_ubacktrace_pcs(struct context *c, struct _stp_ubt *bt,
				char *missing, size_t n)
{
	const struct pt_regs *regs = _stp_user_regs(c);
	struct mm_struct *mm;
	struct _stp_uloc loc;
	u64 r[STP_UREGS];
	u32 known = (1u << STP_UREGS) - 1;

	bt->n = 0;
	missing[0] = '\0';
	if (!regs || !regs->ip)
		return;
	_stp_uregs(regs, r);
	bt->pc[bt->n++] = r[16];
	mm = _stp_umm_lock();
	if (!mm)
		return;
	while (bt->n < MAXBACKTRACE) {
		/* a caller's pc is a return address: look at the call */
		u64 pc = r[16] - (bt->n > 1);

		if (!_stp_uloc_locked(mm, pc, &loc))
			break;
		if (!loc.mod || !loc.mod->ehf) {
			strscpy(missing, loc.path, n);
			break;
		}
		if (!loc.rel || _stp_ustep(loc.mod, loc.rel, r, &known))
			break;
		if (!r[16])
			break;
		bt->pc[bt->n++] = r[16];
	}
	mmap_read_unlock(mm);
}

/* ubacktrace and kin: the frames, and stap's warning when a file's data
 * was missing. */
static __maybe_unused void _stp_ubacktrace(struct context *c,
					   struct _stp_ubt *bt)
{
	char missing[256], msg[320];

	_stp_ubacktrace_pcs(c, bt, missing, sizeof missing);
	if (missing[0]) {
		snprintf(msg, sizeof msg, "Missing unwind data for a module, rerun with 'stap -d %s'", missing);
		_stp_transport_warn(msg);
	}
}

#endif
