/* stp_generated.h - the contract between a generated module and the runtime.
 *
 * Pass 3 (translator/emit/module.c) writes one C file per script; kbuild
 * compiles it with the -D options first (stap_defines.h, -include).  The
 * file is, in this order:
 *   1. the macros of "Before the runtime" below;
 *   2. #include "stp_runtime.h": the runtime's headers, this one among
 *      them (which checks those macros), and the probe entry (stp_probe.c);
 *   3. its own C: the kernel symbol table, embedded C, globals, frames and
 *      STP_FRAME_SIZE, functions and probe handlers, the definitions of
 *      "After the runtime" below, and each family's runtime side
 *      (#include "probes/<family>.c") with its stp_<family>_start/_stop;
 *   4. #include "stp_session.c": start and stop, which call part 3's
 *      hooks, then module.c (module_init/module_exit).
 * What part 2 gives part 3: the context, frames and probe record
 * (stp_context.h), errors and run-time checks (stp_error.h, stp_checks.h),
 * strings, fault-safe memory access (stp_mem.h, stp_kread.h), output
 * (stp_print.h, stp_printf.h), int64 module parameters (stp_params.h) and
 * the probe entry families call (stp_probe.c); on demand, part 3 includes
 * arrays and aggregates (stp_data.c), regexes, symbols and registers
 * (regex_match.h, sym.c, regs.c).  The hooks the runtime calls are
 * declared below and the tables it reads are checked at the top of
 * stp_session.c, so that the compiler sees both sides agree.
 * With STP_RT_SPLIT the transport, the printf formatter and the maps and
 * statistics are not included but linked, compiled apart once per kernel
 * (stp_rtlib.c): nothing in them may test a macro of this contract.
 */
#ifndef STP_GENERATED_H
#define STP_GENERATED_H

/* Before the runtime.  Required:
 *   STP_NUM_PROBES    entries of stp_probes[]
 *   STP_NUM_GLOBALS   the script's globals (lock indexes, -t's counts)
 *   STP_NUM_DISPLAYS  written-only globals printed at the end
 *   MAXNESTING        nested function calls allowed (#ifndef: -D wins)
 * Optional, each a stap option or a need of the script:
 *   STP_TIMING, with STP_DISPLAY_LOCATION (-t), STP_BULKMODE (-b),
 *   STP_NO_OVERLOAD and STP_SUPPRESS_TIME_LIMITS (--suppress-time-limits:
 *   no overload guard, MAXACTION or MAXTRYLOCK), STP_SUPPRESS_HANDLER_ERRORS
 *   (--suppress-handler-errors), STP_NEED_SYSTEM (system() is called).
 * The limits of stp_limits.h come only from -D. */
#ifndef STP_NUM_PROBES
#error "generated module: STP_NUM_PROBES must be defined before stp_runtime.h"
#endif
#ifndef STP_NUM_GLOBALS
#error "generated module: STP_NUM_GLOBALS must be defined before stp_runtime.h"
#endif
#ifndef STP_NUM_DISPLAYS
#error "generated module: STP_NUM_DISPLAYS must be defined before stp_runtime.h"
#endif
#ifndef MAXNESTING
#error "generated module: MAXNESTING must be defined before stp_runtime.h"
#endif
#if defined(STP_TIMING) && !defined(STP_DISPLAY_LOCATION)
#error "generated module: STP_TIMING needs STP_DISPLAY_LOCATION"
#endif

/* After the runtime, before any body: STP_FRAME_SIZE, the size of the
 * largest frame (the union of every probe's and function's frame struct);
 * _stp_frame_at() and the contexts' allocation use it.  Where needed:
 * STP_REGEX_CTX_SIZE (=~, regex_match.h), STP_KSYMS_N and its table
 * before sym.c (symbol names).  Then these tables:
 *   struct stp_probe stp_probes[STP_NUM_PROBES]: each probe's handler,
 *     names and locks (stp_context.h), and for every probe but begin,
 *     end, error and never its hit entry, which the families call on
 *     each hit: .run = stp_run_N, a function of its own that calls
 *     _stp_probe_hit (stp_probe.c) with its handler and lock table, or,
 *     in a script with many probes, _stp_probe_run_table (the handler
 *     and locks in the table);
 *   void (*const stp_global_displays[STP_NUM_DISPLAYS + 1])(struct
 *     context *): one function per written-only global, then NULL;
 *   with STP_TIMING, const char *const stp_global_cnames[STP_NUM_GLOBALS
 *     + 1]: stap's C names of the globals ("__global_x"), then NULL;
 * and these hooks: */

/* Initialize the globals' locks, arrays and aggregates at session start
 * (0 or -errno); free them at stop. */
static int stp_globals_init(void);
static void stp_globals_free(void);
/* Arm every family's probes, begin probes first (0 or -errno, with what
 * was armed disarmed again); disarm them in reverse order. */
static int stp_probes_start(void);
static void stp_probes_stop(void);

#endif
