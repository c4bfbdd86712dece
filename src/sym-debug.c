/* sym-debug: build-ids and separate debug files. A stripped file's names
 * come from its debug file: under the debug root by build-id
 * (ROOT/.build-id/xx/yyyy.debug), else where its .gnu_debuglink points
 * (checked by CRC), else a debuginfod download already in the client's
 * cache. Only the worker's symbol loads download (src/dso.c): every other
 * lookup here reads files only, so the loop thread may call them. */
#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym-elf-impl.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/sym-elf.h"

static pthread_once_t crc_once = PTHREAD_ONCE_INIT;
static uint32_t crc_table[256];

/* One-time set-up of the CRC-32 table. */
static void
crc_init(void)
{
	uint32_t c;
	unsigned i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

/* Look for an NT_GNU_BUILD_ID note in note data; its length or -1. */
static int
note_build_id(Elf_Data *data, uint8_t *id, size_t idlen)
{
	size_t off = 0, next, name_off, desc_off;
	const char *base;
	GElf_Nhdr nh;

	if (data == NULL || data->d_buf == NULL)
		return -1;
	base = data->d_buf;
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp(base + name_off, "GNU", 4) == 0 && nh.n_descsz > 0 &&
		    nh.n_descsz <= idlen && nh.n_descsz <= SYMELF_BUILD_ID_MAX) {
			memcpy(id, base + desc_off, nh.n_descsz);
			return (int)nh.n_descsz;
		}
		off = next;
	}
	return -1;
}

/* The build-id from SHT_NOTE sections, else from PT_NOTE segments. */
int
symelf_elf_build_id(Elf *elf, uint8_t *id, size_t idlen)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;
	size_t i, n;
	int len;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		if ((len = note_build_id(elf_getdata(scn, NULL), id, idlen)) > 0)
			return len;
	}
	if (elf_getphdrnum(elf, &n) != 0)
		return -1;
	for (i = 0; i < n && i < 65536; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_NOTE)
			continue;
		len = note_build_id(
		    elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR), id,
		    idlen);
		if (len > 0)
			return len;
	}
	return -1;
}

/* Read the build-id of a file. */
int
symelf_build_id(const char *path, uint8_t *id, size_t idlen)
{
	struct tt_err err;
	int fd, len;
	Elf *elf = symelf_open(path, &fd, &err);

	if (elf == NULL)
		return -1;
	len = symelf_elf_build_id(elf, id, idlen);
	symelf_close(elf, fd);
	return len;
}

/* The standard CRC-32 (as .gnu_debuglink uses) of a whole file; -1 on error. */
static int
file_crc32(const char *path, uint32_t *out)
{
	unsigned char buf[65536];
	uint32_t crc = 0xffffffffu;
	struct stat sb;
	ssize_t n, i;
	int fd;

	pthread_once(&crc_once, crc_init);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, sizeof buf)) > 0)
		for (i = 0; i < n; i++)
			crc = crc_table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
	close(fd);
	if (n < 0)
		return -1;
	*out = crc ^ 0xffffffffu;
	return 0;
}

/* Whether candidate is an ELF file whose build-id is id. */
static bool
build_id_matches(const char *candidate, const uint8_t *id, int idlen)
{
	uint8_t got[SYMELF_BUILD_ID_MAX];

	return symelf_build_id(candidate, got, sizeof got) == idlen &&
	       memcmp(got, id, (size_t)idlen) == 0;
}

/* ROOT/.build-id/xx/yyyy.debug for a build-id, if it exists and matches. */
static char *
debug_by_build_id(Elf *elf, const char *root)
{
	uint8_t id[SYMELF_BUILD_ID_MAX];
	char hex[2 * SYMELF_BUILD_ID_MAX + 1], *cand;
	int len, i;

	len = symelf_elf_build_id(elf, id, sizeof id);
	if (len < 2)
		return NULL;
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	cand = xasprintf("%s/.build-id/%.2s/%s.debug", root, hex, hex + 2);
	if (build_id_matches(cand, id, len))
		return cand;
	free(cand);
	return NULL;
}

/* The file name and CRC in .gnu_debuglink; false when absent or malformed
 * (a name with a '/' could point anywhere: refused). */
static bool
read_debuglink(Elf *elf, char *name, size_t namecap, uint32_t *crc)
{
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf_Scn *scn = symelf_section_named(elf, ".gnu_debuglink", &sh);
	Elf_Data *data;
	const unsigned char *p, *c;
	size_t len, crc_off;

	if (scn == NULL || sh.sh_type == SHT_NOBITS || gelf_getehdr(elf, &eh) == NULL)
		return false;
	data = elf_getdata(scn, NULL);
	if (data == NULL || data->d_buf == NULL)
		return false;
	p = data->d_buf;
	if (memchr(p, '\0', data->d_size) == NULL)
		return false;
	len = strlen((const char *)p);
	crc_off = (len + 4) & ~(size_t)3;
	if (len == 0 || len >= namecap || crc_off + 4 > data->d_size ||
	    strchr((const char *)p, '/') || strcmp((const char *)p, ".") == 0 ||
	    strcmp((const char *)p, "..") == 0)
		return false;
	memcpy(name, p, len + 1);
	c = p + crc_off;
	if (eh.e_ident[EI_DATA] == ELFDATA2MSB)
		*crc = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
	else
		*crc = (uint32_t)c[3] << 24 | (uint32_t)c[2] << 16 | (uint32_t)c[1] << 8 | c[0];
	return true;
}

/* Whether candidate is not path itself and its CRC-32 is crc. */
static bool
debuglink_matches(const char *candidate, const struct stat *self, uint32_t crc)
{
	struct stat sb;
	uint32_t got;

	if (stat(candidate, &sb) != 0 || !S_ISREG(sb.st_mode))
		return false;
	if (self != NULL && sb.st_dev == self->st_dev && sb.st_ino == self->st_ino)
		return false;
	return file_crc32(candidate, &got) == 0 && got == crc;
}

/* The .gnu_debuglink target: next to path, in its .debug/, under ROOT/DIR/. */
static char *
debug_by_link(Elf *elf, const char *path, const char *root)
{
	char name[256], *dir, *cand = NULL, *slash;
	struct stat self, *selfp = NULL;
	uint32_t crc;
	int i;

	if (!read_debuglink(elf, name, sizeof name, &crc))
		return NULL;
	if (stat(path, &self) == 0)
		selfp = &self;
	slash = strrchr(path, '/');
	dir = slash != NULL ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	for (i = 0; i < 3; i++) {
		if (i == 0)
			cand = xasprintf("%s/%s", dir, name);
		else if (i == 1)
			cand = xasprintf("%s/.debug/%s", dir, name);
		else if (dir[0] == '/')
			cand = xasprintf("%s%s/%s", root, dir, name);
		else
			break;
		if (debuglink_matches(cand, selfp, crc))
			break;
		free(cand);
		cand = NULL;
	}
	free(dir);
	return cand;
}

/* A past debuginfod download of the file's build-id, if it matches. */
static char *
debug_by_debuginfod(Elf *elf)
{
	uint8_t id[SYMELF_BUILD_ID_MAX];
	char *cand;
	int len;

	if (!symdbg_enabled() || (len = symelf_elf_build_id(elf, id, sizeof id)) < 2)
		return NULL;
	cand = symdbg_cached(id, (size_t)len);
	if (cand != NULL && !build_id_matches(cand, id, len)) {
		free(cand);
		cand = NULL;
	}
	return cand;
}

/* The debug file for an open ELF: build-id first, then .gnu_debuglink,
 * then debuginfod's cache. */
char *
symelf_debug_path(Elf *elf, const char *path, const char *root)
{
	char *found;

	if (root == NULL)
		root = SYMELF_DEFAULT_DEBUG_ROOT;
	found = debug_by_build_id(elf, root);
	if (found == NULL)
		found = debug_by_link(elf, path, root);
	if (found == NULL)
		found = debug_by_debuginfod(elf);
	return found;
}

/* Find the separate debug file for path. */
char *
symelf_find_debug(const char *path, const char *debug_root)
{
	struct tt_err err;
	char *found;
	int fd;
	Elf *elf = symelf_open(path, &fd, &err);

	if (elf == NULL)
		return NULL;
	found = symelf_debug_path(elf, path, debug_root);
	symelf_close(elf, fd);
	return found;
}
