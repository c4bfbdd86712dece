/* probe-resolve: a parsed SPEC to what tracefs takes: the binary found
 * and its function turned into a file offset (uprobes), the kernel
 * function checked against kallsyms (kprobes), the kernel's support
 * checked, the arguments' names translated (DWARF, BTF); and the listing
 * of what is visible at a probe point (--probe-vars). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/probe.h"
#include "tracetop/sym-demangle.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-kernel.h"
#include "tracetop/sym-name.h"
#include "tracetop/symtab.h"
#include "tracetop/tracefs.h"

#define KALLSYMS "/proc/kallsyms"

/* Library directories searched for a bare library name. */
static const char *const lib_dirs[] = {
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
    "/usr/local/lib",
};

/* Whether the kernel can make probes of kind k. */
bool
probe_kind_supported(enum probe_kind k, struct tt_err *err)
{
	const char *dir = tt_tracefs_dir();
	bool kernel = k == PROBE_KPROBE || k == PROBE_KRETPROBE;
	char path[PATH_MAX];

	if (dir == NULL)
		return err_set(err, "tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT) == 0;
	snprintf(path, sizeof path, "%s/%s", dir, kernel ? "kprobe_events" : "uprobe_events");
	if (access(path, F_OK) == 0)
		return true;
	if (kernel)
		err_set(err,
		        "kprobes are not available: this kernel was built without "
		        "CONFIG_KPROBE_EVENTS (there is no %s); uprobes (BINARY:FUNC) still work",
		        path);
	else
		err_set(err,
		        "uprobes are not available: this kernel was built without "
		        "CONFIG_UPROBE_EVENTS (there is no %s)",
		        path);
	return false;
}

/* The basename of a path. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The canonical path of an existing regular file, or NULL. */
static char *
real_file(const char *path)
{
	char *real = realpath(path, NULL);
	struct stat sb;

	if (real != NULL && (stat(real, &sb) != 0 || !S_ISREG(sb.st_mode))) {
		free(real);
		real = NULL;
	}
	return real;
}

/* The path of a container's file: path as process pid sees it, through
 * /proc/PID/root (not canonicalized: that would leave the container's
 * root), when pid lives in another mount namespace and it is a regular
 * file there; else NULL. The kernel and our ELF readers follow it. */
static char *
container_file(int pid, const char *path)
{
	struct stat sb;
	char *via;

	if (path[0] != '/' || !mntns_foreign("/proc", pid))
		return NULL;
	via = xasprintf("/proc/%d/root%s", pid, path);
	if (stat(via, &sb) == 0 && S_ISREG(sb.st_mode))
		return via;
	free(via);
	return NULL;
}

/* A path process pid maps, as we can read it. */
char *
probe_local_path(int pid, const char *path)
{
	char *via = container_file(pid, path);

	return via != NULL ? via : xstrdup(path);
}

/* path as one of the targets sees it, if one is in a container. */
static char *
targets_file(const char *path, const struct probe_ctx *ctx)
{
	char *found = NULL;

	for (size_t i = 0; ctx != NULL && i < ctx->npids && found == NULL; i++)
		found = container_file(ctx->pids[i], path);
	return found;
}

/* name found in the directories of a colon list (PATH), or NULL. */
static char *
search_path(const char *name, const char *list)
{
	char *copy, *dir, *save = NULL, *found = NULL, *cand;

	if (list == NULL)
		return NULL;
	copy = xstrdup(list);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		cand = xasprintf("%s/%s", *dir ? dir : ".", name);
		if (access(cand, X_OK) == 0)
			found = real_file(cand);
		free(cand);
	}
	free(copy);
	return found;
}

/* Whether the file name base is library name (libc: libc.so.6, libc-2.31.so). */
static bool
lib_matches(const char *base, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(base, "lib", 3) == 0 && strncmp(name, "lib", 3) != 0 &&
	    strncmp(base + 3, name, n) == 0 && (base[3 + n] == '.' || base[3 + n] == '-'))
		return true;
	return strcmp(base, name) == 0 ||
	       (strncmp(base, name, n) == 0 && (base[n] == '.' || base[n] == '-'));
}

/* A mapped object of the targets called name, or NULL. */
static char *
search_maps(const char *name, const struct probe_ctx *ctx)
{
	char **objs, *found = NULL;
	size_t n;

	for (size_t i = 0; ctx != NULL && i < ctx->npids && !found; i++) {
		if ((objs = probe_process_objects(ctx->pids[i], &n, NULL)) == NULL)
			continue;
		for (size_t k = 0; k < n && !found; k++)
			if (lib_matches(base_name(objs[k]), name) &&
			    (found = container_file(ctx->pids[i], objs[k])) == NULL)
				found = real_file(objs[k]);
		names_free(objs, n);
	}
	return found;
}

/* Candidate f (0-4) for library name in dir: dir/name, dir/name.so,
 * dir/libname.so, and the versioned dir/name.so.*, dir/libname.so.*. */
static char *
lib_pattern(unsigned f, const char *dir, const char *name)
{
	return xasprintf("%s/%s%s%s", dir, f == 2 || f == 4 ? "lib" : "", name,
	                 f == 0   ? ""
	                 : f <= 2 ? ".so"
	                          : ".so.*");
}

/* Whether path is an ELF file (not, e.g., the libc.so linker script that
 * a development package installs beside the real libc.so.6). */
static bool
is_elf(const char *path)
{
	char magic[5]; /* read_file ends it with a NUL */

	return read_file(path, magic, sizeof magic) == 4 && memcmp(magic, "\177ELF", 4) == 0;
}

/* A library called name in the library directories, or NULL. */
static char *
search_libs(const char *name)
{
	char *found = NULL, *pat;
	glob_t g;

	for (unsigned f = 0; f < 5 && !found; f++)
		for (size_t d = 0; d < ARRAY_SIZE(lib_dirs) && !found; d++) {
			pat = lib_pattern(f, lib_dirs[d], name);
			if (glob(pat, 0, NULL, &g) == 0)
				for (size_t i = 0; i < g.gl_pathc && !found; i++)
					if (is_elf(g.gl_pathv[i]))
						found = real_file(g.gl_pathv[i]);
			globfree(&g);
			free(pat);
		}
	return found;
}

/* Find the binary a user SPEC names. */
char *
probe_find_binary(const char *name, const struct probe_ctx *ctx, struct tt_err *err)
{
	char *found = NULL;
	const char *cmd = ctx && ctx->argv ? ctx->argv[0] : NULL;

	if (strchr(name, '/') != NULL) {
		/* a target's path inside its container first: it may name
		 * another file here, or none */
		if ((found = targets_file(name, ctx)) == NULL && (found = real_file(name)) == NULL)
			err_set(err, "unknown binary '%s': %s", name,
			        errno ? strerror(errno) : "not a regular file");
		return found;
	}
	if (cmd != NULL && strcmp(base_name(cmd), name) == 0)
		found = strchr(cmd, '/') ? real_file(cmd) : search_path(cmd, getenv("PATH"));
	if (found == NULL)
		found = search_maps(name, ctx);
	if (found == NULL)
		found = search_path(name, getenv("PATH"));
	if (found == NULL)
		found = search_libs(name);
	if (found == NULL)
		err_set(err,
		        "unknown binary '%s': not the command, not mapped by the target, not in "
		        "PATH or the library directories; give its path%s%s%s",
		        name, access(name, F_OK) == 0 ? " (./" : "",
		        access(name, F_OK) == 0 ? name : "", access(name, F_OK) == 0 ? "?)" : "");
	return found;
}

/* Whether the kernel takes $argN (its README says so). */
static bool
kernel_has_argn(void)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX], *text;
	size_t len;
	bool yes;
	int fd;

	if (dir == NULL)
		return true;
	snprintf(path, sizeof path, "%s/README", dir);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return true;
	if (symtab_read_fd(fd, 1u << 20, &text, &len) != 0) {
		close(fd);
		return true;
	}
	close(fd);
	yes = strstr(text, "$arg<N>") != NULL;
	free(text);
	return yes;
}

/* Whether kallsyms has name as a symbol of a type other than text. */
static bool
kernel_data_symbol(const char *name)
{
	char *text = NULL, *line, *save = NULL, type;
	size_t len;
	bool found = false;
	int fd = open(KALLSYMS, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || symtab_read_fd(fd, 64u << 20, &text, &len) != 0) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char sym[256];

		if (sscanf(line, "%*s %c %255s", &type, sym) == 2 && strcmp(sym, name) == 0)
			found = strchr("tTwW", type) == NULL;
	}
	free(text);
	return found;
}

/* Check a kernel function (and that off is inside it) against kallsyms, or
 * available_filter_functions when kallsyms hides its addresses. */
static int
check_kernel_func(const char *func, uint64_t off, struct tt_err *err)
{
	struct symtab st;
	struct tt_err e2;
	const struct sym *s = NULL;
	char **names;
	size_t n;
	bool known = false;

	symtab_init(&st);
	if (symkernel_load(KALLSYMS, &st, &e2) == 0) {
		for (size_t i = 0; i < st.n && s == NULL; i++)
			if (strcmp(st.syms[i].name, func) == 0)
				s = &st.syms[i];
		if (s != NULL && off > 0 && s->size > 0 && off >= s->size) {
			err_set(err,
			        "offset +%" PRIu64 " is past the end of %s (%" PRIu64 " bytes)",
			        off, func, s->size);
			symtab_free(&st);
			return -1;
		}
		known = s != NULL;
	} else if ((names = probe_kernel_functions(&n, &e2)) != NULL) {
		for (size_t i = 0; i < n && !known; i++)
			known = strcmp(names[i], func) == 0;
		names_free(names, n);
	} else {
		known = true; /* nothing to check with: the kernel will say */
	}
	symtab_free(&st);
	if (known)
		return 0;
	if (kernel_data_symbol(func))
		return err_set(err,
		               "'%s' is a kernel data symbol, not a function: only code can be "
		               "probed",
		               func);
	return err_set(err, "unknown kernel function '%s' (not in %s)", func, KALLSYMS);
}

/* Whether any argument names a variable. */
static bool
has_vars(const struct probe_spec *s)
{
	for (size_t i = 0; i < s->nargs; i++)
		if (s->args[i].var != NULL)
			return true;
	return false;
}

/* Whether any argument is a whole $argN (debug info may know where). */
static bool
has_argn(const struct probe_spec *s)
{
	for (size_t i = 0; i < s->nargs; i++)
		if (s->args[i].fetch != NULL && strncmp(s->args[i].fetch, "$arg", 4) == 0)
			return true;
	return false;
}

/* Copy the spec's arguments, resolve them, and render them into out. */
static int
finish_args(const struct probe_spec *s, const struct probe_vars *vars, unsigned flags,
            struct probe_place *out, struct tt_err *err)
{
	struct probe_arg *args = xcalloc(s->nargs, sizeof *args);
	int rc;

	for (size_t i = 0; i < s->nargs; i++) {
		const struct probe_arg *a = &s->args[i];

		args[i] = (struct probe_arg){
		    .name = xstrdup(a->name),
		    .fetch = a->fetch ? xstrdup(a->fetch) : NULL,
		    .var = a->var ? xstrdup(a->var) : NULL,
		    .type = a->type ? xstrdup(a->type) : NULL,
		    .named = a->named,
		};
	}
	rc = probe_args_resolve(args, s->nargs, vars, flags, err);
	if (rc == 0) {
		out->args = xcalloc(s->nargs, sizeof *out->args);
		for (out->nargs = 0; out->nargs < s->nargs; out->nargs++)
			out->args[out->nargs] =
			    xasprintf("%s=%s", args[out->nargs].name, args[out->nargs].fetch);
	}
	for (size_t i = 0; i < s->nargs; i++)
		probe_arg_free(&args[i]);
	free(args);
	return rc;
}

/* Resolve a kernel SPEC. */
static int
resolve_kernel(const struct probe_spec *s, struct probe_place *out, struct tt_err *err)
{
	struct probe_vars vars = {0};
	bool ret = s->kind == PROBE_KRETPROBE;
	unsigned flags = PROBE_ARGF_KERNEL | (ret ? PROBE_ARGF_RETURN : 0) |
	                 (s->offset == 0 ? PROBE_ARGF_ENTRY : 0) |
	                 (kernel_has_argn() ? 0 : PROBE_ARGF_NO_ARGN);
	int rc;

	if (!probe_kind_supported(s->kind, err) || check_kernel_func(s->func, s->offset, err) != 0)
		return -1;
	if (has_vars(s) && (ret || s->offset != 0))
		return err_set(err, "parameter names of kernel functions are only known at their "
		                    "entry (no DWARF for the kernel): use fetch-args");
	if (has_vars(s) && probe_btf_params(s->func, &vars, err) != 0)
		return -1;
	rc = finish_args(s, has_vars(s) ? &vars : NULL, flags, out, err);
	probe_vars_free(&vars);
	if (rc != 0)
		return -1;
	out->func = xstrdup(s->func);
	out->offset = s->offset;
	out->place = xasprintf("%s+%" PRIu64, s->func, s->offset);
	out->target = ret         ? xasprintf("%s%%return", s->func)
	              : s->offset ? xasprintf("%s+%" PRIu64, s->func, s->offset)
	                          : xstrdup(s->func);
	return 0;
}

/* Find a user function: its address, checked to be code and to hold off. */
static int
find_user_func(const char *path, const struct probe_spec *s, struct symelf_hit *hit,
               struct dso_seg **segs, size_t *nsegs, struct tt_err *err)
{
	int r = symelf_find(path, NULL, s->func, hit, segs, nsegs, err);

	if (r < 0)
		return -1;
	if (r == 0)
		return err_set(err, "no function '%s' in %s", s->func, path);
	if (hit->kind != SYMELF_CODE)
		return err_set(err,
		               "'%s' in %s is data (a variable), not code: only functions can "
		               "be probed",
		               s->func, path);
	if (s->offset > 0 && hit->size > 0 && s->offset >= hit->size)
		return err_set(err, "offset +%" PRIu64 " is past the end of %s (%" PRIu64 " bytes)",
		               s->offset, s->func, hit->size);
	return 0;
}

/* Resolve a user SPEC. */
static int
resolve_user(const struct probe_spec *s, const struct probe_ctx *ctx, struct probe_place *out,
             struct tt_err *err)
{
	struct probe_vars vars = {0};
	struct symelf_hit hit = {0};
	struct dso_seg *segs = NULL;
	size_t nsegs = 0;
	bool ret = s->kind == PROBE_URETPROBE;
	uint64_t addr = 0, foff = s->offset;
	char *shown;
	const char *fn;
	int rc = -1;

	if (!probe_kind_supported(s->kind, err) ||
	    (out->path = probe_find_binary(s->binary, ctx, err)) == NULL)
		return -1;
	if (strpbrk(out->path, " \t\n") != NULL) {
		/* tracefs splits its lines at blanks: name the file by a
		 * descriptor of ours instead */
		if ((out->fd = open(out->path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
			return err_set(err, "cannot open %s: %s", out->path, strerror(errno));
		out->has_fd = true;
	}
	if (s->raw_offset) {
		if (has_vars(s))
			return err_set(err,
			               "a probe at a file offset has no variables: use fetch-args");
	} else {
		if (find_user_func(out->path, s, &hit, &segs, &nsegs, err) != 0)
			goto out;
		addr = hit.addr + s->offset;
		/* names need debug info; $argN past the entry too, if there is some */
		if ((has_vars(s) || (has_argn(s) && s->offset > 0)) &&
		    probe_dwarf_vars(out->path, s->func, hit.addr, s->offset, ret, segs, nsegs,
		                     &vars, err) != 0 &&
		    has_vars(s))
			goto out;
		if (vars.source != NULL)
			addr = vars.addr;
		if (symelf_vaddr_to_offset(segs, nsegs, addr, &foff) != 0) {
			err_set(err, "%s in %s is not in a loaded segment", s->func, out->path);
			goto out;
		}
	}
	if (finish_args(s, vars.source ? &vars : NULL,
	                (ret ? PROBE_ARGF_RETURN : 0) |
	                    (!s->raw_offset && addr == hit.addr ? PROBE_ARGF_ENTRY : 0),
	                out, err) != 0)
		goto out;
	out->func = xstrdup(s->func);
	out->addr = addr;
	out->offset = foff;
	if (out->has_fd)
		out->place = xasprintf("/proc/self/fd/%d:0x%" PRIx64, out->fd, foff);
	else
		out->place = xasprintf("%s:0x%" PRIx64, out->path, foff);
	/* for people: a mangled name (picked from a list) shown demangled */
	shown = s->raw_offset ? NULL : demangle(s->func, symname_base_len(s->func));
	fn = shown != NULL ? shown : s->func;
	if (ret)
		out->target = xasprintf("%s:%s%%return", out->path, fn);
	else if (!s->raw_offset && addr != hit.addr)
		out->target = xasprintf("%s:%s+0x%" PRIx64, out->path, fn, addr - hit.addr);
	else
		out->target = xasprintf("%s:%s", out->path, fn);
	free(shown);
	rc = 0;
out:
	probe_vars_free(&vars);
	free(segs);
	return rc;
}

/* Resolve a parsed SPEC. */
int
probe_resolve(const struct probe_spec *s, const struct probe_ctx *ctx, struct probe_place *out,
              struct tt_err *err)
{
	int rc;

	memset(out, 0, sizeof *out);
	out->kind = s->kind;
	rc = s->binary ? resolve_user(s, ctx, out, err) : resolve_kernel(s, out, err);
	if (rc != 0)
		probe_place_free(out);
	return rc;
}

/* Free a resolved place. */
void
probe_place_free(struct probe_place *pl)
{
	names_free(pl->args, pl->nargs);
	free(pl->path);
	free(pl->func);
	free(pl->target);
	free(pl->place);
	if (pl->has_fd)
		close(pl->fd);
	memset(pl, 0, sizeof *pl);
}

/* Print what is visible, one line per variable. */
static void
vars_print(FILE *out, const char *what, const struct probe_vars *vs)
{
	char name[128], type[160], fetch[PROBE_ARG_MAX * 2], at[64] = ", at its entry";

	if (strcmp(vs->source, "BTF") != 0)
		snprintf(at, sizeof at, ", at 0x%" PRIx64 "%s", vs->addr,
		         vs->after_prologue ? " (after the prologue)" : "");
	fprintf(out, "%s%s%s%s, from %s%s:\n", what, vs->where ? " (" : "",
	        vs->where ? vs->where : "", vs->where ? ")" : "", vs->source, at);
	if (vs->n == 0)
		fprintf(out, "\t(no parameters or variables)\n");
	for (size_t i = 0; i < vs->n; i++) {
		const struct probe_var *v = &vs->v[i];

		str_escape(name, sizeof name, v->name, strlen(v->name));
		str_escape(type, sizeof type, v->type, strlen(v->type));
		if (v->fetch != NULL)
			str_escape(fetch, sizeof fetch, v->fetch, strlen(v->fetch));
		else
			snprintf(fetch, sizeof fetch, "(%s)", v->why);
		fprintf(out, "\t%-5s %-24s %-20s %s\n", v->param ? "param" : "local", type, name,
		        fetch);
	}
}

/* What is visible at a SPEC's probe point. */
int
probe_vars_get(const struct probe_spec *s, const struct probe_ctx *ctx, struct probe_vars *out,
               char **what, struct tt_err *err)
{
	struct symelf_hit hit;
	struct dso_seg *segs = NULL;
	size_t nsegs = 0;
	char *path = NULL;
	bool ret = s->kind == PROBE_KRETPROBE || s->kind == PROBE_URETPROBE;
	int rc = -1;

	memset(out, 0, sizeof *out);
	*what = NULL;
	if (s->binary == NULL) {
		if (ret || s->offset != 0)
			return err_set(err,
			               "kernel parameters are only listed at a function's entry");
		if (probe_btf_params(s->func, out, err) != 0)
			return -1;
		*what = xasprintf("%s (kernel)", s->func);
		return 0;
	}
	if (s->raw_offset)
		return err_set(err, "a file offset has no variables to list: name the function");
	if ((path = probe_find_binary(s->binary, ctx, err)) != NULL &&
	    find_user_func(path, s, &hit, &segs, &nsegs, err) == 0 &&
	    probe_dwarf_vars(path, s->func, hit.addr, s->offset, ret, segs, nsegs, out, err) == 0) {
		*what = xasprintf("%s%s in %s", s->func, ret ? "%return" : "", path);
		rc = 0;
	}
	free(segs);
	free(path);
	return rc;
}

/* --probe-vars: list what is visible at a SPEC's probe point. */
int
probe_vars_print(FILE *out, const struct probe_spec *s, const struct probe_ctx *ctx,
                 struct tt_err *err)
{
	struct probe_vars vs;
	char *what;

	if (probe_vars_get(s, ctx, &vs, &what, err) != 0)
		return -1;
	vars_print(out, what, &vs);
	probe_vars_free(&vs);
	free(what);
	return 0;
}
