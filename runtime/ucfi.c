/* ucfi.c - call frame information (.eh_frame, DWARF CFI) interpreted for
 * x86_64: the rules (where the CFA is, where each register was saved) at
 * a link-time pc of a packed file (usym.h).  Pure computation over the
 * packed bytes, with every read bounded by its section, a CFA program of
 * at most STP_CFA_STEPS steps and a state stack of STP_CFA_STATES; it
 * reads no memory of the task (uunwind.c does) and builds in user space
 * too (testsuite/unit/test_ucfi.c).
 */
#ifndef STP_UCFI_C
#define STP_UCFI_C

#include "usym.h"

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

#endif
