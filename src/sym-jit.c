/* sym-jit: perf-PID.map files written by JIT compilers, read as they
 * grow. A process's map is an index of pointers sorted by start over
 * symbols that never move or go (a pool for the whole run, names
 * interned): samples counted with a JIT symbol keep pointing at it while
 * the map grows, is rewritten, or its process is reaped. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/sym-jit.h"

/* Refuse map files past this size: a JIT writing more is misbehaving. */
#define JIT_MAP_LIMIT (64u * 1024 * 1024)

/* JIT entries normally have sizes; a zero size reaches at most this far. */
#define JIT_MAX_GAP 4096
/* Symbols per pool chunk. */
#define JIT_POOL_CHUNK 1024
/* Predecessors searched for a covering symbol (as symtab_lookup). */
#define JIT_BACKTRACK 4

/* The pool of every JIT symbol of the run. */
struct jit_chunk {
	struct jit_chunk *next;
	size_t used;
	struct sym syms[JIT_POOL_CHUNK];
};

static struct jit_chunk *jit_pool;

struct symjit {
	const struct sym **index; /* sorted by start, one per start (the newest) */
	size_t n, cap;
	dev_t dev;
	ino_t ino;
	off_t offset; /* bytes parsed: complete lines only */
	bool seen;    /* dev and ino are the file's */
};

/* Parse a hex number (optional 0x) at *pp before end; advances *pp. */
static bool
parse_hex(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int digits = 0, d;

	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++, digits++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (digits == 16)
			return false;
		v = (v << 4) | (uint64_t)d;
	}
	if (digits == 0)
		return false;
	*pp = p;
	*out = v;
	return true;
}

/* Skip spaces and tabs; false if there were none. */
static bool
skip_blanks(const char **pp, const char *end)
{
	const char *p = *pp;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == *pp)
		return false;
	*pp = p;
	return true;
}

/* One line "START SIZE name with spaces" [p, end); malformed lines are ignored. */
static void
parse_line(const char *p, const char *end, struct symtab *st)
{
	uint64_t start, size;

	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	skip_blanks(&p, end);
	if (!parse_hex(&p, end, &start) || !skip_blanks(&p, end) || !parse_hex(&p, end, &size) ||
	    !skip_blanks(&p, end) || p == end)
		return;
	symtab_add_n(st, start, size, p, (size_t)(end - p), NULL);
}

/* Parse perf map text line by line. */
void
symjit_parse(const char *text, size_t len, struct symtab *st)
{
	const char *p = text, *end = text + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		parse_line(p, nl, st);
		p = nl + 1;
	}
}

/* Open a map file without following symlinks and check who owns it. */
static int
open_checked(const char *path, uid_t owner, struct tt_err *err)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 && errno == ELOOP)
		return err_set(err, "%s is a symbolic link: not trusted", path);
	if (fd < 0)
		return err_set(err, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &sb) != 0) {
		err_set(err, "cannot stat %s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		err_set(err, "%s is not a regular file: not trusted", path);
		goto fail;
	}
	if (sb.st_uid != owner && sb.st_uid != 0) {
		err_set(
		    err,
		    "%s is owned by uid %u, not by the process's user (%u) or root: not trusted",
		    path, (unsigned)sb.st_uid, (unsigned)owner);
		goto fail;
	}
	if ((uint64_t)sb.st_size > JIT_MAP_LIMIT) {
		err_set(err, "%s is too big (%lld bytes, limit %u)", path, (long long)sb.st_size,
		        JIT_MAP_LIMIT);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* Load a trusted perf map into st and finish it. */
int
symjit_load(const char *path, uid_t owner, struct symtab *st, struct tt_err *err)
{
	char *buf;
	size_t len;
	int fd = open_checked(path, owner, err);

	if (fd < 0)
		return -1;
	if (symtab_read_fd(fd, JIT_MAP_LIMIT, &buf, &len) != 0) {
		int e = errno;

		close(fd);
		return err_set(err, "cannot read %s: %s", path, strerror(e));
	}
	close(fd);
	symjit_parse(buf, len, st);
	free(buf);
	symtab_finish(st, JIT_MAX_GAP);
	return 0;
}

/* A symbol that stays for the whole run. */
static const struct sym *
jit_keep(const struct sym *s)
{
	struct sym *k;

	if (jit_pool == NULL || jit_pool->used == JIT_POOL_CHUNK) {
		struct jit_chunk *c = xmalloc(sizeof *c);

		c->next = jit_pool;
		c->used = 0;
		jit_pool = c;
	}
	k = &jit_pool->syms[jit_pool->used++];
	*k = (struct sym){.start = s->start, .size = s->size, .name = str_intern(s->name)};
	return k;
}

/* An empty map. */
struct symjit *
symjit_new(void)
{
	return xcalloc(1, sizeof(struct symjit));
}

/* Free a map's index (its symbols stay in the pool). */
void
symjit_free(struct symjit *j)
{
	if (j == NULL)
		return;
	free(j->index);
	free(j);
}

/* Merge a finished table of new symbols into the index: on the same start
 * the new one wins (a JIT reuses freed code space). */
static void
jit_merge(struct symjit *j, const struct symtab *st)
{
	const struct sym **out = xmalloc((j->n + st->n) * sizeof *out);
	size_t a = 0, b = 0, n = 0;

	while (a < j->n || b < st->n) {
		if (b == st->n || (a < j->n && j->index[a]->start < st->syms[b].start)) {
			out[n++] = j->index[a++];
			continue;
		}
		if (a < j->n && j->index[a]->start == st->syms[b].start)
			a++; /* replaced */
		out[n++] = jit_keep(&st->syms[b++]);
	}
	free(j->index);
	j->index = out;
	j->n = j->cap = n;
}

/* Parse map text into the index (complete lines and a last line alike). */
void
symjit_add_text(struct symjit *j, const char *text, size_t len)
{
	struct symtab st;

	symtab_init(&st);
	symjit_parse(text, len, &st);
	symtab_finish(&st, JIT_MAX_GAP);
	if (st.n > 0)
		jit_merge(j, &st);
	symtab_free(&st);
}

/* Read what the map gained since the last call. */
int
symjit_update(struct symjit *j, const char *path, uid_t owner, struct tt_err *err)
{
	struct stat sb;
	size_t want, got = 0;
	char *buf, *last;
	ssize_t r;
	int fd = open_checked(path, owner, err);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return err_set(err, "cannot stat %s: %s", path, strerror(errno));
	}
	if (!j->seen || sb.st_dev != j->dev || sb.st_ino != j->ino || sb.st_size < j->offset) {
		/* a new or rewritten file: read it all, its entries win */
		j->seen = true;
		j->dev = sb.st_dev;
		j->ino = sb.st_ino;
		j->offset = 0;
	}
	if (sb.st_size == j->offset) {
		close(fd);
		return 0;
	}
	want = (size_t)(sb.st_size - j->offset);
	buf = xmalloc(want + 1);
	while (got < want && (r = pread(fd, buf + got, want - got, j->offset + (off_t)got)) > 0)
		got += (size_t)r;
	close(fd);
	/* only whole lines: the JIT may be writing the next one */
	last = got > 0 ? memrchr(buf, '\n', got) : NULL;
	if (last != NULL) {
		symjit_add_text(j, buf, (size_t)(last - buf) + 1);
		j->offset += (off_t)(last - buf) + 1;
	}
	free(buf);
	return last != NULL ? 1 : 0;
}

/* The symbol holding addr, or NULL. */
const struct sym *
symjit_lookup(const struct symjit *j, uint64_t addr)
{
	size_t lo = 0, hi = j != NULL ? j->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->index[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; k < JIT_BACKTRACK && lo > 0; k++, lo--)
		if (addr - j->index[lo - 1]->start < j->index[lo - 1]->size)
			return j->index[lo - 1];
	return NULL;
}

/* Symbols in the index. */
size_t
symjit_count(const struct symjit *j)
{
	return j != NULL ? j->n : 0;
}

/* Free the pool (at exit, after every reader). */
void
symjit_pool_free(void)
{
	while (jit_pool != NULL) {
		struct jit_chunk *next = jit_pool->next;

		free(jit_pool);
		jit_pool = next;
	}
}
