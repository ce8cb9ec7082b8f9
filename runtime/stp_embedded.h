/* stp_embedded.h - the kernel headers embedded C that is not the tapset
 * library's sees: a -g script's own %{ %} code, and tapsets of the user's
 * own (-I).  Such code was written against stap, whose generated module
 * includes the memory manager's, the file system's, kprobes' and the
 * symbol table's headers, and may use what they declare without including
 * them.  The library's own code includes what it uses instead, so that a
 * script without such code compiles the small set (stp_compat.h's note). */
#ifndef STP_EMBEDDED_H
#define STP_EMBEDDED_H

#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>

#define STP_COMPAT_MM
#include "stp_compat.h"	/* its second part: mm, page cache, uprobes */

#endif /* STP_EMBEDDED_H */
