/* fuzz_parse.c - libFuzzer target for pass 1.
 *
 * Each input is a user script (with -g, so embedded C is accepted and the
 * grammar behind it is reached), parsed without the tapset library and
 * printed back with the -p1 printer into /dev/null.  Diagnostics go to
 * /dev/null too.  Three script arguments are set so $1…$3 and @1…@3 paste.
 * Built and run by run-fuzz.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/dump.h"
#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	char *text;
	int i;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	memset(&s, 0, sizeof s);
	s.arena = arena_new();
	diag_init(&s.diags);
	s.diags.out = devnull;
	s.diags.color = 0;
	s.last_pass = 2;
	s.guru = 1;
	vec_push(s.arena, &s.args, "1 + x");
	vec_push(s.arena, &s.args, "str\"ing");
	vec_push(s.arena, &s.args, "kernel.function(\"f\")");
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	s.script = src_from_string(&s, "<fuzz>", text);
	free(text);
	if (pass_parse(&s) == 0)
		for (i = 0; i < s.user_files.n; i++)
			dump_file(devnull, s.user_files.v[i]);
	arena_free(s.arena);
	return 0;
}
