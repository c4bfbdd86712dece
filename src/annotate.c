/* annotate: disassembly through capstone (the only file that includes it),
 * source lines from the debug info, per-instruction samples from the
 * address histogram. */
#include "config.h"

#include <capstone/capstone.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/annotate-code.h"
#include "tracetop/annotate.h"
#include "tracetop/srcline.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

#define SRC_FILES 16        /* source files kept open while building */
#define SRC_MAX (16u << 20) /* a bigger source file is shown as file:line */
#define SRC_TEXT_MAX 512    /* columns of source text kept per line */

/* capstone is opened on the first disassembly, not linked: its tables are
 * relocated when it is loaded, 3 MiB of resident memory (a fifth of
 * tracetop's, beside the BPF engine) that only the Annotate pane uses.
 * The library of the major version we were compiled against, whose
 * structures (cs_insn, cs_x86) we read. */
#define CS_STR_(x) #x
#define CS_STR(x) CS_STR_(x)
#define CS_LIBRARY "libcapstone.so." CS_STR(CS_API_MAJOR)

/* The capstone functions we call, looked up in the opened library. */
static struct {
	const char *why; /* NULL once loaded */
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	cs_insn *(*malloc)(csh);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
	void (*free)(cs_insn *, size_t);
	cs_err (*close)(csh *);
	bool (*insn_group)(csh, const cs_insn *, unsigned int);
	const char *(*strerror)(cs_err);
} cs;

/* Open capstone and look its functions up (cs.why says what failed). */
static void
cs_open_lib(void)
{
	void *lib = dlopen(CS_LIBRARY, RTLD_NOW | RTLD_LOCAL);

	if (lib == NULL) {
		cs.why = "cannot load " CS_LIBRARY " (install libcapstone" CS_STR(CS_API_MAJOR) ")";
		return;
	}
	*(void **)&cs.open = dlsym(lib, "cs_open");
	*(void **)&cs.option = dlsym(lib, "cs_option");
	*(void **)&cs.malloc = dlsym(lib, "cs_malloc");
	*(void **)&cs.disasm_iter = dlsym(lib, "cs_disasm_iter");
	*(void **)&cs.free = dlsym(lib, "cs_free");
	*(void **)&cs.close = dlsym(lib, "cs_close");
	*(void **)&cs.insn_group = dlsym(lib, "cs_insn_group");
	*(void **)&cs.strerror = dlsym(lib, "cs_strerror");
	if (!cs.open || !cs.option || !cs.malloc || !cs.disasm_iter || !cs.free || !cs.close ||
	    !cs.insn_group || !cs.strerror)
		cs.why = CS_LIBRARY " lacks a function tracetop needs";
}

/* Open capstone the first time (from any thread); 0, or -1 with err
 * saying what is missing. */
static int
cs_load(struct tt_err *err)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, cs_open_lib);
	return cs.why != NULL ? err_set(err, "disassembly: %s", cs.why) : 0;
}

/* One source file's text, split into lines. */
struct srcfile {
	const char *path; /* as the debug info gives it */
	char *buf;        /* NULL: unreadable */
	size_t *starts;   /* offset of each line */
	size_t nlines;
};

/* One instruction as capstone gave it. */
struct insn {
	uint64_t addr;
	uint32_t size;
	char *text;
	bool jump, call, ret;
	uint64_t target;
};

/* What annotate_new works with. */
struct build {
	struct annotation *a;
	struct insn *insns;
	size_t ninsns, cap;
	size_t lines_cap;
	struct srcfile files[SRC_FILES];
	size_t nfiles;
	const struct annotate_code *rec; /* a recording's source lines, or NULL */
	size_t rec_next;                 /* the next of them */
};

/* Where stand-in functions' code comes from. */
static struct annotate_source recorded;

/* Set where stand-in functions' code comes from. */
void
annotate_set_source(const struct annotate_source *src)
{
	if (src != NULL)
		recorded = *src;
	else
		memset(&recorded, 0, sizeof recorded);
}

/* Keep a malloc'd string with the annotation; returns it. */
static char *
own(struct annotation *a, char *s)
{
	a->strings = xrealloc(a->strings, (a->nstrings + 1) * sizeof *a->strings);
	a->strings[a->nstrings++] = s;
	return s;
}

/* Append a line (zeroed but for kind, addr and target -1); its index. */
static size_t
add_line(struct build *b, enum annotate_kind kind, uint64_t addr)
{
	struct annotation *a = b->a;

	if (a->nlines == b->lines_cap) {
		b->lines_cap = b->lines_cap ? b->lines_cap * 2 : 256;
		a->lines = xrealloc(a->lines, b->lines_cap * sizeof *a->lines);
	}
	a->lines[a->nlines] = (struct annotate_line){.kind = kind, .addr = addr, .target = -1};
	return a->nlines++;
}

/* Record one decoded instruction. */
static void
add_insn(struct build *b, csh h, const cs_insn *in)
{
	struct insn *n;
	const cs_x86 *x;

	if (b->ninsns == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 256;
		b->insns = xrealloc(b->insns, b->cap * sizeof *b->insns);
	}
	n = &b->insns[b->ninsns++];
	*n = (struct insn){.addr = in->address, .size = in->size};
	n->text =
	    in->op_str[0] ? xasprintf("%s %s", in->mnemonic, in->op_str) : xstrdup(in->mnemonic);
	if (in->id == 0 || in->detail == NULL)
		return; /* data bytes (SKIPDATA) */
	n->jump = cs.insn_group(h, in, CS_GRP_JUMP);
	n->call = cs.insn_group(h, in, CS_GRP_CALL);
	n->ret = cs.insn_group(h, in, CS_GRP_RET);
	x = &in->detail->x86;
	if ((n->jump || n->call) && x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
		n->target = (uint64_t)x->operands[0].imm;
}

/* Disassemble code (len bytes at address start) into b->insns. 0, or -1
 * with err. */
static int
disassemble(struct build *b, const unsigned char *code, size_t len, uint64_t start,
            struct tt_err *err)
{
	const uint8_t *p = code;
	uint64_t addr = start;
	cs_insn *in;
	cs_err e;
	csh h;

	if (cs_load(err) != 0)
		return -1;
	if ((e = cs.open(CS_ARCH_X86, CS_MODE_64, &h)) != CS_ERR_OK)
		return err_set(err, "capstone: %s", cs.strerror(e));
	cs.option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs.option(h, CS_OPT_DETAIL, CS_OPT_ON);
	cs.option(h, CS_OPT_SKIPDATA, CS_OPT_ON);
	in = cs.malloc(h);
	while (len > 0 && cs.disasm_iter(h, &p, &len, &addr, in))
		add_insn(b, h, in);
	cs.free(in, 1);
	cs.close(&h);
	if (b->ninsns == 0)
		return err_set(err, "no instructions decoded at 0x%" PRIx64, start);
	return 0;
}

/* Read a source file and index its lines (buf NULL when unreadable). */
static void
srcfile_load(struct srcfile *f, const char *path)
{
	struct stat sb;
	size_t len, n = 0;
	int fd;

	f->path = path;
	f->buf = NULL;
	/* O_NONBLOCK: a FIFO named like a source file must not hang us. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)) < 0)
		return;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > SRC_MAX ||
	    symtab_read_fd(fd, SRC_MAX, &f->buf, &len) != 0) {
		close(fd);
		return;
	}
	close(fd);
	for (size_t i = 0; i < len; i++)
		n += f->buf[i] == '\n';
	f->starts = xmalloc((n + 1) * sizeof *f->starts);
	f->starts[0] = 0;
	n = 1;
	for (size_t i = 0; i < len; i++)
		if (f->buf[i] == '\n') {
			f->buf[i] = '\0';
			if (i + 1 < len)
				f->starts[n++] = i + 1;
		}
	f->nlines = n;
}

/* The cached text of a source file (loaded on first use). */
static struct srcfile *
srcfile_get(struct build *b, const char *path)
{
	size_t i;

	for (i = 0; i < b->nfiles; i++)
		if (b->files[i].path == path || strcmp(b->files[i].path, path) == 0)
			return &b->files[i];
	if (b->nfiles == SRC_FILES) { /* full: forget the oldest */
		free(b->files[0].buf);
		free(b->files[0].starts);
		memmove(b->files, b->files + 1, (SRC_FILES - 1) * sizeof *b->files);
		b->nfiles--;
	}
	i = b->nfiles++;
	b->files[i] = (struct srcfile){0};
	srcfile_load(&b->files[i], path);
	return &b->files[i];
}

/* "base:LINE text" for a source line: tabs expanded, trailing blanks cut. */
static char *
source_text(struct build *b, const char *path, int lineno)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct srcfile *f = srcfile_get(b, path);
	char text[SRC_TEXT_MAX + 1];
	size_t n = 0;

	if (f->buf != NULL && lineno > 0 && (size_t)lineno <= f->nlines) {
		for (const char *p = f->buf + f->starts[lineno - 1]; *p && n < SRC_TEXT_MAX; p++) {
			if (*p == '\t') {
				do
					text[n++] = ' ';
				while (n % 8 != 0 && n < SRC_TEXT_MAX);
			} else {
				text[n++] = *p;
			}
		}
		while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\r'))
			n--;
	}
	text[n] = '\0';
	return n > 0 ? xasprintf("%s:%d %s", base, lineno, text) : xasprintf("%s:%d", base, lineno);
}

/* The lines: each instruction, with a source line above it whenever the
 * debug info's file:line changes (user code with debug info only). */
static void
make_lines(struct build *b)
{
	struct annotation *a = b->a;
	const char *prev_file = NULL, *file;
	int prev_line = -1, lineno;
	bool any = false;

	a->insn_line = xmalloc(b->ninsns * sizeof *a->insn_line);
	for (size_t i = 0; i < b->ninsns; i++) {
		struct insn *in = &b->insns[i];
		size_t k;

		if (b->rec != NULL) { /* a recording's lines, as the live run made them */
			const struct annotate_code *r = b->rec;

			while (b->rec_next < r->nlines && r->lines[b->rec_next].addr < in->addr)
				b->rec_next++;
			for (; b->rec_next < r->nlines && r->lines[b->rec_next].addr == in->addr;
			     b->rec_next++) {
				const struct annotate_srcline *l = &r->lines[b->rec_next];

				k = add_line(b, ANNOTATE_SOURCE, in->addr);
				a->lines[k].text = own(a, xstrdup(l->text ? l->text : ""));
				a->lines[k].file = own(a, xstrdup(l->file ? l->file : ""));
				a->lines[k].lineno = l->lineno;
				any = true;
			}
		} else if (a->debug && srcline_line(a->dso, in->addr, &file, &lineno) &&
		           (lineno != prev_line || prev_file == NULL ||
		            strcmp(file, prev_file) != 0)) {
			k = add_line(b, ANNOTATE_SOURCE, in->addr);
			a->lines[k].text = own(a, source_text(b, file, lineno));
			a->lines[k].file = own(a, xstrdup(file));
			a->lines[k].lineno = lineno;
			prev_file = a->lines[k].file;
			prev_line = lineno;
			any = true;
		}
		k = add_line(b, ANNOTATE_INSN, in->addr);
		a->lines[k].size = in->size;
		a->lines[k].text = own(a, in->text);
		in->text = NULL;
		a->lines[k].jump = in->jump;
		a->lines[k].call = in->call;
		a->lines[k].ret = in->ret;
		a->lines[k].target_addr = in->target;
		a->insn_line[i] = k;
	}
	a->ninsns = b->ninsns;
	if (a->debug && !any) {
		a->debug = false;
		snprintf(a->notice, sizeof a->notice, "no line info for %s in %s: disassembly only",
		         a->symbol, a->dso->short_name);
	}
}

/* The index of the instruction holding addr, or -1. */
static ssize_t
insn_at(const struct annotation *a, uint64_t addr)
{
	size_t lo = 0, hi = a->ninsns;

	if (addr < a->start || addr - a->start >= a->size)
		return -1;
	while (lo < hi) { /* first instruction past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (a->lines[a->insn_line[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? -1 : (ssize_t)(lo - 1);
}

/* The line of the instruction holding addr. */
ssize_t
annotate_line_of(const struct annotation *a, uint64_t addr)
{
	ssize_t i = insn_at(a, addr);

	return i < 0 ? -1 : (ssize_t)a->insn_line[i];
}

/* "name" or "name+0xOFF" for addr in symbol s: the qualified name, as
 * perf annotate shows call targets. */
static char *
sym_offset_name(const struct sym *s, uint64_t addr)
{
	char name[1024];

	sym_form_name(s, SYM_QUALIFIED, name, sizeof name);
	return addr == s->start ? xstrdup(name) : xasprintf("%s+0x%" PRIx64, name, addr - s->start);
}

/* Resolve the direct targets: lines inside the function, functions
 * outside it (in the same object, or in the kernel for kernel code). */
static void
resolve_targets(struct annotation *a)
{
	for (size_t i = 0; i < a->nlines; i++) {
		struct annotate_line *l = &a->lines[i];
		struct dso *d = a->dso;
		const struct sym *s = NULL;
		ssize_t k;

		if (l->kind != ANNOTATE_INSN || l->target_addr == 0)
			continue;
		if ((k = annotate_line_of(a, l->target_addr)) >= 0) {
			if (a->lines[k].addr == l->target_addr)
				l->target = k;
			l->target_name = own(a, sym_offset_name(a->sym, l->target_addr));
			continue;
		}
		if (d->standin) /* a replay: the recorded functions only */
			s = recorded.find != NULL ? recorded.find(recorded.arg, d, l->target_addr)
			                          : NULL;
		else if (a->kernel)
			d = dso_kernel_resolve(l->target_addr, &s);
		else
			s = dso_find_sym(d, l->target_addr);
		if (s == NULL)
			continue;
		l->target_name = own(a, sym_offset_name(s, l->target_addr));
		l->target_dso = d;
		l->target_sym = s;
	}
}

/* Free what a build holds beyond the annotation. */
static void
build_done(struct build *b)
{
	for (size_t i = 0; i < b->ninsns; i++)
		free(b->insns[i].text);
	free(b->insns);
	for (size_t i = 0; i < b->nfiles; i++) {
		free(b->files[i].buf);
		free(b->files[i].starts);
	}
}

/* Read the function's bytes into a malloc'd buffer (a->size may shrink). */
static unsigned char *
read_code(struct annotation *a, struct tt_err *err)
{
	unsigned char *code = xmalloc(a->size);
	size_t len = a->size;
	int rc;

	if (a->kernel) {
		rc = annotate_code_kernel(a->sym, code, &len, &a->code_from, err);
		a->size = len;
	} else {
		rc = annotate_code_user(a->dso, a->start, len, code, err);
		a->code_from = a->dso->name;
	}
	if (rc != 0) {
		free(code);
		return NULL;
	}
	return code;
}

/* A replay's function from what the recording holds: its bytes into a
 * malloc'd buffer, a the recording's start, size and notes. */
static unsigned char *
recorded_code(struct annotation *a, struct build *b, struct tt_err *err)
{
	const struct annotate_code *rc =
	    recorded.code != NULL ? recorded.code(recorded.arg, a->dso, a->sym) : NULL;

	if (rc == NULL)
		return err_set(err,
		               "%s was not among the hot functions whose code the recording "
		               "holds: annotate it on the live run",
		               a->symbol),
		       NULL;
	if (rc->bytes == NULL || rc->size == 0)
		return err_set(err, "the recording holds no code of %s: %s", a->symbol,
		               rc->why != NULL ? rc->why : "it could not be read"),
		       NULL;
	a->start = rc->start;
	a->size = rc->size;
	a->truncated = rc->truncated;
	a->debug = rc->debug;
	a->kernel = rc->kernel || a->kernel;
	a->code_from = rc->code_from != NULL ? rc->code_from : a->dso->name;
	if (rc->notice != NULL)
		snprintf(a->notice, sizeof a->notice, "%s", rc->notice);
	b->rec = rc;
	return memcpy(xmalloc(rc->size), rc->bytes, rc->size);
}

/* Build the annotation of a function. */
struct annotation *
annotate_new(struct dso *dso, const struct sym *sym, bool kernel, struct tt_err *err)
{
	struct annotation *a;
	struct build b = {0};
	unsigned char *code;

	if (dso == NULL || sym == NULL) {
		err_set(err, "no symbol: only a resolved function can be annotated");
		return NULL;
	}
	if (dso->standin) {
		a = xcalloc(1, sizeof *a);
		a->symbol = sym_name(sym);
		a->dso_name = dso->name;
		a->dso = dso;
		a->sym = sym;
		a->kernel = kernel || dso->kind == DSO_KERNEL || dso->kind == DSO_MODULE;
		a->hottest = -1;
		b.a = a;
		if ((code = recorded_code(a, &b, err)) == NULL ||
		    disassemble(&b, code, a->size, a->start, err)) {
			free(code);
			build_done(&b);
			annotate_free(a);
			return NULL;
		}
		a->code = code;
		make_lines(&b);
		resolve_targets(a);
		build_done(&b);
		return a;
	}
	kernel = kernel || dso->kind == DSO_KERNEL || dso->kind == DSO_MODULE;
	if (!kernel && dso->kind != DSO_ELF) {
		err_set(err, "%s is in %s, which is not a file: nothing to disassemble",
		        sym_name(sym), dso->name);
		return NULL;
	}
	if (sym->size == 0) {
		err_set(err, "%s has no size: cannot tell where it ends", sym_name(sym));
		return NULL;
	}
	a = xcalloc(1, sizeof *a);
	a->symbol = sym_name(sym);
	a->dso_name = dso->name;
	a->dso = dso;
	a->sym = sym;
	a->kernel = kernel;
	a->start = sym->start;
	a->size = sym->size;
	a->hottest = -1;
	if (a->size > ANNOTATE_MAX_BYTES) {
		a->size = ANNOTATE_MAX_BYTES;
		a->truncated = true;
	}
	b.a = a;
	if ((code = read_code(a, err)) == NULL || disassemble(&b, code, a->size, a->start, err)) {
		free(code);
		build_done(&b);
		annotate_free(a);
		return NULL;
	}
	a->code = code;
	if (kernel)
		snprintf(a->notice, sizeof a->notice,
		         "no debug info for the kernel: disassembly only");
	else if (!(a->debug = srcline_has_debug(dso)))
		snprintf(a->notice, sizeof a->notice, "no debug info for %s: disassembly only",
		         dso->short_name);
	make_lines(&b);
	resolve_targets(a);
	build_done(&b);
	return a;
}

/* Order hot lines: more samples first, then by position. */
static int
hot_cmp(const void *x, const void *y, void *arg)
{
	const struct annotate_line *l = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (l[i].score != l[j].score)
		return CMP3(l[j].score, l[i].score);
	return CMP3(i, j);
}

/* Refresh the counts from the address histogram. */
void
annotate_update(struct annotation *a, const struct addrhist_sym *hs)
{
	a->score = 0;
	a->total = 0;
	a->nhot = 0;
	a->hottest = -1;
	for (size_t i = 0; i < a->nlines; i++) {
		a->lines[i].score = a->lines[i].percent = 0;
		a->lines[i].samples = a->lines[i].total = 0;
	}
	for (uint32_t i = 0; hs != NULL && i < hs->cap; i++) {
		const struct addrhist_addr *h = &hs->addrs[i];
		ssize_t k;

		if (h->off == ADDRHIST_EMPTY || (k = annotate_line_of(a, a->start + h->off)) < 0)
			continue;
		a->lines[k].score += h->score;
		a->lines[k].total += h->total;
		a->score += h->score;
		a->total += h->total;
	}
	a->samples = (uint64_t)(a->score + 0.5);
	a->hot = xrealloc(a->hot, (a->ninsns ? a->ninsns : 1) * sizeof *a->hot);
	for (size_t i = 0; i < a->ninsns; i++) {
		struct annotate_line *l = &a->lines[a->insn_line[i]];

		l->samples = (uint64_t)(l->score + 0.5);
		l->percent = a->score > 0 ? 100.0 * l->score / a->score : 0;
		if (l->score > 0)
			a->hot[a->nhot++] = a->insn_line[i];
	}
	qsort_r(a->hot, a->nhot, sizeof *a->hot, hot_cmp, a->lines);
	if (a->nhot > 0)
		a->hottest = (ssize_t)a->hot[0];
}

/* Name the row whose samples a shows. */
void
annotate_set_row(struct annotation *a, unsigned mask, const struct addrhist_who *who)
{
	size_t n = 0;

	a->row_mask = mask & ADDRHIST_WHO_FIELDS;
	a->row[0] = '\0';
	if (a->row_mask == 0)
		return;
	a->row_who = *who;
	if ((mask & HIST_GROUP_COMM) && who->comm != NULL)
		n += (size_t)snprintf(a->row + n, sizeof a->row - n, "command %s", who->comm);
	if ((mask & HIST_GROUP_PID) && n < sizeof a->row)
		n += (size_t)snprintf(a->row + n, sizeof a->row - n, "%spid %d", n ? ", " : "",
		                      who->pid);
	if ((mask & HIST_GROUP_TID) && n < sizeof a->row)
		n += (size_t)snprintf(a->row + n, sizeof a->row - n, "%sthread %d", n ? ", " : "",
		                      who->tid);
	if ((mask & HIST_GROUP_CGROUP) && who->cgroup != NULL && n < sizeof a->row)
		snprintf(a->row + n, sizeof a->row - n, "%scgroup %s", n ? ", " : "",
		         who->cgroup->name);
}

/* The next hot line in heat order. */
ssize_t
annotate_next_hot(const struct annotation *a, ssize_t line, int dir)
{
	size_t k;

	if (a->nhot == 0)
		return -1;
	for (k = 0; k < a->nhot && (ssize_t)a->hot[k] != line; k++)
		;
	if (k == a->nhot)
		return (ssize_t)a->hot[dir >= 0 ? 0 : a->nhot - 1];
	k = dir >= 0 ? (k + 1) % a->nhot : (k + a->nhot - 1) % a->nhot;
	return (ssize_t)a->hot[k];
}

/* Search the lines' text, wrapping around. */
ssize_t
annotate_search(const struct annotation *a, ssize_t from, const char *needle, int dir)
{
	size_t n = a->nlines, i;

	if (n == 0 || needle == NULL || needle[0] == '\0')
		return -1;
	if (from < 0 || (size_t)from >= n)
		from = dir >= 0 ? (ssize_t)n - 1 : 0;
	i = (size_t)from;
	for (size_t step = 0; step < n; step++) {
		i = dir >= 0 ? (i + 1) % n : (i + n - 1) % n;
		if (strcasestr(a->lines[i].text, needle) != NULL)
			return (ssize_t)i;
	}
	return -1;
}

/* Free an annotation and its strings. */
void
annotate_free(struct annotation *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; i < a->nstrings; i++)
		free(a->strings[i]);
	free(a->strings);
	free(a->lines);
	free(a->insn_line);
	free(a->hot);
	free(a->code);
	free(a);
}
