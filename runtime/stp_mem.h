/* stp_mem.h - every access the module makes to memory it does not own:
 * addresses a script or the probed code hands over (the conversion
 * tapsets, target variables, probe families), and the user buffers of the
 * module's own file operations.
 *
 * Only this header calls the kernel's raw primitives
 * (copy_from_kernel_nofault, copy_{from,to}_user[_nofault],
 * __put_kernel_nofault, simple_read_from_buffer, get_user and kin): the
 * rest of runtime/ and the tapsets, embedded C included, use the helpers
 * below, which return 0 or -EFAULT for the caller to turn into the
 * script's error (stp_kread.h does that for target variables).
 * testsuite/shell/mem-access.sh keeps it so.  This header needs nothing of
 * the runtime: the transport (module.c, transport/ring.c) uses it too.
 *
 * Probe context: page faults disabled, exception-table fixup, so a read or
 * write never sleeps and a bad address yields -EFAULT, never an oops.
 * Strings are copied a page at a time and stop at their NUL, so a string
 * that ends just before an unmapped page reads fine.  Kernel writes (guru
 * tapsets) check the address is a canonical kernel address above user
 * space, then store through the exception table.
 *
 * Process context (_stp_fileop_*, at the end): a write() or read() on the
 * module's own files, where faulting a user page in may sleep.
 */
#ifndef STP_MEM_H
#define STP_MEM_H

#include <linux/uaccess.h>

/* Kernel reads. */
static inline __maybe_unused long
_stp_read_kernel(void *dst, unsigned long addr, size_t size)
{
	return copy_from_kernel_nofault(dst, (const void *)addr, size) ? -EFAULT : 0;
}

static inline __maybe_unused long
_stp_read_user(void *dst, unsigned long addr, size_t size)
{
	return copy_from_user_nofault(dst, (const void __user *)addr, size) ?
		-EFAULT : 0;
}

static inline __maybe_unused long
_stp_read_mem(void *dst, unsigned long addr, size_t size, int user)
{
	return user ? _stp_read_user(dst, addr, size) :
		      _stp_read_kernel(dst, addr, size);
}

/* Copy up to SIZE bytes from ADDR into DST, stopping after a NUL when
 * STOP_AT_NUL.  Returns the bytes copied (the NUL included); *FAULTED says
 * whether the copy ended on an unreadable page before reaching SIZE or a
 * NUL.  DST gets no terminator of its own. */
static __maybe_unused long
_stp_read_span(char *dst, unsigned long addr, size_t size, int user,
	       int stop_at_nul, int *faulted)
{
	size_t done = 0;

	*faulted = 0;
	while (done < size) {
		size_t chunk = PAGE_SIZE - ((addr + done) & (PAGE_SIZE - 1));
		char *nul;

		if (chunk > size - done)
			chunk = size - done;
		if (_stp_read_mem(dst + done, addr + done, chunk, user)) {
			/* the page may be partly readable: go bytewise */
			while (chunk && !_stp_read_mem(dst + done, addr + done, 1, user)) {
				done++;
				chunk--;
				if (stop_at_nul && !dst[done - 1])
					return (long)done;
			}
			*faulted = 1;
			return (long)done;
		}
		if (stop_at_nul && (nul = memchr(dst + done, '\0', chunk)))
			return (long)(nul - dst) + 1;
		done += chunk;
	}
	return (long)done;
}

/* The NUL-terminated string at ADDR into DST (SIZE bytes, at most SIZE-1
 * characters).  Returns its length, or -EFAULT if a byte before its end
 * (or before SIZE-1 bytes) is unreadable; DST then holds "". */
static __maybe_unused long
_stp_read_string(char *dst, unsigned long addr, size_t size, int user)
{
	int faulted;
	long n;

	if (!size)
		return 0;
	n = _stp_read_span(dst, addr, size - 1, user, 1, &faulted);
	if (faulted) {
		dst[0] = '\0';
		return -EFAULT;
	}
	if (n > 0 && !dst[n - 1])
		return n - 1;
	dst[n] = '\0';
	return n;
}

/* A canonical kernel address, above user space and its guard page. */
static inline __maybe_unused int
_stp_kernel_addr_ok(unsigned long addr, size_t size)
{
#ifdef CONFIG_X86_64
	if (addr < TASK_SIZE_MAX + PAGE_SIZE || addr + size < addr)
		return 0;
	return __is_canonical_address(addr, boot_cpu_data.x86_virt_bits);
#else
	return addr >= TASK_SIZE && addr + size >= addr;
#endif
}

/* Kernel writes: SIZE is 1, 2, 4 or 8. */
static __maybe_unused long
_stp_write_kernel_scalar(unsigned long addr, u64 val, size_t size)
{
	u8 v1 = (u8)val;
	u16 v2 = (u16)val;
	u32 v4 = (u32)val;

	if (!_stp_kernel_addr_ok(addr, size))
		return -EFAULT;
	pagefault_disable();
	switch (size) {
	case 1:
		__put_kernel_nofault((void *)addr, &v1, u8, fault);
		break;
	case 2:
		__put_kernel_nofault((void *)addr, &v2, u16, fault);
		break;
	case 4:
		__put_kernel_nofault((void *)addr, &v4, u32, fault);
		break;
	default:
		__put_kernel_nofault((void *)addr, &val, u64, fault);
		break;
	}
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

/* N bytes of SRC to ADDR, byte by byte (a fault may leave a prefix). */
static __maybe_unused long
_stp_write_kernel_bytes(unsigned long addr, const char *src, size_t n)
{
	size_t i;

	if (!_stp_kernel_addr_ok(addr, n))
		return -EFAULT;
	for (i = 0; i < n; i++)
		if (_stp_write_kernel_scalar(addr + i, (u8)src[i], 1))
			return -EFAULT;
	return 0;
}

static inline __maybe_unused long
_stp_write_user(unsigned long addr, const void *src, size_t n)
{
	return copy_to_user_nofault((void __user *)addr, src, n) ? -EFAULT : 0;
}

/* The module's own file operations, in the calling process's context
 * (stapio's commands, procfs files, the output ring's read()), where a
 * fault on the user buffer may sleep to bring its page in. */
static inline __maybe_unused long
_stp_fileop_copy_from_user(void *dst, const void __user *src, size_t n)
{
	return copy_from_user(dst, src, n) ? -EFAULT : 0;
}

static inline __maybe_unused long
_stp_fileop_copy_to_user(void __user *dst, const void *src, size_t n)
{
	return copy_to_user(dst, src, n) ? -EFAULT : 0;
}

/* read() of a file whose contents are the LEN bytes at DATA: a macro,
 * so that this header needs no <linux/fs.h> (the file operations that use
 * it include that). */
#define _stp_fileop_read_buffer(buf, count, ppos, data, len) \
	simple_read_from_buffer(buf, count, ppos, data, len)

#endif
