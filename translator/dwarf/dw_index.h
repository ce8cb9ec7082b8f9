/* dw_index.h - the function index of a debug file, built once per build-id.
 *
 * One record per out-of-line function, per inline instance and per
 * function the ELF symbol table has without DWARF (asm), sorted by name
 * (records of one name in DWARF order), with one string table.  Built from
 * the DWARF by threads over the compilation units, saved as
 * DIR/BUILDID.idx and memory-mapped on later loads.  What the index does
 * not hold (line tables, variables, types) is read lazily from the DWARF
 * through the CU and DIE offsets of a record.
 */
#ifndef DW_INDEX_H
#define DW_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
	DW_FN_INLINE = 1 << 0,		/* an inline instance
					   (DW_TAG_inlined_subroutine) */
	DW_FN_DECL_INLINE = 1 << 1,	/* declared inline (DW_AT_inline) */
	DW_FN_EXTERNAL = 1 << 2,	/* DW_AT_external */
	DW_FN_EXPORTED = 1 << 3,	/* a global or weak STT_FUNC of its
					   name in the symbol table */
	DW_FN_PART = 1 << 4,		/* the symbol at its pc is a .part. */
	DW_FN_COLD = 1 << 5,		/* ... or a .cold */
	DW_FN_BAD_SECTION = 1 << 6,	/* pc in .init., .exit. & co. */
	DW_FN_SYMTAB = 1 << 7,		/* a symbol without DWARF (no file,
					   line, CU, DIE) */
	DW_FN_RANGES = 1 << 8,		/* no low_pc: pc is its first range's
					   (a hot part with a .cold one) */
	DW_FN_ALIAS = 1 << 9,		/* DW_FN_SYMTAB: another name of the
					   out-of-line function at its pc
					   (origin: that record's place) */
};

struct dw_func {
	uint32_t name;		/* string offsets (dw_index_str) */
	uint32_t file;		/* decl file; 0: none ("") */
	uint32_t line;		/* decl line; 0: none */
	uint32_t flags;		/* DW_FN_* */
	uint32_t pc_off;	/* entry pc (DW_AT_entry_pc, else low_pc,
				   else the first range) less the index's
				   base: dw_index_pc */
	uint32_t cu_off;	/* offset of its CU's DIE in .debug_info
				   (DW_FN_SYMTAB: the CU holding its pc, or
				   0) */
	uint32_t die_off;	/* its DIE's offset */
	uint32_t origin;	/* the DIE stap looks it up by: an inline
				   instance's abstract origin, else die_off;
				   DW_FN_ALIAS: its function's record
				   (dw_index_at) */
	uint32_t rank;		/* its name's place in stap 4.8's table of
				   its CU's functions (an unordered_multimap,
				   util/cxxhash.h), which a wildcard's
				   matches follow (DW_FN_ALIAS: its own
				   name's); UINT32_MAX: not there */
};

struct dw_index;

/* The index of debug file PATH: DIR/BUILDID.idx when it is there (and its
 * build-id is PATH's), else built from PATH and saved there (DIR created;
 * a DIR that cannot be written only costs the next run a rebuild;
 * DIR NULL: not saved).  A saved index this process reads is marked
 * used: its modification time set to now, and a shared flock(2) held on
 * it until the process exits (for the first 256 indexes), so that a
 * cache cleaner that takes LOCK_EX | LOCK_NB before removing one never
 * removes an index in use.  PROGRESS (or NULL): where a build reports
 * what it does.  NULL with a message in ERR. */
struct dw_index *dw_index_open(const char *path, const char *dir,
			       FILE *progress, char *err, size_t errlen);

struct dw_file;

/* The debug file it indexes, opened (dw_file.h) for what the index does
 * not hold; NULL if it cannot be read. */
struct dw_file *dw_index_file(const struct dw_index *ix);

/* The build-id (hex) of the debug file it indexes. */
const char *dw_index_build_id(const struct dw_index *ix);
/* The path of the debug file it indexes. */
const char *dw_index_path(const struct dw_index *ix);

size_t dw_index_count(const struct dw_index *ix);
/* F's entry pc, a file address. */
uint64_t dw_index_pc(const struct dw_index *ix, const struct dw_func *f);
const struct dw_func *dw_index_at(const struct dw_index *ix, size_t i);
const char *dw_index_str(const struct dw_index *ix, uint32_t off);
/* The names of the functions defined without code (abstract inline ones,
 * functions merged into another), each once; a name may also be a
 * record's.  stap suggests them for a function that does not exist. */
size_t dw_index_nocode_count(const struct dw_index *ix);
const char *dw_index_nocode_name(const struct dw_index *ix, size_t i);
/* The size of its string table (string offsets are below it). */
size_t dw_index_strsize(const struct dw_index *ix);

/* The records named NAME: [*first, *first + n); returns n. */
size_t dw_index_lookup(const struct dw_index *ix, const char *name,
		       size_t *first);

/* Does FILE (a decl file, as DWARF names it) match the file pattern PAT
 * as stap matches one: a glob over the whole name, or over a tail of it
 * after a '/' (stap's implicit "*" + "/")? */
int dw_file_matches(const char *pat, const char *file);

/* The callees stap 4.8's .callees finds in function or inline instance
 * F, right in it (in its lexical blocks, not in other instances), in
 * DWARF order: the inline instances that are one range (DW_AT_low_pc; an
 * instance with DW_AT_ranges is not one), FN(ARG, its name, its DIE
 * offset, 0); and the functions called out of line where gcc records a
 * GNU call site (DWARF 4: 5.10's; stap 4.8 reads no DWARF 5
 * DW_TAG_call_site), FN(ARG, the callee's name, the DIE its
 * DW_AT_abstract_origin names (a definition or a declaration), the call's
 * return address).  -1 without the DWARF. */
typedef void dw_callee_fn(void *arg, const char *name, uint64_t die_off,
			  uint64_t ret_pc);
int dw_index_callees(const struct dw_index *ix, const struct dw_func *f,
		     dw_callee_fn *fn, void *arg);
/* Is F's body one range (DW_AT_low_pc, not DW_AT_ranges: a function gcc
 * split into hot and .cold parts is not)?  stap 4.8's .callees leaves out
 * a function called out of line that is not, as it does an inline
 * instance.  0 also without the DWARF. */
int dw_index_one_range(const struct dw_index *ix, const struct dw_func *f);

/* Statement probes: the functions of one CU a point matched, in the
 * order they are searched (out-of-line bodies, then inline instances). */
struct dw_stmt_func {
	uint64_t die_off;	/* its DIE */
	uint64_t pc;		/* its entry pc (file address) */
	int decl_line;
	int in_file;		/* declared in the source file searched */
};

enum dw_lines {
	DW_LINES_ALL,		/* :* */
	DW_LINES_ONE,		/* :L1 */
	DW_LINES_RELATIVE,	/* +L1 from each function's declaration */
	DW_LINES_RANGE,		/* :L1-L2 */
};

/* The statement lines of SRCFILE (a file name as the CU's line table
 * names it) in the CU at CU_OFF, as stap finds them: for each function
 * in_file, each wanted line at the lowest address of its rows in the
 * function (:* walks the function's lines from the one at its entry pc
 * to the first that has no row in it); an address once only.  For each
 * address, FN(ARG, i, line, addr) for every function I of FUNCS that
 * holds it.  Returns how many addresses, -1 when the CU has no line
 * table; with none for DW_LINES_ONE or _RELATIVE, *BELOW and *ABOVE are
 * the nearest lines (within 5) that have rows, or 0. */
int dw_index_stmt_lines(const struct dw_index *ix, uint64_t cu_off,
			const char *srcfile, const struct dw_stmt_func *funcs,
			size_t n, enum dw_lines kind, int l1, int l2,
			void (*fn)(void *arg, size_t i, int line,
				   uint64_t addr),
			void *arg, int *below, int *above);

/* Where address PC (a file address) is: *CU_OFF its CU, *DIE_OFF the
 * innermost function holding it (0 if none).  Returns 1 when a line-table
 * row starts at PC, 0 when none does (*PREV: the nearest row start below
 * PC, or 0), -1 when no CU holds PC. */
int dw_index_addr_site(const struct dw_index *ix, uint64_t pc,
		       uint64_t *cu_off, uint64_t *die_off, uint64_t *prev);

/* The name of the ELF function symbol holding address PC of the indexed
 * file, and PC's offset from it in *OFF; NULL if none. */
const char *dw_index_addr_symbol(const struct dw_index *ix, uint64_t pc,
				 uint64_t *off);

#endif
