/* input.c - the script's stdin: input.char and input.line probes.
 *
 * A script with input probes has a procfs file __stdin in its
 * /proc/systemtap/MODULE directory (tapsets/input.stp).  Once the module
 * has started, stapio reads its own stdin and writes it to that file one
 * byte per write, so each byte is one hit of the probe.  stap asks for it
 * (staprun -i) when the script has input probes.  A terminal is put in
 * non-canonical mode without echo meanwhile (bytes come as typed, not by
 * lines), restored at exit.  At the end of stdin the relay stops.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>
#include "stapio.h"

static int input_fd = -1;		/* the module's __stdin */
static struct termios saved_tty;
static int tty_changed;

static void restore_tty(void)
{
	if (tty_changed)
		tcsetattr(0, TCSANOW, &saved_tty);
	tty_changed = 0;
}

void input_open(const char *module)
{
	char path[4200];
	struct termios t;

	snprintf(path, sizeof path, "/proc/systemtap/%s/__stdin", module);
	input_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (input_fd < 0)
		return;
	if (stapio_verbose)
		fprintf(stderr, "stapio: relaying stdin to %s\n", path);
	if (isatty(0) && !tcgetattr(0, &saved_tty)) {
		t = saved_tty;
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		if (!tcsetattr(0, TCSANOW, &t)) {
			tty_changed = 1;
			atexit(restore_tty);
		}
	}
}

int input_pollfd(struct pollfd *pfd)
{
	if (input_fd < 0)
		return 0;
	pfd->fd = 0;
	pfd->events = POLLIN;
	return 1;
}

/* What stdin has now, a byte a write; at its end (or an error) stop. */
void input_pump(const struct pollfd *pfd)
{
	char buf[256];
	ssize_t n, i;

	if (input_fd < 0 || !(pfd->revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	n = read(0, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	for (i = 0; i < n; i++)
		if (write(input_fd, buf + i, 1) < 0 && errno != EINTR)
			break;
	if (n <= 0)
		input_close();
}

void input_close(void)
{
	if (input_fd >= 0)
		close(input_fd);
	input_fd = -1;
	restore_tty();
}
