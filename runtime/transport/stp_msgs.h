/* stp_msgs.h - the control-channel protocol between a module and stapio.
 *
 * Included by the kernel side (runtime/transport/) and by stapio, so it uses
 * only fixed-width types. The control file (".cmd" in the module's transport
 * directory) carries framed messages: a struct stp_msg_hdr, then hdr.len
 * payload bytes. Reads return a byte stream of whole or partial messages
 * (stapio reassembles them); each write must hold exactly one whole command.
 * The data file "trace0" carries raw script output with no framing.  In
 * bulk mode (one file per CPU, "trace0", "trace1"..) each write is a record
 * as stap-merge reads it: struct stp_bulk_hdr, then len bytes; seq orders
 * the records of all CPUs.
 */
#ifndef STP_MSGS_H
#define STP_MSGS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#define STP_TRANSPORT_ROOT	"systemtap"	/* directory in debugfs or /proc */
#define STP_CTL_NAME		".cmd"
#define STP_DATA_PREFIX		"trace"		/* trace0, trace1, ... */
#define STP_DEFAULT_BUFSIZE_MB	16		/* per data ring, as stap 4.8's; staprun
					   -b (stap -s) overrides */
#define STP_MAX_BUFSIZE_MB	4095
#define STP_MSG_MAX_PAYLOAD	2048		/* longer texts are truncated */

enum stp_msg_type {
	/* stapio -> module */
	STP_CMD_START = 1,	/* struct stp_cmd_start: run begin, arm probes */
	STP_CMD_STOP,		/* no payload: stop the session (idempotent) */
	STP_CMD_ATTACH,		/* no payload: report the state (staprun -A) */

	/* module -> stapio */
	STP_MSG_STARTED = 16,	/* struct stp_msg_started */
	STP_MSG_STOPPED,	/* struct stp_msg_stopped: all output is queued */
	STP_MSG_ERROR,		/* text, no trailing newline */
	STP_MSG_WARNING,	/* text, no trailing newline */
	STP_MSG_STATE,		/* struct stp_msg_state: answer to ATTACH */
	STP_MSG_REQUEST_EXIT,	/* no payload: the script asked to stop; stapio
				   answers with STP_CMD_STOP, so end probes run
				   in stapio's context, as begin probes do */
	STP_MSG_SYSTEM,		/* text: a command for stapio to run (system()) */
};

struct stp_bulk_hdr {
	uint32_t seq;		/* from 1, across all CPUs */
	uint32_t len;		/* bytes of output that follow */
};

struct stp_msg_hdr {
	uint32_t type;		/* enum stp_msg_type */
	uint32_t len;		/* payload bytes that follow */
};

#define STP_REMOTE_URI_LEN 128

struct stp_cmd_start {
	int32_t target;		/* pid for target(), 0 if none */
	int32_t ns_pid;		/* staprun -N: the ns_*() functions number ids
				   in this pid's namespaces; 0: stapio's */
	int32_t remote_id;	/* staprun -r N:URI: remote_id(), else -1 */
	int32_t pad;
	char remote_uri[STP_REMOTE_URI_LEN];	/* remote_uri(), NUL-ended */
};

struct stp_msg_started {
	int32_t result;		/* 0, or the negative errno of a failed start */
	int32_t pad;
};

struct stp_msg_stopped {
	uint64_t dropped;	/* writes lost to full buffers (transport failures) */
};

enum stp_session_state {
	STP_STATE_LOADED,	/* waiting for STP_CMD_START */
	STP_STATE_STARTING,
	STP_STATE_RUNNING,
	STP_STATE_STOPPING,
	STP_STATE_STOPPED,
};

struct stp_msg_state {
	int32_t state;		/* enum stp_session_state */
	int32_t pad;
};

#endif /* STP_MSGS_H */
