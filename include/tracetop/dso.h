/* dso: one mapped object (executable, library, the kernel, a module, a JIT
 * area) with its symbols loaded lazily on first lookup and cached for the
 * whole run. DSOs live until dso_cache_free. The cache and every struct dso
 * belong to the loop thread; the lookups below load synchronously. The
 * sample path must not wait for a symbol table (tens of milliseconds for a
 * big library, more with demangling), so it loads ELF DSOs through a
 * dso_load_job on the worker thread instead (src/engine-defer.c). */
#ifndef TRACETOP_DSO_H
#define TRACETOP_DSO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracetop/symtab.h"

enum dso_kind {
	DSO_ELF,    /* a file we can open: executable or shared library */
	DSO_KERNEL, /* [kernel.kallsyms] */
	DSO_MODULE, /* [modname] */
	DSO_ANON,   /* anonymous / special mapping: [anon], [vdso] ([vdso] is ELF in memory, kept
	               unresolved), ... */
};

/* The longest build-id kept (GNU's are 20 bytes, SHA-1). */
#define DSO_BUILD_ID_MAX 32

/* A PT_LOAD segment: file offsets [off, off + filesz) are at vaddr. */
struct dso_seg {
	uint64_t off, vaddr, filesz;
};

struct dso {
	const char *name;       /* path or [bracketed] name, interned */
	const char *short_name; /* basename, for narrow columns */
	enum dso_kind kind;
	dev_t dev;
	ino_t ino;
	bool loaded;  /* symbols tried (even if that failed) */
	bool loading; /* a dso_load_job for it is out (its answer may still come) */
	bool located; /* its first mapper said where its file is (tasks_ns_locate) */
	bool has_syms;
	char *open_path;  /* where to read the file when not at name (a container's
	                     file through /proc/PID/root), or NULL; see dso_path */
	char *load_error; /* why there are no symbols, or NULL */
	char *debug_file; /* separate debug file used, or NULL */
	struct symtab syms;
	struct dso_seg *segs;
	size_t nsegs;
	/* a replay's stand-in (src/recframe.c): no file of this machine is
	 * read for it; its build-id is the recording's (0 bytes: none) */
	bool standin;
	uint8_t build_id_len;
	uint8_t build_id[DSO_BUILD_ID_MAX];
	struct dso *next; /* cache chain */
};

/* The DSO for a mapped file (same path, dev and ino give the same DSO). */
struct dso *dso_get(const char *path, dev_t dev, ino_t ino);

/* Whether d is the vDSO ("[vdso]": symbols from our own copy of the
 * kernel's image, offsets as in a file). */
bool dso_is_vdso(const struct dso *d);

/* The path to read a file DSO at: name, or where it was found for a
 * process in another mount namespace (dso_set_open_path). */
static inline const char *
dso_path(const struct dso *d)
{
	return d->open_path != NULL ? d->open_path : d->name;
}

/* Read d at path from now on: the first process that maps it from another
 * mount namespace tells where its file is. Set once (a load job in flight
 * may hold the string), before anything is read from the file. */
void dso_set_open_path(struct dso *d, const char *path);

/* The kernel, or a module by name (without brackets, as in sym.module). */
struct dso *dso_kernel(const char *module);

/* Directories searched for separate debug files (default /usr/lib/debug);
 * tests point it elsewhere. */
void dso_set_debug_root(const char *dir);

/* The kallsyms file dso_kernel_resolve reads (default /proc/kallsyms);
 * tests point it at a fixture. Takes effect before the first kernel load. */
void dso_set_kallsyms_path(const char *path);

/* Translate a file offset (from a mapping's pgoff) to the ELF address the
 * symbol table uses; for DSO_KERNEL/MODULE the address is returned as is.
 * Loads the DSO on first use. */
uint64_t dso_offset_to_addr(struct dso *d, uint64_t off);

/* Symbol at an address in the DSO's own space (after dso_offset_to_addr),
 * loading symbols on first use; NULL when unresolved. */
const struct sym *dso_find_sym(struct dso *d, uint64_t addr);

/* Load the DSO's symbols now unless tried already (a job in flight for it
 * is then discarded when it finishes). */
void dso_load_now(struct dso *d);

/* A load of an ELF DSO's symbols on another thread. dso_load_job_new marks
 * d loading; dso_load_job_run reads the file into the job's own storage
 * and touches no struct dso and no shared state, so it may run on the
 * worker. A stripped file with no local debug file has its debug file
 * downloaded by build-id (src/sym-debuginfod.c, when on): then, when
 * may_defer, run returns false to be called again later (with may_defer
 * false, or when it no longer waits for the network), so that the quick
 * jobs go first; otherwise it answers and returns true. Loads on the loop
 * thread (dso_load_now, the lookups) never download: they use only what
 * an earlier download left in debuginfod's cache. dso_load_job_finish,
 * back on the loop thread, installs the
 * answer into d, unless d was loaded synchronously meanwhile (then that
 * answer stands and the job's is freed). A job never finished (its worker
 * stopped first) is freed with dso_load_job_free. d must be DSO_ELF, not
 * loaded and not loading; new, finish and free on the loop thread only. */
struct dso_load_job;
struct dso_load_job *dso_load_job_new(struct dso *d);
bool dso_load_job_run(struct dso_load_job *j, bool may_defer);
/* Returns the job's DSO; the job is freed. */
struct dso *dso_load_job_finish(struct dso_load_job *j);
void dso_load_job_free(struct dso_load_job *j);

/* Kernel address to (DSO, symbol): loads /proc/kallsyms once. sym may come
 * back NULL with the kernel DSO. */
struct dso *dso_kernel_resolve(uint64_t addr, const struct sym **sym);

/* Free every DSO and reset the debug root and kallsyms path to defaults.
 * Not thread-safe: the cache belongs to one thread. */
void dso_cache_free(void);

#endif
