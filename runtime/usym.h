/* usym.h - the user files packed into the module (-d PATH, --ldd, the
 * files process probes lie in): the types of the tables pass 3 writes
 * (translator/emit/usymtab.c) and runtime/usym.c and uunwind.c read.
 * Every address in them is the file's link-time address; the runtime
 * turns a run-time address into one through the file's mapping.
 */
#ifndef STP_USYM_H
#define STP_USYM_H

#ifdef __KERNEL__
#include <linux/types.h>
#else				/* ucfi.c in user space (unit tests) */
#include <stdint.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#endif

struct _stp_usym {
	u64 addr;		/* link-time address */
	u32 size;		/* up to the next symbol */
	u32 name;		/* offset in the module's names */
};

struct _stp_uload {		/* a PT_LOAD segment */
	u64 vaddr, offset, filesz;
};

struct _stp_umod {
	const char *path;	/* as stap names it (the real path) */
	const char *base;	/* its last component: a mapping's dentry */
	const struct _stp_usym *syms;	/* sorted by address */
	u32 nsyms;
	const char *names;
	const struct _stp_uload *loads;
	u32 nloads;
	const u8 *ehf;		/* .eh_frame, or NULL */
	u32 ehf_len;
	u64 ehf_addr;
	const u8 *ehh;		/* .eh_frame_hdr, or NULL */
	u32 ehh_len;
	u64 ehh_addr;
	const u8 *bid;		/* the build-id, or NULL */
	u32 bid_len;
	u64 bid_addr;
};

#endif
