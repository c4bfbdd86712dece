/* cgroup: a process's control group from /proc/PID/cgroup, its short name,
 * and the table that interns them. */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/cgroup.h"
#include "tracetop/util.h"

/* The lines of /proc/PID/cgroup worth taking, best first. */
enum cg_line { CG_V2, CG_SYSTEMD, CG_CPU, CG_NLINES };

/* Whether the comma-separated list (n bytes at list) holds word. */
static bool
has_token(const char *list, size_t n, const char *word)
{
	size_t wl = strlen(word);
	const char *end = list + n;

	while (list < end) {
		const char *comma = memchr(list, ',', (size_t)(end - list));
		size_t tl = (size_t)((comma != NULL ? comma : end) - list);

		if (tl == wl && memcmp(list, word, wl) == 0)
			return true;
		list += tl + 1;
	}
	return false;
}

/* Which wanted line "ID:CONTROLLERS:PATH" (n bytes) is, with its path, or
 * -1 for one we do not take (another v1 controller, a malformed line). */
static int
line_kind(const char *line, size_t n, const char **path, size_t *plen)
{
	const char *c1 = memchr(line, ':', n), *c2, *ctl;
	size_t clen;

	if (c1 == NULL)
		return -1;
	c2 = memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line));
	if (c2 == NULL)
		return -1;
	*path = c2 + 1;
	*plen = n - (size_t)(*path - line);
	if (*plen == 0 || **path != '/')
		return -1;
	ctl = c1 + 1;
	clen = (size_t)(c2 - ctl);
	if (c1 - line == 1 && line[0] == '0' && clen == 0)
		return CG_V2;
	if (has_token(ctl, clen, "name=systemd"))
		return CG_SYSTEMD;
	return has_token(ctl, clen, "cpu") ? CG_CPU : -1;
}

/* Pick the path from a /proc/PID/cgroup text: v2, else name=systemd,
 * else cpu, passing over those at the root while another is not. */
bool
cgroup_parse(const char *text, char *path, size_t len)
{
	const char *found[CG_NLINES] = {NULL};
	size_t flen[CG_NLINES] = {0};
	int pick = -1;

	for (const char *p = text; *p != '\0';) {
		size_t n = strcspn(p, "\n"), plen;
		const char *lp;
		int k = line_kind(p, n, &lp, &plen);

		if (k >= 0 && found[k] == NULL) {
			found[k] = lp;
			flen[k] = plen;
		}
		p += n + (p[n] == '\n');
	}
	for (int k = 0; k < CG_NLINES; k++) {
		if (found[k] == NULL)
			continue;
		if (pick < 0)
			pick = k;
		if (flen[k] > 1) { /* not the root */
			pick = k;
			break;
		}
	}
	if (pick < 0 || len == 0)
		return false;
	snprintf(path, len, "%.*s", (int)(flen[pick] < INT_MAX ? flen[pick] : INT_MAX),
	         found[pick]);
	return true;
}

/* Copy n bytes of s to buf (len bytes, cut to fit), undoing systemd's
 * \xNN escapes where they stand for a printable character other than '/'
 * (the name stays raw otherwise: it is escaped when printed). */
static void
copy_unescaped(const char *s, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return;
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		int hi, lo, c;

		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
		    (hi = hex_digit(s[i + 2])) >= 0 && (lo = hex_digit(s[i + 3])) >= 0 &&
		    (c = hi * 16 + lo) >= 0x20 && c < 0x7f && c != '/') {
			buf[o++] = (char)c;
			i += 3;
			continue;
		}
		buf[o++] = s[i];
	}
	buf[o] = '\0';
}

/* Whether the n bytes at s are all hex digits. */
static bool
all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (hex_digit(s[i]) < 0)
			return false;
	return true;
}

/* Whether the n bytes at s start with prefix. */
static bool
starts(const char *s, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);

	return n >= pl && memcmp(s, prefix, pl) == 0;
}

/* The digits of a container id: 64 hex. */
#define ID_LEN 64

/* When component c (n bytes) holds a container id (all of it, or after a
 * runtime's "PREFIX-", with or without ".scope"), its short form into
 * buf; false otherwise. */
static bool
component_id(const char *c, size_t n, char *buf, size_t len)
{
	static const char scope[] = ".scope";
	size_t sl = sizeof scope - 1;
	const char *id;

	if (n > sl && memcmp(c + n - sl, scope, sl) == 0)
		n -= sl;
	if (n < ID_LEN)
		return false;
	id = c + n - ID_LEN;
	if (!all_hex(id, ID_LEN) || (n > ID_LEN && id[-1] != '-'))
		return false;
	/* podman's and CRI-O's monitor of the container, in a group of its own */
	if (memmem(c, n - ID_LEN, "conmon", 6) != NULL)
		snprintf(buf, len, "conmon-%.*s", CGROUP_ID_DIGITS, id);
	else
		snprintf(buf, len, "%.*s", CGROUP_ID_DIGITS, id);
	return true;
}

/* When component c (n bytes, below parent, pn bytes, or NULL) shows a
 * container, its short name into buf; false otherwise. */
static bool
component_container(const char *c, size_t n, const char *parent, size_t pn, char *buf, size_t len)
{
	static const char payload[] = "lxc.payload.", machine[] = "machine-", scope[] = ".scope";
	size_t ml = sizeof machine - 1, sl = sizeof scope - 1;

	if (component_id(c, n, buf, len))
		return true;
	if (starts(c, n, payload) && n > sizeof payload - 1) { /* LXC 4 and later */
		copy_unescaped(c + sizeof payload - 1, n - (sizeof payload - 1), buf, len);
		return true;
	}
	if (parent != NULL && pn == 3 && memcmp(parent, "lxc", 3) == 0) { /* older LXC */
		copy_unescaped(c, n, buf, len);
		return true;
	}
	/* systemd-nspawn, libvirt: machine-NAME.scope under machine.slice */
	if (starts(c, n, machine) && n > ml + sl && memcmp(c + n - sl, scope, sl) == 0) {
		copy_unescaped(c + ml, n - ml - sl, buf, len);
		return true;
	}
	return false;
}

/* The outermost container the path shows, else its last component. */
void
cgroup_short_name(const char *path, char *buf, size_t len)
{
	const char *p = path, *last = NULL;
	size_t lastn = 0;

	if (len == 0)
		return;
	for (;;) {
		size_t n;

		p += strspn(p, "/");
		if (*p == '\0')
			break;
		n = strcspn(p, "/");
		if (component_container(p, n, last, lastn, buf, len))
			return;
		last = p;
		lastn = n;
		p += n;
	}
	if (last == NULL)
		snprintf(buf, len, "/");
	else
		copy_unescaped(last, lastn, buf, len);
}

/* The interned cgroups: open addressing on the interned path's address. */
static struct cgroup **cg_tab;
static size_t cg_cap, cg_used; /* cg_cap is a power of two (or 0) */

/* The slot for interned path ip: its cgroup's, or the empty one where it goes. */
static size_t
cg_slot(const char *ip)
{
	size_t i = hash_u64((uint64_t)(uintptr_t)ip) & (cg_cap - 1);

	while (cg_tab[i] != NULL && cg_tab[i]->path != ip)
		i = (i + 1) & (cg_cap - 1);
	return i;
}

/* Double the table (or make it). */
static void
cg_grow(void)
{
	struct cgroup **old = cg_tab;
	size_t oldcap = cg_cap;

	cg_cap = cg_cap ? cg_cap * 2 : 64;
	cg_tab = xcalloc(cg_cap, sizeof *cg_tab);
	for (size_t i = 0; i < oldcap; i++)
		if (old[i] != NULL)
			cg_tab[cg_slot(old[i]->path)] = old[i];
	free(old);
}

/* One struct per distinct path, its short name worked out once. */
const struct cgroup *
cgroup_get(const char *path)
{
	const char *ip = str_intern(path);
	char name[PATH_MAX];
	struct cgroup *cg;
	size_t i;

	if ((cg_used + 1) * 2 > cg_cap)
		cg_grow();
	i = cg_slot(ip);
	if (cg_tab[i] != NULL)
		return cg_tab[i];
	cgroup_short_name(ip, name, sizeof name);
	cg = xmalloc(sizeof *cg);
	cg->path = ip;
	cg->name = str_intern(name);
	cg_tab[i] = cg;
	cg_used++;
	return cg;
}

/* Read PROC/PID/cgroup. The v2 line comes last: a file longer than the
 * buffer (many v1 controllers with long paths) loses its cut line only. */
const struct cgroup *
cgroup_of_pid(const char *proc_root, int pid)
{
	char file[PATH_MAX], text[16384], path[PATH_MAX];
	ssize_t n;

	snprintf(file, sizeof file, "%s/%d/cgroup", proc_root, pid);
	n = read_file(file, text, sizeof text);
	if (n < 0)
		return NULL;
	if ((size_t)n == sizeof text - 1) {
		char *nl = strrchr(text, '\n');

		if (nl != NULL)
			nl[1] = '\0';
	}
	return cgroup_parse(text, path, sizeof path) ? cgroup_get(path) : NULL;
}
