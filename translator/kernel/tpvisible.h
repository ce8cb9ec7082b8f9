/* tpvisible.h - which tracepoint headers stap 4.8 can read (tpvisible.c).
 *
 * stap 4.8 learns a header's tracepoints by compiling the header alone,
 * after a few common kernel headers, with warnings as errors: a header
 * that does not compile there gives it no tracepoint, though the kernel
 * may have them.  The catalog asks this module which headers those are.
 */
#ifndef TPVISIBLE_H
#define TPVISIBLE_H

struct tpvis;
struct kconfig;

/* A checker for the headers of the kernel tree whose build directory is
 * ROOTS[0] and whose sources are in ROOTS[1] (empty: the same), built
 * with CONFIG (NULL: unknown). */
struct tpvis *tpvis_new(const char roots[2][4096],
			const struct kconfig *config);

/* Whether the header PATH, whose text is TEXT, would compile in stap's
 * query: each file it includes is there, and every struct, union or enum
 * tag and every type name its TP_PROTOs use is declared by it or by what
 * the compile includes. */
int tpvis_compiles(struct tpvis *v, const char *path, const char *text);

/* Blank, in place, the lines of TEXT that an #if, #ifdef or #ifndef on
 * CONFIG_ options takes out for this kernel (other conditions are taken
 * as true), as the query's compile would not see them. */
void tpvis_blank_false(const struct tpvis *v, char *text);

#endif
