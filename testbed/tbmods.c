/* tbmods.c - modules for the testbed guest; see tbmods.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/elfsec.h"
#include "kernel/modtree.h"
#include "testbed/tbmods.h"

struct resolve {
	const char *dir;
	struct tb_module *v;
	int n, cap;
	char *err;
	size_t errlen;
};

/* The value of KEY in PATH's .modinfo ("key=value" strings), or NULL. */
static char *modinfo(const char *path, const char *key)
{
	size_t len, i, k = strlen(key);
	char *info = elfsec_read(path, ".modinfo", &len, NULL, 0), *v = NULL;

	for (i = 0; info && i < len; i += strlen(info + i) + 1)
		if (!strncmp(info + i, key, k) && info[i + k] == '=') {
			v = strndup(info + i + k + 1, len - i - k - 1);
			break;
		}
	free(info);
	return v;
}

static int add(struct resolve *rs, const char *name, const char *params,
	       int depth)
{
	char *path, *deps, *d, *save = NULL, *own = NULL;
	int i;

	for (i = 0; i < rs->n; i++)
		if (modtree_same_name(rs->v[i].name, name))
			return 0;
	if (depth > 32) {
		snprintf(rs->err, rs->errlen, "module dependencies of '%s' loop", name);
		return -1;
	}
	/* a path: a module built elsewhere (a test's own), named by its file */
	if (strchr(name, '/')) {
		char *dot;

		path = strdup(name);
		own = strdup(strrchr(name, '/') + 1);
		if ((dot = strstr(own, ".ko")))
			*dot = '\0';
		name = own;
	} else {
		path = modtree_find(rs->dir, name);
	}
	if (!path) {
		snprintf(rs->err, rs->errlen, "no module '%s' in %s", name, rs->dir);
		return -1;
	}
	deps = modinfo(path, "depends");
	for (d = deps ? strtok_r(deps, ",", &save) : NULL; d;
	     d = strtok_r(NULL, ",", &save))
		if (*d && add(rs, d, "", depth + 1)) {
			free(deps);
			free(path);
			return -1;
		}
	free(deps);
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 8;
		rs->v = realloc(rs->v, (size_t)rs->cap * sizeof *rs->v);
	}
	rs->v[rs->n].path = path;
	rs->v[rs->n].name = strdup(name);
	rs->v[rs->n].params = strdup(params);
	rs->n++;
	free(own);
	return 0;
}

char *tb_modules_probed(const char *ko)
{
	char *list = modinfo(ko, "ctap_modules"), *p;

	if (list && !*list) {
		free(list);
		return NULL;
	}
	for (p = list; p && *p; p++)
		if (*p == ',')
			*p = ' ';
	return list;
}

int tb_modules_resolve(const char *dir, const char *list,
		       struct tb_module **out, char *err, size_t errlen)
{
	struct resolve rs = { dir, NULL, 0, 0, err, errlen };
	char *copy = strdup(list), *word, *save = NULL, *p;

	for (word = strtok_r(copy, " \t\n", &save); word;
	     word = strtok_r(NULL, " \t\n", &save)) {
		char *colon = strchr(word, ':');
		if (colon) {
			*colon = '\0';
			for (p = colon + 1; *p; p++)
				if (*p == ':')
					*p = ' ';
		}
		if (add(&rs, word, colon ? colon + 1 : "", 0)) {
			free(copy);
			return -1;
		}
	}
	free(copy);
	*out = rs.v;
	return rs.n;
}
