/* dso: the cache of mapped objects and their lazily loaded symbols. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/dso.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-kernel.h"
#include "tracetop/util.h"

/* Zero-sized ELF symbols (hand-written assembly) reach at most this far. */
#define ELF_MAX_GAP 4096

#define KERNEL_NAME "[kernel.kallsyms]"
#define DEFAULT_KALLSYMS "/proc/kallsyms"
#define PAGE_MASK_4K (~(uint64_t)4095)

/* The cache: a chained hash table keyed by (interned name, dev, ino, kernel?). */
static struct dso **buckets;
static size_t nbuckets, ndsos;

static struct dso *kernel_dso;
static const char *last_module;     /* sym.module pointer last resolved... */
static struct dso *last_module_dso; /* ...and its DSO */

static char *debug_root;    /* NULL: sym-elf's default */
static char *kallsyms_path; /* NULL: /proc/kallsyms */

/* Whether a kind lives in the kernel's address space. */
static bool
kernel_kind(enum dso_kind kind)
{
	return kind == DSO_KERNEL || kind == DSO_MODULE;
}

/* Bucket hash of a key; names are interned, so their address identifies them. */
static uint64_t
key_hash(const char *name, dev_t dev, ino_t ino, bool kernel)
{
	uint64_t h = hash_mix(HASH_SEED, (uintptr_t)name);

	h = hash_mix(h, (uint64_t)dev);
	h = hash_mix(h, (uint64_t)ino);
	return hash_u64(hash_mix(h, kernel));
}

/* Double the bucket array and re-chain every DSO. */
static void
cache_grow(void)
{
	size_t n = nbuckets ? nbuckets * 2 : 256, i;
	struct dso **nb = xcalloc(n, sizeof *nb), *d, *next;
	uint64_t h;

	for (i = 0; i < nbuckets; i++) {
		for (d = buckets[i]; d != NULL; d = next) {
			next = d->next;
			h = key_hash(d->name, d->dev, d->ino, kernel_kind(d->kind));
			d->next = nb[h & (n - 1)];
			nb[h & (n - 1)] = d;
		}
	}
	free(buckets);
	buckets = nb;
	nbuckets = n;
}

/* The cached DSO for a key, or a new one of the given kind. */
static struct dso *
cache_get(const char *iname, dev_t dev, ino_t ino, enum dso_kind kind)
{
	bool kernel = kernel_kind(kind);
	uint64_t h;
	struct dso *d;
	const char *slash;

	if (ndsos >= nbuckets)
		cache_grow();
	h = key_hash(iname, dev, ino, kernel) & (nbuckets - 1);
	for (d = buckets[h]; d != NULL; d = d->next)
		if (d->name == iname && d->dev == dev && d->ino == ino &&
		    kernel_kind(d->kind) == kernel)
			return d;
	d = xcalloc(1, sizeof *d);
	d->name = iname;
	slash = strrchr(iname, '/');
	d->short_name = iname[0] != '[' && slash != NULL && slash[1] != '\0' ? slash + 1 : iname;
	d->kind = kind;
	d->dev = dev;
	d->ino = ino;
	symtab_init(&d->syms);
	d->next = buckets[h];
	buckets[h] = d;
	ndsos++;
	return d;
}

/* The kind a mapping's name implies. */
static enum dso_kind
kind_of(const char *name)
{
	if (name[0] == '\0' || name[0] == '[' || strncmp(name, "//anon", 6) == 0)
		return DSO_ANON;
	return DSO_ELF;
}

/* The DSO for a mapped file. */
struct dso *
dso_get(const char *path, dev_t dev, ino_t ino)
{
	if (path == NULL)
		path = "";
	return cache_get(str_intern(path), dev, ino, kind_of(path));
}

/* The kernel DSO or a module's. */
struct dso *
dso_kernel(const char *module)
{
	char buf[128], *name;
	struct dso *d;

	if (module == NULL) {
		if (kernel_dso == NULL)
			kernel_dso = cache_get(str_intern(KERNEL_NAME), 0, 0, DSO_KERNEL);
		return kernel_dso;
	}
	/* Module names are short (MODULE_NAME_LEN is 64): no allocation on the
	 * sample path unless one is not. */
	if ((size_t)snprintf(buf, sizeof buf, "[%s]", module) < sizeof buf)
		return cache_get(str_intern(buf), 0, 0, DSO_MODULE);
	name = xasprintf("[%s]", module);
	d = cache_get(str_intern(name), 0, 0, DSO_MODULE);
	free(name);
	return d;
}

/* Replace a setting string with a copy of value (NULL: the default). */
static void
set_string(char **slot, const char *value)
{
	free(*slot);
	*slot = value != NULL ? xstrdup(value) : NULL;
}

/* Whether d is the vDSO. */
bool
dso_is_vdso(const struct dso *d)
{
	return d->kind == DSO_ANON && strcmp(d->name, "[vdso]") == 0;
}

/* Where a container's DSO is read. */
void
dso_set_open_path(struct dso *d, const char *path)
{
	if (d->open_path == NULL && !d->loaded && !d->loading)
		d->open_path = xstrdup(path);
}

/* Where separate debug files are searched. */
void
dso_set_debug_root(const char *dir)
{
	set_string(&debug_root, dir);
}

/* Which kallsyms file the kernel DSO loads. */
void
dso_set_kallsyms_path(const char *path)
{
	set_string(&kallsyms_path, path);
}

/* An ELF file's symbols and segments, loaded into storage of their own:
 * the same code serves the loop thread and the worker. */
struct elf_load {
	struct symtab syms;
	struct dso_seg *segs;
	size_t nsegs;
	char *debug_file;
	char *error; /* why there are no symbols, or NULL */
};

/* Read path's symbols (debug files under root) into l, and whether a
 * debug file fetched by build-id would name more into *want (may be NULL);
 * touches nothing shared, so any thread may run it. */
static void
elf_load_read(struct elf_load *l, const char *path, const char *root, struct symelf_want *want)
{
	struct tt_err err;

	symtab_init(&l->syms);
	if (symelf_load_want(path, root, &l->syms, &l->segs, &l->nsegs, &l->debug_file, want,
	                     &err) != 0) {
		/* "no symbols" still gives the segments, for offsets */
		l->error = xstrdup(err.msg);
		symtab_free(&l->syms);
		return;
	}
	symtab_finish(&l->syms, ELF_MAX_GAP);
}

/* Hand a load's result over to d (l is left empty). */
static void
elf_load_install(struct dso *d, struct elf_load *l)
{
	d->syms = l->syms;
	d->segs = l->segs;
	d->nsegs = l->nsegs;
	d->debug_file = l->debug_file;
	d->load_error = l->error;
	d->has_syms = d->syms.n > 0;
	memset(l, 0, sizeof *l);
}

/* Free a load's result that nobody took. */
static void
elf_load_discard(struct elf_load *l)
{
	symtab_free(&l->syms);
	free(l->segs);
	free(l->debug_file);
	free(l->error);
	memset(l, 0, sizeof *l);
}

/* Load the symbols of an ELF DSO. */
static void
load_elf(struct dso *d)
{
	struct elf_load l;

	memset(&l, 0, sizeof l);
	/* here, on the loop thread, never a download: only one the worker
	 * already left in debuginfod's cache is used */
	elf_load_read(&l, dso_path(d), debug_root, NULL);
	elf_load_install(d, &l);
}

/* The vDSO's symbols, from our own copy of the kernel's image. */
static void
load_vdso(struct dso *d)
{
	struct tt_err err;

	if (symelf_load_vdso(&d->syms, &d->segs, &d->nsegs, &err) != 0) {
		d->load_error = xstrdup(err.msg);
		symtab_free(&d->syms);
		return;
	}
	symtab_finish(&d->syms, ELF_MAX_GAP);
	d->has_syms = d->syms.n > 0;
}

/* Try to load a DSO's symbols, once; failures are kept in load_error. */
static void
dso_load(struct dso *d)
{
	struct tt_err err;
	struct dso *k;

	d->loaded = true;
	switch (d->kind) {
	case DSO_ELF:
		load_elf(d);
		break;
	case DSO_KERNEL:
		if (symkernel_load_packed(kallsyms_path ? kallsyms_path : DEFAULT_KALLSYMS,
		                          &d->syms, &err) != 0)
			d->load_error = xstrdup(err.msg);
		else
			d->has_syms = d->syms.n > 0;
		break;
	case DSO_MODULE:
		/* Module symbols live in the kernel's table. */
		k = dso_kernel(NULL);
		if (!k->loaded)
			dso_load(k);
		d->has_syms = k->has_syms;
		if (k->load_error != NULL)
			d->load_error = xstrdup(k->load_error);
		break;
	case DSO_ANON:
		if (dso_is_vdso(d)) {
			load_vdso(d);
			break;
		}
		d->load_error = xasprintf("%s: anonymous or special mapping, no symbols",
		                          d->name[0] ? d->name : "(unnamed)");
		break;
	}
}

/* Load a DSO's symbols now, unless tried already. */
void
dso_load_now(struct dso *d)
{
	if (!d->loaded)
		dso_load(d);
}

/* A load of an ELF DSO's symbols, or of the kernel's, off the loop
 * thread. */
struct dso_load_job {
	struct dso *d;    /* touched on the loop thread only */
	const char *path; /* dso_path(d): it outlives the job (never freed before the cache) */
	char *debug_root; /* a copy: dso_set_debug_root frees the setting's string */
	struct elf_load l;
	bool read;               /* l holds the file's own answer */
	struct symelf_want want; /* and whether a download would name more */
	bool kernel;             /* the kernel: kallsyms into ksyms, or kerr */
	char *kallsyms;          /* a copy of the kallsyms setting's path */
	struct symtab ksyms;
	char *kerr;
};

/* Start a load of d for another thread. */
struct dso_load_job *
dso_load_job_new(struct dso *d)
{
	struct dso_load_job *j = xcalloc(1, sizeof *j);

	j->d = d;
	d->loading = true;
	if (d->kind == DSO_KERNEL) {
		j->kernel = true;
		j->kallsyms = xstrdup(kallsyms_path ? kallsyms_path : DEFAULT_KALLSYMS);
		return j;
	}
	j->path = dso_path(d);
	j->debug_root = debug_root != NULL ? xstrdup(debug_root) : NULL;
	return j;
}

/* Read the job's file: only the job's own storage is written. A stripped
 * file's debug file is then downloaded by build-id (debuginfod), once the
 * quick jobs are done, and the names read from it. */
bool
dso_load_job_run(struct dso_load_job *j, bool may_defer)
{
	char *fetched;
	struct tt_err err;

	if (j->kernel) {
		if (!j->read && symkernel_load_packed(j->kallsyms, &j->ksyms, &err) != 0)
			j->kerr = xstrdup(err.msg);
		j->read = true;
		return true;
	}
	if (!j->read) {
		elf_load_read(&j->l, j->path, j->debug_root, &j->want);
		j->read = true;
	}
	if (!j->want.debug || !symdbg_wanted(j->want.build_id, j->want.build_id_len))
		return true;
	if (may_defer)
		return false;
	j->want.debug = false;
	fetched = symdbg_fetch(j->want.build_id, j->want.build_id_len, j->path);
	if (fetched == NULL)
		return true;
	free(fetched);
	/* the download is in the client's cache now, where the debug file
	 * search looks last */
	elf_load_discard(&j->l);
	elf_load_read(&j->l, j->path, j->debug_root, NULL);
	return true;
}

/* Free a job and what it holds; its DSO is no longer loading. */
void
dso_load_job_free(struct dso_load_job *j)
{
	if (j == NULL)
		return;
	j->d->loading = false;
	elf_load_discard(&j->l);
	symtab_free(&j->ksyms);
	free(j->kerr);
	free(j->kallsyms);
	free(j->debug_root);
	free(j);
}

/* Install a job's answer, unless a synchronous load came first. */
struct dso *
dso_load_job_finish(struct dso_load_job *j)
{
	struct dso *d = j->d;

	if (!d->loaded && j->kernel) {
		d->loaded = true;
		d->syms = j->ksyms; /* moved: the job frees an empty table */
		memset(&j->ksyms, 0, sizeof j->ksyms);
		d->has_syms = d->syms.n > 0;
		d->load_error = j->kerr;
		j->kerr = NULL;
	} else if (!d->loaded) {
		d->loaded = true;
		elf_load_install(d, &j->l);
	}
	dso_load_job_free(j);
	return d;
}

/* Map a file offset to the DSO's symbol address space via PT_LOAD. */
uint64_t
dso_offset_to_addr(struct dso *d, uint64_t off)
{
	const struct dso_seg *s;
	size_t i;

	if (d->kind != DSO_ELF && !dso_is_vdso(d))
		return off;
	if (!d->loaded)
		dso_load(d);
	for (i = 0; i < d->nsegs; i++) {
		s = &d->segs[i];
		if (off >= s->off && off - s->off < s->filesz)
			return off - s->off + s->vaddr;
	}
	/* The mapping starts at the page holding the segment's first byte. */
	for (i = 0; i < d->nsegs; i++) {
		s = &d->segs[i];
		if (off >= (s->off & PAGE_MASK_4K) && off < s->off && s->off - off <= s->vaddr)
			return s->vaddr - (s->off - off);
	}
	return off;
}

/* Whether a kernel symbol belongs to a module DSO "[name]". */
static bool
module_owns(const struct dso *d, const struct sym *s)
{
	size_t len = strlen(d->name) - 2;

	return s->module != NULL && strncmp(s->module, d->name + 1, len) == 0 &&
	       s->module[len] == '\0';
}

/* Symbol lookup in a DSO: after the first call, one binary search. */
const struct sym *
dso_find_sym(struct dso *d, uint64_t addr)
{
	const struct sym *s;

	if (!d->loaded)
		dso_load(d);
	if (!d->has_syms)
		return NULL;
	if (d->kind == DSO_MODULE) {
		s = symtab_lookup(&kernel_dso->syms, addr);
		return s != NULL && module_owns(d, s) ? s : NULL;
	}
	return symtab_lookup(&d->syms, addr);
}

/* Kernel address to its DSO (kernel or module) and symbol. */
struct dso *
dso_kernel_resolve(uint64_t addr, const struct sym **sym)
{
	struct dso *k = dso_kernel(NULL);
	const struct sym *s = dso_find_sym(k, addr);

	*sym = s;
	if (s == NULL || s->module == NULL)
		return k;
	if (s->module != last_module) {
		last_module_dso = dso_kernel(s->module);
		last_module = s->module;
	}
	return last_module_dso;
}

/* Free every DSO and the settings. */
void
dso_cache_free(void)
{
	struct dso *d, *next;
	size_t i;

	for (i = 0; i < nbuckets; i++) {
		for (d = buckets[i]; d != NULL; d = next) {
			next = d->next;
			symtab_free(&d->syms);
			free(d->segs);
			free(d->load_error);
			free(d->open_path);
			free(d->debug_file);
			free(d);
		}
	}
	free(buckets);
	buckets = NULL;
	nbuckets = ndsos = 0;
	kernel_dso = NULL;
	last_module = NULL;
	last_module_dso = NULL;
	set_string(&debug_root, NULL);
	set_string(&kallsyms_path, NULL);
}
