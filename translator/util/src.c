/* src.c - reading script files into memory for the whole run.
 *
 * "-" reads standard input.  The text is kept in the arena so diagnostics
 * can quote any line of any file until the run ends.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "session.h"
#include "util/fileio.h"

const struct src_file *src_from_string(struct session *s, const char *name,
				       const char *text)
{
	struct src_file *f = ARENA_NEW(s->arena, struct src_file);

	f->name = arena_strdup(s->arena, name);
	f->len = strlen(text);
	f->text = arena_strndup(s->arena, text, f->len);
	f->is_user = 1;
	return f;
}

/* Read all of FP into the arena; NULL on a read error.  A regular file
 * is read straight into place. */
static char *slurp(struct session *s, FILE *fp, size_t *len)
{
	struct strbuf sb = {0};
	size_t n;
	char *text;
	struct stat st;

	if (!fstat(fileno(fp), &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		text = arena_alloc(s->arena, (size_t)st.st_size + 1);
		n = fread(text, 1, (size_t)st.st_size + 1, fp);
		if (n <= (size_t)st.st_size && !ferror(fp)) {
			*len = n;
			text[n] = '\0';
			return text;
		}
		if (ferror(fp))
			return NULL;
		rewind(fp);	/* it grew: read it the slow way (rewind
				   also empties the stream's buffer) */
	}

	if (fio_read_fd(fileno(fp), &sb)) {
		sb_free(&sb);
		return NULL;
	}
	*len = sb.len;
	text = arena_strndup(s->arena, sb.s ? sb.s : "", sb.len);
	sb_free(&sb);
	return text;
}

const struct src_file *src_read(struct session *s, const char *path,
				const char *shown_name)
{
	struct src_file *f;
	FILE *fp;
	int is_stdin = !strcmp(path, "-");

	fp = is_stdin ? stdin : fopen(path, "r");
	if (!fp) {
		diag_fatal(&s->diags, "cannot open script file '%s': %s", path,
			   strerror(errno));
		return NULL;
	}
	f = ARENA_NEW(s->arena, struct src_file);
	f->name = arena_strdup(s->arena, is_stdin ? "<input>" : shown_name);
	f->text = slurp(s, fp, &f->len);
	if (!is_stdin)
		fclose(fp);
	if (!f->text) {
		diag_fatal(&s->diags, "cannot read script file '%s': %s", path,
			   strerror(errno));
		return NULL;
	}
	f->is_user = 1;
	return f;
}
