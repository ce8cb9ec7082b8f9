/* stp_runtime.h - everything a generated module includes first.
 *
 * The generated C file defines a few macros, includes this, then defines
 * its globals, frames, handlers and tables, and ends by including
 * stp_session.c: stp_generated.h states that contract.  Limits are in
 * stp_limits.h; the transport (output and control) in transport/.
 */
#ifndef STP_RUNTIME_H
#define STP_RUNTIME_H

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/delay.h>
#include <linux/vmalloc.h>
#include <linux/sched.h>
#include <linux/timex.h>
#include <linux/types.h>

#include "stp_limits.h"
#include "stp_compat.h"	/* the kernel's API (its first part: see there) */

enum {
	STP_SESSION_STARTING,
	STP_SESSION_RUNNING,
	STP_SESSION_STOPPING,
	STP_SESSION_STOPPED,
};

#include "transport/transport.h"
#include "stp_context.h"
#include "stp_generated.h"
#include "stp_owner.h"
#include "stp_string.h"
#include "stp_error.h"
#include "stp_mem.h"
#include "stp_kread.h"
#include "stp_checks.h"
#include "stp_pretty.h"
#include "stp_print.h"
#include "stp_printf.h"
#include "stp_params.h"
#ifdef STP_TIMING
#include "stp_timing.h"
#endif
#include "stp_probe.c"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SystemTap-compatible script module");

#endif
