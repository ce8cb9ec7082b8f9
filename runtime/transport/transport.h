/* transport.h - the contract between the generated module and its transport.
 *
 * The generated module is one C file: it includes this header near the top,
 * defines stp_session_start() and stp_session_stop(), and includes
 * "module.c" at the end (which brings in the transport's implementation and
 * module_init/module_exit). Everything here is callable from any context
 * unless noted; nothing here sleeps except init and close.
 */
#ifndef _STP_TRANSPORT_H
#define _STP_TRANSPORT_H

#include <linux/types.h>
#include <linux/atomic.h>
#include "stp_msgs.h"

/* Provided by the transport. */
int _stp_transport_init(void);		/* from module_init; <0 fails the load */
void _stp_transport_close(void);	/* from module_exit; stops a live session */
/* Script output. One call's bytes stay together and in order with other
 * calls; if the buffer is full the whole call is dropped and counted. */
void _stp_transport_write(const char *buf, size_t len);
void _stp_transport_error(const char *msg);	/* "ERROR: msg" on stderr */
void _stp_transport_warn(const char *msg);	/* "WARNING: msg" on stderr */
void _stp_transport_system(const char *cmd);	/* stapio runs sh -c CMD */
/* Start the normal stop sequence (end probes, then exit) asynchronously. */
void _stp_transport_request_exit(void);
extern int _stp_target;		/* pid of -c CMD or -x PID, 0 if none */
extern int _stp_ns_pid;		/* staprun -N PID, 0 if none */
extern int64_t _stp_remote_id;	/* staprun -r N:URI: N, else -1 */
extern char _stp_remote_uri[STP_REMOTE_URI_LEN];	/* ... and URI, else "" */

/* stap 4.8 sends errors and warnings in 384-byte control messages that
 * hold the "ERROR: " or "WARNING: " prefix and a newline: longer texts
 * are cut to what fits. */
#define STP_CTL_MSG_SIZE 384

/* A message for stapio on the control channel (module.c's handshake). */
void _stp_ctl_send(uint32_t type, const void *data, size_t len);
extern atomic64_t _stp_transport_dropped;	/* writes that did not fit */
/* The transport's directory when it lives in procfs, else NULL (procfs
 * probes put their files beside it). */
extern struct proc_dir_entry *_stp_proc_dir;

/* Provided by the rest of the module; called in process context from the
 * transport's own ordered workqueue, never concurrently with each other. */
int stp_session_start(void);	/* <0 fails the run (already reported) */
void stp_session_stop(void);	/* exactly once if start was called */
/* A command stapio wrote to the control file (any process context). */
ssize_t _stp_ctl_write_cmd(const char __user *buf, size_t count);
/* -b: one data ring and file per CPU (a module parameter of module.c). */
extern bool _stp_bulkmode;

#endif /* _STP_TRANSPORT_H */
