/* sys/sdt.h - static probe points (SDT markers) for programs and kernel
 * modules.
 *
 * STAP_PROBEn(provider, name, arg1, ...) and DTRACE_PROBEn(...) leave a
 * nop in the code and describe it in an ELF note that SystemTap, ctap,
 * gdb and bpftrace read: section .note.stapsdt, note name "stapsdt",
 * type 3, whose descriptor is three address-size words (the nop's
 * address, the link-time address of _.stapsdt.base, the semaphore's
 * address or 0) and then the provider, the name and the arguments, each
 * NUL-terminated.  Each argument is "[-]SIZE@OPERAND": its size in bytes,
 * negative when signed, and where the value is at the nop, in the
 * assembler's syntax (%edi, -4(%rbp), $5, sym(%rip)).  A program that
 * defines _SDT_HAS_SEMAPHORES (as headers written by `dtrace -h` do) gets
 * each probe's unsigned short semaphore PROVIDER_NAME_semaphore, in
 * section .probes, named in the note: a tracer counts it up while it
 * listens, so PROVIDER_NAME_ENABLED() can guard costly arguments.
 * The arguments are evaluated only as asm operands: a probe costs one nop.
 *
 * A kernel module includes it the same way (kbuild: ccflags-y :=
 * -I<the directory holding sys/>): the .ko keeps .note.stapsdt (not
 * loaded: the kernel ignores it), its pc fields relocated against the
 * module's text, which module("M").mark("NAME") reads.  Semaphores are
 * for programs only: a module's markers have none.
 */
#ifndef _SYS_SDT_H
#define _SYS_SDT_H 1

#define _SDT_NOTE_TYPE 3

#if defined(__LP64__) || defined(_LP64)
#define _SDT_ASM_ADDR ".8byte"
#else
#define _SDT_ASM_ADDR ".4byte"
#endif

#define _SDT_STR_(x) #x
#define _SDT_STR(x) _SDT_STR_(x)

#if defined(_SDT_HAS_SEMAPHORES) && !defined(__KERNEL__)	/* weak: 0 where a probe has none */
#define _SDT_SEMAPHORE(provider, name) \
	".weak " _SDT_STR(provider) "_" _SDT_STR(name) "_semaphore\n\t" \
	_SDT_ASM_ADDR " " _SDT_STR(provider) "_" _SDT_STR(name) "_semaphore\n"
#else
#define _SDT_SEMAPHORE(provider, name) _SDT_ASM_ADDR " 0\n"
#endif

/* An argument's size, negative when its type is signed; a pointer (or an
 * array, which decays) is an address. */
#ifdef __cplusplus
#include <type_traits>
#define _SDT_ISPTR(x) (std::is_pointer<typename std::decay<__typeof__(x)>::type>::value)
#define _SDT_SIGNED(x) (std::is_signed<typename std::decay<__typeof__(x)>::type>::value)
#else
#define _SDT_ISPTR(x) (__builtin_classify_type(x) == 5)
#define _SDT_ARITH(x) __typeof__(__builtin_choose_expr(_SDT_ISPTR(x), 0, (x)))
#define _SDT_SIGNED(x) (!_SDT_ISPTR(x) && (_SDT_ARITH(x))-1 < (_SDT_ARITH(x))1)
#endif
#define _SDT_SIZE(x) (_SDT_ISPTR(x) ? (int)sizeof(void *) : (int)sizeof(x))
#define _SDT_ARGSIZE(x) (_SDT_SIGNED(x) ? -_SDT_SIZE(x) : _SDT_SIZE(x))

/* Operand N: its size as a constant, its value wherever it is. */
#define _SDT_OP(n, x) [_SDT_S##n] "n" (_SDT_ARGSIZE(x)), [_SDT_A##n] "nor" (x)

#define _SDT_NOTE(provider, name, args) \
	"990:\tnop\n" \
	"\t.pushsection .note.stapsdt,\"?\",\"note\"\n" \
	"\t.balign 4\n" \
	"\t.4byte 992f-991f, 994f-993f, " _SDT_STR(_SDT_NOTE_TYPE) "\n" \
	"991:\t.asciz \"stapsdt\"\n" \
	"992:\t.balign 4\n" \
	"993:\t" _SDT_ASM_ADDR " 990b\n" \
	"\t" _SDT_ASM_ADDR " _.stapsdt.base\n" \
	"\t" _SDT_SEMAPHORE(provider, name) \
	"\t.asciz \"" _SDT_STR(provider) "\"\n" \
	"\t.asciz \"" _SDT_STR(name) "\"\n" \
	"\t.asciz \"" args "\"\n" \
	"994:\t.balign 4\n" \
	"\t.popsection\n" \
	"\t.ifndef _.stapsdt.base\n" \
	"\t.pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
	"\t.weak _.stapsdt.base\n" \
	"\t.hidden _.stapsdt.base\n" \
	"_.stapsdt.base:\n" \
	"\t.space 1\n" \
	"\t.size _.stapsdt.base, 1\n" \
	"\t.popsection\n" \
	"\t.endif\n"

#define _SDT_ARG(n) "%c[_SDT_S" #n "]@%[_SDT_A" #n "]"

#define STAP_PROBE(provider, name) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, "") :: )
#define STAP_PROBE0(provider, name) STAP_PROBE(provider, name)
#define STAP_PROBE1(provider, name, a1) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1)) \
		:: _SDT_OP(1, a1))
#define STAP_PROBE2(provider, name, a1, a2) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2))
#define STAP_PROBE3(provider, name, a1, a2, a3) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3))
#define STAP_PROBE4(provider, name, a1, a2, a3, a4) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4))
#define STAP_PROBE5(provider, name, a1, a2, a3, a4, a5) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5))
#define STAP_PROBE6(provider, name, a1, a2, a3, a4, a5, a6) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6))
#define STAP_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6) " " _SDT_ARG(7)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6), _SDT_OP(7, a7))
#define STAP_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6) " " _SDT_ARG(7) " " _SDT_ARG(8)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6), _SDT_OP(7, a7), _SDT_OP(8, a8))
#define STAP_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6) " " _SDT_ARG(7) " " _SDT_ARG(8) " " _SDT_ARG(9)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6), _SDT_OP(7, a7), _SDT_OP(8, a8), _SDT_OP(9, a9))
#define STAP_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6) " " _SDT_ARG(7) " " _SDT_ARG(8) " " _SDT_ARG(9) " " _SDT_ARG(10)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6), _SDT_OP(7, a7), _SDT_OP(8, a8), _SDT_OP(9, a9), _SDT_OP(10, a10))
#define STAP_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6) " " _SDT_ARG(7) " " _SDT_ARG(8) " " _SDT_ARG(9) " " _SDT_ARG(10) " " _SDT_ARG(11)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6), _SDT_OP(7, a7), _SDT_OP(8, a8), _SDT_OP(9, a9), _SDT_OP(10, a10), _SDT_OP(11, a11))
#define STAP_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	__asm__ __volatile__(_SDT_NOTE(provider, name, _SDT_ARG(1) " " _SDT_ARG(2) " " _SDT_ARG(3) " " _SDT_ARG(4) " " _SDT_ARG(5) " " _SDT_ARG(6) " " _SDT_ARG(7) " " _SDT_ARG(8) " " _SDT_ARG(9) " " _SDT_ARG(10) " " _SDT_ARG(11) " " _SDT_ARG(12)) \
		:: _SDT_OP(1, a1), _SDT_OP(2, a2), _SDT_OP(3, a3), _SDT_OP(4, a4), _SDT_OP(5, a5), _SDT_OP(6, a6), _SDT_OP(7, a7), _SDT_OP(8, a8), _SDT_OP(9, a9), _SDT_OP(10, a10), _SDT_OP(11, a11), _SDT_OP(12, a12))

/* STAP_PROBEV(provider, name, args...): the number of arguments counted. */
#define _SDT_NARG(...) \
	_SDT_NARG_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, _, _)
#define _SDT_NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, \
		   a14, n, ...) n
#define _SDT_CAT_(a, b) a##b
#define _SDT_CAT(a, b) _SDT_CAT_(a, b)
#define STAP_PROBEV(...) _SDT_CAT(STAP_PROBE, _SDT_NARG(__VA_ARGS__))(__VA_ARGS__)

/* DTrace's names for the same. */
#define DTRACE_PROBE(provider, name) STAP_PROBE(provider, name)
#define DTRACE_PROBE1(provider, name, a1) \
	STAP_PROBE1(provider, name, a1)
#define DTRACE_PROBE2(provider, name, a1, a2) \
	STAP_PROBE2(provider, name, a1, a2)
#define DTRACE_PROBE3(provider, name, a1, a2, a3) \
	STAP_PROBE3(provider, name, a1, a2, a3)
#define DTRACE_PROBE4(provider, name, a1, a2, a3, a4) \
	STAP_PROBE4(provider, name, a1, a2, a3, a4)
#define DTRACE_PROBE5(provider, name, a1, a2, a3, a4, a5) \
	STAP_PROBE5(provider, name, a1, a2, a3, a4, a5)
#define DTRACE_PROBE6(provider, name, a1, a2, a3, a4, a5, a6) \
	STAP_PROBE6(provider, name, a1, a2, a3, a4, a5, a6)
#define DTRACE_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7) \
	STAP_PROBE7(provider, name, a1, a2, a3, a4, a5, a6, a7)
#define DTRACE_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8) \
	STAP_PROBE8(provider, name, a1, a2, a3, a4, a5, a6, a7, a8)
#define DTRACE_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	STAP_PROBE9(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define DTRACE_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	STAP_PROBE10(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define DTRACE_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	STAP_PROBE11(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define DTRACE_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	STAP_PROBE12(provider, name, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#endif
