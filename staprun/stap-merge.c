/* stap-merge.c - put a bulk-mode run's per-CPU output files back in order.
 *
 * stap -b writes one file per CPU (stpd_cpuN, or FILE_cpuN with -o FILE);
 * each holds records of struct stp_bulk_hdr (sequence number, length) and
 * the output bytes.  stap-merge copies the records' bytes to one output in
 * sequence order, as stap's stap-merge does, with the same command line:
 *   stap-merge [-v] [-o OUTPUT] FILE...
 * -v also prints each record's source ("[CPU:N, seq=S, length=L]", N the
 * file's position among the arguments).  A missing sequence number (a
 * record lost to a full buffer) is reported on stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stp_msgs.h"

struct merge_in {
	FILE *f;
	struct stp_bulk_hdr hdr;	/* the next record's */
	int more;			/* hdr is valid */
};

static void merge_usage(const char *prog)
{
	fprintf(stderr, "%s [-v] [-o output_filename] input_files ...\n", prog);
}

static void merge_next(struct merge_in *in)
{
	in->more = fread(&in->hdr, sizeof(in->hdr), 1, in->f) == 1;
}

/* Copy LEN bytes of IN to OUT; 0, or -1 if the file ends early. */
static int merge_copy(struct merge_in *in, FILE *out, uint32_t len)
{
	char buf[65536];
	size_t n;

	while (len) {
		n = fread(buf, 1, len < sizeof(buf) ? len : sizeof(buf), in->f);
		if (!n)
			return -1;
		fwrite(buf, 1, n, out);
		len -= (uint32_t)n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct merge_in *in;
	FILE *out = stdout;
	uint32_t last = 0;
	int c, i, n, best, verbose = 0;

	while ((c = getopt(argc, argv, "vo:")) != -1) {
		if (c == 'v') {
			verbose = 1;
		} else if (c == 'o') {
			out = fopen(optarg, "w");
			if (!out) {
				fprintf(stderr, "error opening output file %s.\n", optarg);
				return -1;
			}
		} else {
			merge_usage(argv[0]);
			return -1;
		}
	}
	n = argc - optind;
	if (n < 1) {
		merge_usage(argv[0]);
		return -1;
	}
	in = calloc((size_t)n, sizeof(*in));
	if (!in)
		return -1;
	for (i = 0; i < n; i++) {
		in[i].f = fopen(argv[optind + i], "r");
		if (!in[i].f) {
			fprintf(stderr, "error opening file %s.\n", argv[optind + i]);
			return -1;
		}
		merge_next(&in[i]);
	}
	for (;;) {
		best = -1;
		for (i = 0; i < n; i++)
			if (in[i].more && (best < 0 || in[i].hdr.seq < in[best].hdr.seq))
				best = i;
		if (best < 0)
			break;
		if (in[best].hdr.seq > last + 1) {
			fprintf(stderr, "got %u. expected %u\n", in[best].hdr.seq,
				last + 1);
		}
		last = in[best].hdr.seq;
		if (verbose)
			fprintf(out, "[CPU:%d, seq=%u, length=%u]\n", best,
				in[best].hdr.seq, in[best].hdr.len);
		if (merge_copy(&in[best], out, in[best].hdr.len) < 0) {
			fprintf(stderr, "file %s ends inside a record.\n",
				argv[optind + best]);
			return -1;
		}
		merge_next(&in[best]);
	}
	return fclose(out) ? -1 : 0;
}
