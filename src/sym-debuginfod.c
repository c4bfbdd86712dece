/* sym-debuginfod: debug files by build-id from debuginfod servers. The
 * state the threads share (progress, counts, notes, what failed) sits
 * behind one mutex, held only to copy a few fields; the download itself
 * runs outside it. */
#include "config.h"

#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/sym-debuginfod.h"
#include "tracetop/util.h"

/* Longest build-id kept (GNU ones are 20 bytes; the client takes < 64). */
#define ID_MAX 32
/* Successful downloads whose paths are remembered. */
#define GOT_MEMORY 32
/* Unreachable servers are left alone this long, then twice as long... */
#define OFFLINE_FIRST_NS (60ULL * 1000000000ULL)
#define OFFLINE_MAX_NS (15ULL * 60 * 1000000000ULL)
/* The answer for a library that cannot be loaded (the client's own
 * answers are negated errnos too: ENOENT when no server has the file). */
#define ERR_NOLIB ELIBACC

/* A build-id. */
struct bid {
	uint8_t id[ID_MAX];
	uint8_t len;
};

/* A download that worked: where the client put it. */
struct got {
	struct bid b;
	char *path;
};

/* Why our progress callback stopped a download. */
enum stop_why { STOP_NONE, STOP_INTERRUPT, STOP_NO_CONNECT, STOP_TOO_LONG };

/* Set by symdbg_configure, read-only after. */
static bool enabled;
static char urls[160];       /* DEBUGINFOD_URLS, escaped, for the notes */
static bool several;         /* it names more than one server */
static char *cache_dir;      /* where the client caches: see cache_path_of */
static unsigned max_secs;    /* SYMDBG_MAX_SECS or DEBUGINFOD_MAXTIME */
static atomic_bool stopping; /* symdbg_interrupt */

/* Shared, under lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct symdbg_status st;              /* notes in a ring: slot seq % SYMDBG_NOTES */
static uint64_t fetch_start_ns;              /* of the download running, monotonic... */
static time_t fetch_start_wall;              /* ...and by the wall clock (for file times) */
static struct bid fails[SYMDBG_FAIL_MEMORY]; /* ring: missing or failed */
static size_t nfails;
static struct got gots[GOT_MEMORY]; /* ring */
static size_t ngots;
static uint64_t offline_until_ns, offline_ns; /* next retry, and the wait before it */
static bool offline_noted, nolib;

/* The library, loaded on the first download (the fetching thread only). */
static struct {
	bool tried;
	void *handle;
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_find_debuginfo) *find;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;
	__typeof__(debuginfod_set_verbose_fd) *set_verbose_fd;
	__typeof__(debuginfod_get_url) *get_url;
	debuginfod_client *client;
	char error[160];
	enum stop_why stop;
	bool committed; /* a server has started sending the file */
} lib;

static void lib_fetch(const uint8_t *id, size_t len, struct symdbg_answer *a);
static symdbg_backend_fn backend = lib_fetch;

/* Whether two build-ids are the same. */
static bool
bid_eq(const struct bid *b, const uint8_t *id, size_t len)
{
	return b->len == len && memcmp(b->id, id, len) == 0;
}

/* A build-id as lowercase hex, as the client names its cache entries. */
static void
bid_hex(char *out, const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < len; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * len] = '\0';
}

/* The client's cache: $DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache
 * if it exists (older clients made it), else $XDG_CACHE_HOME or ~/.cache,
 * then debuginfod_client (as debuginfod-client.c decides). */
static char *
client_cache_dir(void)
{
	const char *env = getenv("DEBUGINFOD_CACHE_PATH"), *home = getenv("HOME");
	struct stat sb;
	char *old;

	if (env != NULL && env[0] != '\0')
		return xstrdup(env);
	if (home == NULL)
		home = "/";
	old = xasprintf("%s/.debuginfod_client_cache", home);
	if (stat(old, &sb) == 0)
		return old;
	free(old);
	env = getenv("XDG_CACHE_HOME");
	if (env != NULL && env[0] != '\0')
		return xasprintf("%s/debuginfod_client", env);
	return xasprintf("%s/.cache/debuginfod_client", home);
}

/* Where the client keeps (or would keep) the debug file of a build-id. */
static char *
cache_path_of(const uint8_t *id, size_t len)
{
	char hex[2 * ID_MAX + 1];

	bid_hex(hex, id, len);
	return xasprintf("%s/%s/debuginfo", cache_dir, hex);
}

/* How many servers a DEBUGINFOD_URLS value names (separated by blanks). */
static size_t
servers_in(const char *s)
{
	size_t n = 0;

	while (*(s += strspn(s, " ")) != '\0') {
		n++;
		s += strcspn(s, " ");
	}
	return n;
}

/* Forget what a run learnt. */
static void
forget_all(void)
{
	for (size_t i = 0; i < GOT_MEMORY; i++)
		free(gots[i].path);
	memset(gots, 0, sizeof gots);
	memset(fails, 0, sizeof fails);
	memset(&st, 0, sizeof st);
	ngots = nfails = 0;
	offline_until_ns = offline_ns = 0;
	offline_noted = nolib = false;
}

/* Read the environment; on when asked and servers are named. */
void
symdbg_configure(bool enable)
{
	const char *u = getenv("DEBUGINFOD_URLS"), *maxtime = getenv("DEBUGINFOD_MAXTIME");
	uint64_t secs;

	pthread_mutex_lock(&lock);
	forget_all();
	free(cache_dir);
	cache_dir = client_cache_dir();
	enabled = enable && u != NULL && u[strspn(u, " ")] != '\0';
	str_escape(urls, sizeof urls, u != NULL ? u + strspn(u, " ") : "", SIZE_MAX);
	several = servers_in(urls) > 1;
	max_secs = SYMDBG_MAX_SECS;
	if (maxtime != NULL && parse_u64(maxtime, &secs) == 0 && secs > 0 && secs < max_secs)
		max_secs = (unsigned)secs;
	st.on = enabled;
	atomic_store(&stopping, false);
	pthread_mutex_unlock(&lock);
}

/* Whether fetching is on. */
bool
symdbg_enabled(void)
{
	return enabled;
}

/* A path a download of this run got, copied, or NULL (under lock). */
static char *
got_path(const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < GOT_MEMORY && i < ngots; i++)
		if (gots[i].path != NULL && bid_eq(&gots[i].b, id, len))
			return xstrdup(gots[i].path);
	return NULL;
}

/* A debug file left in the client's cache. */
char *
symdbg_cached(const uint8_t *id, size_t len)
{
	struct stat sb;
	char *path;

	if (!enabled || len == 0 || len > ID_MAX)
		return NULL;
	pthread_mutex_lock(&lock);
	path = got_path(id, len);
	pthread_mutex_unlock(&lock);
	if (path != NULL)
		return path;
	/* an empty file is the client's note that the servers had none */
	path = cache_path_of(id, len);
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		return path;
	free(path);
	return NULL;
}

/* Whether a failure of id is remembered (under lock). */
static bool
failed_before(const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < SYMDBG_FAIL_MEMORY && i < nfails; i++)
		if (bid_eq(&fails[i], id, len))
			return true;
	return false;
}

/* Whether a fetch of id would ask a server now (under lock). */
static bool
wanted_locked(const uint8_t *id, size_t len)
{
	return enabled && !nolib && !atomic_load(&stopping) && len > 0 && len <= ID_MAX &&
	       now_ns() >= offline_until_ns && !failed_before(id, len);
}

/* Whether symdbg_fetch would ask about id now. */
bool
symdbg_wanted(const uint8_t *id, size_t len)
{
	bool w;

	pthread_mutex_lock(&lock);
	w = wanted_locked(id, len);
	pthread_mutex_unlock(&lock);
	return w;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Keep a note for the user (under lock); fmt's strings are escaped. */
static void
note(const char *fmt, ...)
{
	struct symdbg_note *n = &st.notes[++st.note_seq % SYMDBG_NOTES];
	va_list ap;

	n->seq = st.note_seq;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof n->text, fmt, ap);
	va_end(ap);
}

/* Remember that id failed: it is not asked for again (under lock). */
static void
remember_failure(const uint8_t *id, size_t len)
{
	struct bid *b = &fails[nfails++ % SYMDBG_FAIL_MEMORY];

	memcpy(b->id, id, len);
	b->len = (uint8_t)len;
}

/* Remember where a download went (under lock). */
static void
remember_path(const uint8_t *id, size_t len, const char *path)
{
	struct got *g = &gots[ngots++ % GOT_MEMORY];

	free(g->path);
	memcpy(g->b.id, id, len);
	g->b.len = (uint8_t)len;
	g->path = xstrdup(path);
}

/* "12.0 KiB", "1.2 MiB": a size for a note. */
static void
size_text(char *buf, size_t len, uint64_t bytes)
{
	if (bytes < 1024)
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	else if (bytes < 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", (double)bytes / 1024);
	else
		snprintf(buf, len, "%.1f MiB", (double)bytes / (1024 * 1024));
}

/* Whether a failure means no server could be talked to at all. */
static bool
unreachable(const struct symdbg_answer *a)
{
	switch (-a->rc) {
	case ECONNREFUSED:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ECONNRESET:
	case ECONNABORTED:
	case ETIMEDOUT:
	case ETIME:
		return !a->got_data;
	default:
		return false;
	}
}

/* The servers cannot be reached: ask none for a while, longer each time,
 * and say so the first time (under lock). */
static void
go_offline(const struct symdbg_answer *a)
{
	offline_ns = offline_ns == 0 ? OFFLINE_FIRST_NS : offline_ns * 2;
	if (offline_ns > OFFLINE_MAX_NS)
		offline_ns = OFFLINE_MAX_NS;
	offline_until_ns = now_ns() + offline_ns;
	if (offline_noted)
		return;
	offline_noted = true;
	if (a->rc == -ETIMEDOUT)
		note("debuginfod: %s: cannot reach the server%s (no answer in %d s); going on "
		     "without",
		     urls, several ? "s" : "", SYMDBG_CONNECT_SECS);
	else
		note("debuginfod: %s: cannot reach the server%s (%s); going on without", urls,
		     several ? "s" : "", strerror(-a->rc));
}

/* Count a fetch's answer, note what the user should know, remember what
 * failed (under lock); the path to use, or NULL. */
static char *
settle_answer(const uint8_t *id, size_t len, const char *name, struct symdbg_answer *a)
{
	char size[32];
	struct stat sb;

	if (a->rc >= 0 && a->path == NULL)
		a->rc = -EIO; /* the client said yes without a file: no */
	if (a->rc >= 0) {
		size_text(size, sizeof size, stat(a->path, &sb) == 0 ? (uint64_t)sb.st_size : 0);
		note("debuginfod: fetched the debug info of %s (%s in %.2f s)", name, size,
		     (double)(now_ns() - fetch_start_ns) / 1e9);
		st.fetched++;
		remember_path(id, len, a->path);
		return a->path;
	}
	if (a->rc == -EINTR) /* stopped: not the build-id's fault */
		return NULL;
	if (a->rc == -ERR_NOLIB) {
		nolib = true;
		note("debuginfod: cannot load %s (%s); going on without", DEBUGINFOD_SONAME,
		     lib.error);
	} else if (a->rc == -ENOENT) {
		st.missing++;
		remember_failure(id, len);
	} else if (unreachable(a)) {
		go_offline(a);
	} else {
		st.failed++;
		remember_failure(id, len);
		if (a->rc == -ETIME || a->rc == -ETIMEDOUT)
			note("debuginfod: %s: gave up after %u s (DEBUGINFOD_MAXTIME)", name,
			     max_secs);
		else if (a->rc == -EFBIG)
			note("debuginfod: %s: the debug file is larger than DEBUGINFOD_MAXSIZE",
			     name);
		else
			note("debuginfod: %s: %s", name, strerror(-a->rc));
	}
	free(a->path);
	a->path = NULL;
	return NULL;
}

/* Download the debug file of a build-id. */
char *
symdbg_fetch(const uint8_t *id, size_t len, const char *name)
{
	struct symdbg_answer a = {.rc = -EINTR};
	const char *slash = strrchr(name, '/');
	char *path;

	pthread_mutex_lock(&lock);
	if (!wanted_locked(id, len)) {
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	st.fetching = true;
	str_escape(st.name, sizeof st.name, slash != NULL ? slash + 1 : name, SIZE_MAX);
	st.bytes = st.total = 0;
	fetch_start_ns = now_ns();
	fetch_start_wall = time(NULL);
	pthread_mutex_unlock(&lock);

	backend(id, len, &a);

	pthread_mutex_lock(&lock);
	st.fetching = false;
	path = settle_answer(id, len, st.name, &a);
	pthread_mutex_unlock(&lock);
	return path;
}

/* Stop downloads (or let them run again). */
void
symdbg_interrupt(bool on)
{
	atomic_store(&stopping, on);
}

/* A copy of the state, the notes oldest first. */
void
symdbg_status(struct symdbg_status *out)
{
	uint64_t now = now_ns();
	size_t k = 0;

	pthread_mutex_lock(&lock);
	*out = st;
	out->offline = enabled && now < offline_until_ns;
	out->secs = st.fetching ? (double)(now - fetch_start_ns) / 1e9 : 0;
	memset(out->notes, 0, sizeof out->notes);
	for (uint64_t s = st.note_seq > SYMDBG_NOTES ? st.note_seq - SYMDBG_NOTES + 1 : 1;
	     s <= st.note_seq; s++)
		out->notes[k++] = st.notes[s % SYMDBG_NOTES];
	pthread_mutex_unlock(&lock);
}

/* The header's words for a status. */
bool
symdbg_status_text(const struct symdbg_status *s, char *buf, size_t len)
{
	char got[32], total[32];

	if (s->fetching && s->total > 0) {
		size_text(got, sizeof got, s->bytes);
		size_text(total, sizeof total, s->total);
		snprintf(buf, len, "fetching %s (%s of %s)", s->name, got, total);
	} else if (s->fetching && s->bytes > 0) {
		size_text(got, sizeof got, s->bytes);
		snprintf(buf, len, "fetching %s (%s)", s->name, got);
	} else if (s->fetching) {
		snprintf(buf, len, "fetching %s", s->name);
	} else if (s->offline) {
		snprintf(buf, len, "offline");
	} else {
		buf[0] = '\0';
		return false;
	}
	return true;
}

/* Tests answer fetches themselves. */
void
symdbg_set_backend(symdbg_backend_fn fn)
{
	backend = fn != NULL ? fn : lib_fetch;
}

/* ---- the library ---- */

/* Load libdebuginfod and make a client; false with lib.error. */
static bool
lib_load(void)
{
	if (lib.tried)
		return lib.client != NULL;
	lib.tried = true;
	lib.handle = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (lib.handle == NULL) {
		snprintf(lib.error, sizeof lib.error, "%s", dlerror());
		return false;
	}
	lib.begin = (__typeof__(lib.begin))dlsym(lib.handle, "debuginfod_begin");
	lib.find = (__typeof__(lib.find))dlsym(lib.handle, "debuginfod_find_debuginfo");
	lib.set_progressfn =
	    (__typeof__(lib.set_progressfn))dlsym(lib.handle, "debuginfod_set_progressfn");
	lib.set_verbose_fd =
	    (__typeof__(lib.set_verbose_fd))dlsym(lib.handle, "debuginfod_set_verbose_fd");
	lib.get_url = (__typeof__(lib.get_url))dlsym(lib.handle, "debuginfod_get_url");
	if (lib.begin == NULL || lib.find == NULL || lib.set_progressfn == NULL ||
	    lib.set_verbose_fd == NULL || lib.get_url == NULL) {
		snprintf(lib.error, sizeof lib.error, "a function is missing: %s", dlerror());
		return false;
	}
	if ((lib.client = lib.begin()) == NULL) {
		snprintf(lib.error, sizeof lib.error, "debuginfod_begin failed: %s",
		         strerror(errno));
		return false;
	}
	/* DEBUGINFOD_VERBOSE and DEBUGINFOD_PROGRESS would write over the screen */
	lib.set_verbose_fd(lib.client, -1);
	return true;
}

/* The client's progress report, about once a second: record it, and stop
 * a download that was interrupted, never started or takes too long. */
static int
lib_progress(debuginfod_client *c, long a, long b)
{
	uint64_t secs = (now_ns() - fetch_start_ns) / 1000000000ULL;

	/* the URL is known once a server sends the file */
	lib.committed = lib.get_url(c) != NULL;
	if (atomic_load(&stopping))
		lib.stop = STOP_INTERRUPT;
	else if (!lib.committed && secs >= SYMDBG_CONNECT_SECS)
		lib.stop = STOP_NO_CONNECT;
	else if (secs >= max_secs)
		lib.stop = STOP_TOO_LONG;
	if (lib.committed) {
		pthread_mutex_lock(&lock);
		st.bytes = a > 0 ? (uint64_t)a : 0;
		st.total = b > 0 ? (uint64_t)b : 0;
		pthread_mutex_unlock(&lock);
	}
	return lib.stop != STOP_NONE;
}

/* A download we stopped leaves an empty file in the cache, which the
 * client (and gdb, and every client of this user) takes as "no server has
 * it" for ten minutes: take it away. */
static void
lib_unmark_missing(const uint8_t *id, size_t len)
{
	char *path = cache_path_of(id, len), *slash;
	struct stat sb;

	/* only one made since the download started (not a server's real "no") */
	if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0 &&
	    sb.st_mtime >= fetch_start_wall - 1)
		(void)unlink(path);
	if ((slash = strrchr(path, '/')) != NULL) {
		*slash = '\0';
		(void)rmdir(path); /* only when empty */
	}
	free(path);
}

/* Ask the servers through libdebuginfod. */
static void
lib_fetch(const uint8_t *id, size_t len, struct symdbg_answer *a)
{
	char *path = NULL;
	int rc;

	if (!lib_load()) {
		a->rc = -ERR_NOLIB;
		return;
	}
	lib.stop = STOP_NONE;
	lib.committed = false;
	lib.set_progressfn(lib.client, lib_progress);
	rc = lib.find(lib.client, id, (int)len, &path);
	a->got_data = lib.committed;
	if (rc >= 0) {
		close(rc);
		a->rc = 0;
		a->path = path;
		return;
	}
	free(path);
	a->rc = rc;
	if (lib.stop == STOP_NONE)
		return;
	lib_unmark_missing(id, len);
	a->rc = lib.stop == STOP_INTERRUPT    ? -EINTR
	        : lib.stop == STOP_NO_CONNECT ? -ETIMEDOUT
	                                      : -ETIME;
}
