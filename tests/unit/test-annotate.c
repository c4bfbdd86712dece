/* Unit tests for src/annotate.c, src/annotate-code.c and
 * src/report-annotate.c on programs this test builds with $TT_CC (default
 * cc): the disassembly of a hand-written function (exact mnemonics, the
 * loop's jump resolved to its line, calls to their functions), instruction
 * boundaries as objdump sees them, source lines with -g and none without,
 * percentages from a synthetic address histogram, hot-line cycling,
 * search, kernel code from a fake /proc/kcore and from a vmlinux moved by
 * KASLR, and truncated, garbage and lying files refused cleanly. */
#include "config.h"

#include <elf.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buildtest.h"

#include "tracetop/addrhist.h"
#include "tracetop/annotate-code.h"
#include "tracetop/annotate.h"
#include "tracetop/dso.h"
#include "tracetop/report-annotate.h"
#include "tracetop/srcline.h"
#include "tracetop/sym-elf.h"
#include "tracetop/util.h"

static const char prog_src[] =
    "volatile unsigned long sink;\n"
    "__asm__(\".text\\n.globl asm_fn\\n.type asm_fn, @function\\nasm_fn:\\n\"\n"
    "        \"\\txorl %eax, %eax\\n1:\\taddl $1, %eax\\n\\tcmpl %edi, %eax\\n\"\n"
    "        \"\\tjne 1b\\n\\tret\\n.size asm_fn, .-asm_fn\\n\");\n"
    "int asm_fn(int n);\n"
    "__attribute__((noinline)) unsigned long loop_fn(unsigned long n)\n"
    "{\n"
    "\tunsigned long acc = 1;\n"
    "\tfor (unsigned long i = 0; i < n; i++)\n"
    "\t\tacc += i ^ (acc >> 3);\n"
    "\treturn acc;\n"
    "}\n"
    "__attribute__((noinline)) int call_fn(int x)\n"
    "{ return asm_fn(x) + (int)loop_fn((unsigned long)x); }\n"
    "int main(int argc, char **argv)\n"
    "{ (void)argv; sink = (unsigned long)call_fn(argc); return 0; }\n";

/* The line of prog_src holding the loop body, and its text. */
#define LOOP_LINE 10
#define LOOP_TEXT "acc += i ^ (acc >> 3);"

#define KBASE 0xffffffff81000000ULL /* where the fake kernel puts asm_fn */

/* The symbol called name in a built file, through its DSO. */
static const struct sym *
sym_of(struct dso *d, const char *file, const char *name)
{
	uint64_t addr, size;
	const struct sym *s;

	assert_true(bt_nm(bt_path(file), false, name, &addr, &size));
	s = dso_find_sym(d, addr);
	assert_non_null(s);
	assert_string_equal(s->name, name);
	return s;
}

/* The annotation of a function of a built file (which must work). */
static struct annotation *
annotate_file(const char *file, const char *name)
{
	struct dso *d = bt_dso(file);
	struct tt_err err = {""};
	struct annotation *a = annotate_new(d, sym_of(d, file, name), false, &err);

	if (a == NULL)
		fail_msg("annotate %s: %s", name, err.msg);
	return a;
}

/* The i-th instruction line. */
static const struct annotate_line *
insn(const struct annotation *a, size_t i)
{
	assert_true(i < a->ninsns);
	return &a->lines[a->insn_line[i]];
}

/* Lines of a kind. */
static size_t
count_kind(const struct annotation *a, enum annotate_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nlines; i++)
		n += a->lines[i].kind == kind;
	return n;
}

/* Check asm_fn's five instructions at base (the loop's jump resolved). */
static void
check_asm_fn(const struct annotation *a, uint64_t base)
{
	static const char *const want[] = {"xorl %eax, %eax", "addl $1, %eax", "cmpl %edi, %eax",
	                                   NULL, "retq"};
	char jne[64];

	assert_true(a->ninsns >= 5);
	snprintf(jne, sizeof jne, "jne 0x%llx", (unsigned long long)base + 2);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(insn(a, i)->text, want[i] ? want[i] : jne);
	assert_int_equal(insn(a, 0)->addr, base);
	assert_int_equal(insn(a, 1)->addr, base + 2);
	assert_true(insn(a, 3)->jump && !insn(a, 3)->call);
	assert_int_equal(insn(a, 3)->target_addr, base + 2);
	assert_int_equal(insn(a, 3)->target, (ssize_t)a->insn_line[1]);
	assert_string_equal(insn(a, 3)->target_name, "asm_fn+0x2");
	assert_true(insn(a, 4)->ret);
	assert_int_equal(insn(a, 0)->target, -1);
}

/* A known function disassembles to exactly its instructions. */
static void
test_disassembly(void **state)
{
	struct annotation *a = annotate_file("prog", "asm_fn");

	(void)state;
	check_asm_fn(a, a->start);
	assert_int_equal(a->ninsns, 5);
	assert_int_equal(a->size, 10);
	assert_false(a->kernel);
	assert_int_equal(a->hottest, -1);
	assert_string_equal(a->code_from, bt_path("prog"));
	annotate_free(a);
}

/* Instruction boundaries of compiled code agree with objdump's. */
static void
test_boundaries(void **state)
{
	struct annotation *a = annotate_file("prog", "loop_fn");
	char line[512];
	size_t k = 0;
	FILE *p;

	(void)state;
	snprintf(line, sizeof line,
	         "objdump -d --no-show-raw-insn --start-address=0x%llx --stop-address=0x%llx '%s'",
	         (unsigned long long)a->start, (unsigned long long)(a->start + a->size),
	         bt_path("prog"));
	assert_non_null(p = popen(line, "r"));
	while (fgets(line, sizeof line, p) != NULL) {
		unsigned long long addr;
		char colon;

		if (sscanf(line, " %llx%c", &addr, &colon) == 2 && colon == ':' && line[0] == ' ')
			assert_int_equal(insn(a, k++)->addr, addr);
	}
	pclose(p);
	assert_int_equal(k, a->ninsns);
	annotate_free(a);
}

/* Direct calls name the function called and lead to it. */
static void
test_call_targets(void **state)
{
	struct dso *d = bt_dso("prog");
	struct annotation *a = annotate_file("prog", "call_fn");
	const struct sym *asm_fn = sym_of(d, "prog", "asm_fn");
	bool seen = false;

	(void)state;
	for (size_t i = 0; i < a->ninsns; i++) {
		const struct annotate_line *l = insn(a, i);

		if (!l->call || l->target_sym != asm_fn)
			continue;
		seen = true;
		assert_string_equal(l->target_name, "asm_fn");
		assert_ptr_equal(l->target_dso, d);
		assert_int_equal(l->target, -1);
	}
	assert_true(seen);
	annotate_free(a);
}

/* With -g the loop's source line stands above its instructions, with its
 * text; without the file, file:line alone. */
static void
test_source_lines(void **state)
{
	struct annotation *a = annotate_file("prog", "loop_fn");
	char want[64];
	bool seen = false;

	(void)state;
	assert_true(a->debug);
	assert_string_equal(a->notice, "");
	snprintf(want, sizeof want, "prog.c:%d ", LOOP_LINE);
	for (size_t i = 0; i < a->nlines; i++) {
		const struct annotate_line *l = &a->lines[i];

		if (l->kind != ANNOTATE_SOURCE || l->lineno != LOOP_LINE)
			continue;
		seen = true;
		assert_true(strncmp(l->text, want, strlen(want)) == 0);
		assert_non_null(strstr(l->text, LOOP_TEXT));
		assert_string_equal(strrchr(l->file, '/'), "/prog.c");
		assert_true(i + 1 < a->nlines && a->lines[i + 1].kind == ANNOTATE_INSN);
		assert_int_equal(l->addr, a->lines[i + 1].addr);
	}
	assert_true(seen);
	annotate_free(a);

	assert_true(bt_sh("mv '%s' '%s'", bt_path("prog.c"), bt_path("prog.c.away")));
	a = annotate_file("prog", "loop_fn");
	assert_true(bt_sh("mv '%s' '%s'", bt_path("prog.c.away"), bt_path("prog.c")));
	snprintf(want, sizeof want, "prog.c:%d", LOOP_LINE);
	seen = false;
	for (size_t i = 0; i < a->nlines; i++)
		if (a->lines[i].kind == ANNOTATE_SOURCE && a->lines[i].lineno == LOOP_LINE)
			seen = strcmp(a->lines[i].text, want) == 0;
	assert_true(seen);
	annotate_free(a);
}

/* Without debug info: the disassembly alone, and a notice saying so. */
static void
test_no_debug(void **state)
{
	struct annotation *a = annotate_file("nodbg", "loop_fn");

	(void)state;
	assert_false(a->debug);
	assert_string_equal(a->notice, "no debug info for nodbg: disassembly only");
	assert_int_equal(count_kind(a, ANNOTATE_SOURCE), 0);
	assert_true(a->ninsns > 3);
	annotate_free(a);
}

/* Percentages come from the address histogram: mid-instruction samples
 * count for their instruction, they add up to 100, the hottest line leads
 * the hot order and cycling goes round it. */
static void
test_percentages(void **state)
{
	struct dso *d = bt_dso("prog");
	struct annotation *a = annotate_file("prog", "asm_fn");
	const struct sym *s = a->sym;
	struct addrhist *ah = addrhist_new(0.5);
	size_t add = a->insn_line[1], cmp = a->insn_line[2];
	double sum = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		addrhist_add(ah, d, s, false, s->start + 2);
	addrhist_add(ah, d, s, false, s->start + 6); /* inside cmpl (at +5) */
	addrhist_add(ah, d, sym_of(d, "prog", "loop_fn"), false,
	             sym_of(d, "prog", "loop_fn")->start); /* another function */
	addrhist_tick(ah, false);
	annotate_update(a, addrhist_find(ah, d, s));
	assert_true(a->lines[add].percent == 75.0);
	assert_true(a->lines[cmp].percent == 25.0);
	assert_int_equal(a->lines[add].samples, 3);
	assert_int_equal(a->lines[cmp].total, 1);
	assert_int_equal(a->samples, 4);
	for (size_t i = 0; i < a->nlines; i++)
		sum += a->lines[i].percent;
	assert_true(sum > 99.999 && sum < 100.001);
	assert_int_equal(a->hottest, (ssize_t)add);
	assert_int_equal(annotate_next_hot(a, (ssize_t)add, 1), (ssize_t)cmp);
	assert_int_equal(annotate_next_hot(a, (ssize_t)cmp, 1), (ssize_t)add);
	assert_int_equal(annotate_next_hot(a, (ssize_t)add, -1), (ssize_t)cmp);
	assert_int_equal(annotate_next_hot(a, (ssize_t)a->insn_line[0], 1), (ssize_t)add);
	assert_int_equal(annotate_next_hot(a, (ssize_t)a->insn_line[0], -1), (ssize_t)cmp);

	addrhist_tick(ah, false); /* decayed: the shares stay */
	annotate_update(a, addrhist_find(ah, d, s));
	assert_true(a->lines[add].percent == 75.0);
	assert_true(a->lines[add].score == 1.5);
	annotate_update(a, NULL);
	assert_int_equal(a->hottest, -1);
	assert_int_equal(annotate_next_hot(a, 0, 1), -1);
	assert_true(a->lines[add].percent == 0.0);
	addrhist_free(ah);
	annotate_free(a);
}

/* Samples spread over a compiled function still add up to 100 %. */
static void
test_percent_sum(void **state)
{
	struct dso *d = bt_dso("prog");
	struct annotation *a = annotate_file("prog", "loop_fn");
	struct addrhist *ah = addrhist_new(0.875);
	struct addrhist_copy copy = {0};
	uint64_t r = 12345;
	double sum = 0;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		addrhist_add(ah, d, a->sym, false, a->start + (r >> 33) % a->size);
	}
	addrhist_tick(ah, false);
	/* as a frame has it: a compacted copy of the function asked for */
	addrhist_want(ah, d, a->sym, false);
	addrhist_copy_wanted(ah, &copy);
	assert_int_equal(copy.n, 1);
	annotate_update(a, addrhist_copy_find(&copy, d, a->sym));
	for (size_t i = 0; i < a->nlines; i++)
		sum += a->lines[i].percent;
	assert_true(sum > 99.999 && sum < 100.001);
	assert_int_equal(a->total, 1000);
	/* the copy outlives the table */
	addrhist_free(ah);
	ah = NULL;
	annotate_update(a, addrhist_copy_find(&copy, d, a->sym));
	assert_int_equal(a->total, 1000);
	addrhist_copy_free(&copy);
	addrhist_free(ah);
	annotate_free(a);
}

/* Lines by address, and search. */
static void
test_lookup_search(void **state)
{
	struct annotation *a = annotate_file("prog", "asm_fn");
	ssize_t cmp = (ssize_t)a->insn_line[2];

	(void)state;
	assert_int_equal(annotate_line_of(a, a->start + 6), cmp);
	assert_int_equal(annotate_line_of(a, a->start + a->size), -1);
	assert_int_equal(annotate_line_of(a, a->start - 1), -1);
	assert_int_equal(annotate_search(a, -1, "CMPL", 1), cmp);
	assert_int_equal(annotate_search(a, cmp, "cmpl", 1), cmp); /* wraps round */
	assert_int_equal(annotate_search(a, (ssize_t)a->insn_line[4], "xorl", -1),
	                 (ssize_t)a->insn_line[0]);
	assert_int_equal(annotate_search(a, 0, "no such text", 1), -1);
	annotate_free(a);
}

/* Reports: JSON fields, the text listing, names from files escaped. */
static void
test_reports(void **state)
{
	struct dso *d = bt_dso("prog");
	const struct sym *s = sym_of(d, "prog", "asm_fn");
	struct sym evil = {.start = s->start, .size = s->size, .name = "evil\033name"};
	static const char json_head[] = "{\"view\":\"annotate\",\"symbol\":\"evil\\\\x1bname\"";
	struct tt_err err;
	struct annotation *a = annotate_new(d, &evil, false, &err);
	char *buf;
	size_t len;
	FILE *f;

	(void)state;
	assert_non_null(a);
	assert_non_null(f = open_memstream(&buf, &len));
	report_annotate_json(f, a);
	report_annotate_text(f, a);
	fclose(f);
	assert_true(strncmp(buf, json_head, strlen(json_head)) == 0);
	/* debug info, but none for hand-written assembly */
	assert_non_null(strstr(buf, "\"debug\":false,\"notice\":\"no line info for "
	                            "evil\\\\x1bname in prog: disassembly only\""));
	assert_non_null(strstr(buf, "\"insn\":\"retq\",\"percent\":0.00,\"samples\":0"));
	assert_non_null(strstr(buf, "\"target\":\"evil\\\\x1bname+0x2\""));
	assert_non_null(strstr(buf, "annotate: evil\\x1bname  object: "));
	assert_non_null(strstr(buf, "│"));
	assert_non_null(strstr(buf, ":  jne "));
	assert_null(strchr(buf, '\033'));
	free(buf);
	annotate_free(a);
}

/* Files that lie, are cut short or are not ELF are refused with a
 * reason; so are symbols that cannot be annotated. */
static void
test_bounds(void **state)
{
	struct dso *d = bt_dso("trunc");
	const struct sym *s = sym_of(d, "trunc", "loop_fn");
	struct sym fake = {.start = 0x1000, .size = 64, .name = "fake"};
	struct sym huge = {.start = s->start, .size = 1ULL << 40, .name = "huge"};
	struct sym nosize = {.start = s->start, .name = "nosize"};
	struct tt_err err;

	(void)state;
	assert_true(bt_sh("truncate -s 3000 '%s'", bt_path("trunc")));
	err.msg[0] = '\0';
	assert_null(annotate_new(d, s, false, &err));
	assert_true(err.msg[0] != '\0');
	assert_true(bt_sh("head -c 65536 /dev/urandom > '%s'", bt_path("garbage")));
	assert_null(annotate_new(bt_dso("garbage"), &fake, false, &err));
	assert_non_null(strstr(err.msg, "cannot read"));
	assert_null(annotate_new(bt_dso("prog"), &huge, false, &err));
	assert_non_null(strstr(err.msg, "not in a loaded segment"));
	assert_null(annotate_new(bt_dso("prog"), &nosize, false, &err));
	assert_non_null(strstr(err.msg, "no size"));
	assert_null(annotate_new(bt_dso("prog"), NULL, false, &err));
	assert_null(annotate_new(dso_get("[anon]", 0, 0), &fake, false, &err));
	assert_non_null(strstr(err.msg, "not a file"));
}

/* Image headers: absurd program header tables and segments reaching past
 * the file are refused; addresses map inside one segment only. */
static void
test_image_headers(void **state)
{
	unsigned char head[sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr)] = {0};
	Elf64_Ehdr eh = {.e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB},
	                 .e_machine = EM_X86_64,
	                 .e_phoff = sizeof eh,
	                 .e_phentsize = sizeof(Elf64_Phdr),
	                 .e_phnum = 2};
	Elf64_Phdr ph[2] = {
	    {.p_type = PT_LOAD, .p_offset = 0x1000, .p_vaddr = KBASE, .p_filesz = 0x100},
	    {.p_type = PT_LOAD, .p_offset = 0x2000, .p_vaddr = KBASE + 0x1000, .p_filesz = 0x10000},
	};
	struct dso_seg *segs;
	size_t nsegs;
	uint64_t off;

	(void)state;
	memcpy(head, &eh, sizeof eh);
	memcpy(head + sizeof eh, ph, sizeof ph);
	assert_int_equal(annotate_code_headers_size(head, sizeof head), sizeof head);
	assert_int_equal(annotate_code_segments(head, sizeof head, 0x3000, &segs, &nsegs), 0);
	assert_int_equal(nsegs, 1); /* the second reaches past the file */
	assert_int_equal(annotate_code_offset(segs, nsegs, KBASE + 0x10, 0xf0, &off), 0);
	assert_int_equal(off, 0x1010);
	assert_int_equal(annotate_code_offset(segs, nsegs, KBASE + 0x10, 0xf1, &off), -1);
	assert_int_equal(annotate_code_offset(segs, nsegs, KBASE - 1, 1, &off), -1);
	free(segs);
	assert_int_equal(annotate_code_segments(head, sizeof head - 1, 0x3000, &segs, &nsegs), -1);
	free(segs);
	eh.e_phnum = ANNOTATE_MAX_PHDRS + 1;
	memcpy(head, &eh, sizeof eh);
	assert_int_equal(annotate_code_headers_size(head, sizeof head), 0);
	eh.e_phnum = 2;
	eh.e_phoff = ~0ULL - 8;
	memcpy(head, &eh, sizeof eh);
	assert_int_equal(annotate_code_headers_size(head, sizeof head), 0);
	eh.e_phoff = sizeof eh;
	eh.e_machine = EM_AARCH64;
	memcpy(head, &eh, sizeof eh);
	assert_int_equal(annotate_code_headers_size(head, sizeof head), 0);
	assert_int_equal(annotate_code_headers_size(head, 10), 0);
}

/* Start over with a fake kernel: kallsyms lines, the kcore, vmlinux and
 * notes files (NULL: missing), and return the kernel symbol at addr. */
static const struct sym *
fake_kernel(const char *kallsyms, const char *kcore, const char *vmlinux, const char *notes,
            uint64_t addr)
{
	char *paths[3] = {xstrdup(kcore ? kcore : bt_path("no-kcore")),
	                  xstrdup(vmlinux ? vmlinux : bt_path("no-vmlinux")),
	                  xstrdup(notes ? notes : "")}; /* bt_path's buffers rotate */
	FILE *f = fopen(bt_path("kallsyms"), "w");
	const struct sym *s;

	assert_non_null(f);
	fputs(kallsyms, f);
	fclose(f);
	srcline_free_all();
	dso_cache_free();
	dso_set_debug_root(bt_root);
	dso_set_kallsyms_path(bt_path("kallsyms"));
	annotate_code_set_paths(paths[0], paths[1], paths[2]);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		free(paths[i]);
	assert_non_null(dso_kernel_resolve(addr, &s));
	assert_non_null(s);
	return s;
}

/* Write an ELF core whose one PT_LOAD maps KBASE to asm_fn's bytes. */
static void
write_kcore(void)
{
	struct dso *d = bt_dso("prog");
	const struct sym *s = sym_of(d, "prog", "asm_fn");
	unsigned char code[0x200] = {0};
	Elf64_Ehdr eh = {.e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB},
	                 .e_type = ET_CORE,
	                 .e_machine = EM_X86_64,
	                 .e_phoff = sizeof eh,
	                 .e_phentsize = sizeof(Elf64_Phdr),
	                 .e_phnum = 1};
	Elf64_Phdr ph = {
	    .p_type = PT_LOAD, .p_offset = 0x1000, .p_vaddr = KBASE, .p_filesz = sizeof code};
	struct tt_err err;
	FILE *f = fopen(bt_path("kcore"), "w");

	assert_int_equal(annotate_code_user(d, s->start, s->size, code, &err), 0);
	assert_non_null(f);
	fwrite(&eh, sizeof eh, 1, f);
	fwrite(&ph, sizeof ph, 1, f);
	fseek(f, 0x1000, SEEK_SET);
	fwrite(code, sizeof code, 1, f);
	fclose(f);
}

/* Kernel code from /proc/kcore: at its kernel addresses, jump resolved. */
static void
test_kernel_kcore(void **state)
{
	const struct sym *s;
	struct annotation *a;
	struct tt_err err = {""};

	(void)state;
	write_kcore();
	s = fake_kernel("ffffffff81000000 T asm_fn\nffffffff81000100 T knext\n", bt_path("kcore"),
	                NULL, NULL, KBASE + 3);
	a = annotate_new(dso_kernel(NULL), s, true, &err);
	if (a == NULL)
		fail_msg("%s", err.msg);
	check_asm_fn(a, KBASE);
	assert_true(a->kernel);
	assert_false(a->debug);
	assert_string_equal(a->notice, "no debug info for the kernel: disassembly only");
	assert_string_equal(a->code_from, bt_path("kcore"));
	annotate_free(a);
	/* past the kcore's segment: refused, saying where it looked */
	s = fake_kernel("ffffffff82000000 T far_fn\nffffffff82000100 T knext\n", bt_path("kcore"),
	                NULL, NULL, 0xffffffff82000000ULL);
	assert_null(annotate_new(dso_kernel(NULL), s, true, &err));
	assert_non_null(strstr(err.msg, "does not map 0xffffffff82000000"));
}

/* Write a notes file holding a build-id note of n bytes. */
static void
write_notes(const uint8_t *id, int n)
{
	uint32_t hdr[3] = {4, (uint32_t)n, NT_GNU_BUILD_ID};
	unsigned char pad[4] = {0};
	FILE *f = fopen(bt_path("notes"), "w");

	assert_non_null(f);
	fwrite(hdr, sizeof hdr, 1, f);
	fwrite("GNU", 4, 1, f);
	fwrite(id, (size_t)n, 1, f);
	fwrite(pad, (size_t)((4 - n % 4) % 4), 1, f);
	fclose(f);
}

/* Without kcore, a vmlinux of the running kernel (by build-id): the
 * function found by name, read at its link address, shown at the
 * KASLR-moved one; a vmlinux of another kernel is not used. */
static void
test_kernel_vmlinux(void **state)
{
	uint64_t addr, size, moved;
	uint8_t id[20];
	int n = symelf_build_id(bt_path("nopie"), id, sizeof id);
	char line[256];
	const struct sym *s;
	struct annotation *a;
	struct tt_err err = {""};

	(void)state;
	assert_true(bt_nm(bt_path("nopie"), false, "asm_fn", &addr, &size));
	moved = addr + 0x1000000;
	snprintf(line, sizeof line, "%llx T asm_fn\n%llx T knext\n", (unsigned long long)moved,
	         (unsigned long long)moved + 0x100);
	s = fake_kernel(line, NULL, bt_path("nopie"), NULL, moved);
	a = annotate_new(dso_kernel(NULL), s, true, &err);
	if (a == NULL)
		fail_msg("%s", err.msg);
	check_asm_fn(a, moved);
	assert_int_equal(a->ninsns, 5); /* the vmlinux's size, not the gap */
	assert_string_equal(a->code_from, bt_path("nopie"));
	annotate_free(a);

	assert_true(n > 0);
	write_notes(id, n);
	s = fake_kernel(line, NULL, bt_path("nopie"), bt_path("notes"), moved);
	assert_non_null(a = annotate_new(dso_kernel(NULL), s, true, &err));
	annotate_free(a);
	id[0] ^= 0xff;
	write_notes(id, n);
	s = fake_kernel(line, NULL, bt_path("nopie"), bt_path("notes"), moved);
	assert_null(annotate_new(dso_kernel(NULL), s, true, &err));
}

/* Neither: a message naming what is missing; module code needs kcore. */
static void
test_kernel_missing(void **state)
{
	const struct sym *s;
	struct tt_err err;

	(void)state;
	s = fake_kernel("ffffffff81000000 T kfn\nffffffffc0000000 t modfn\t[mymod]\n", NULL, NULL,
	                NULL, KBASE);
	assert_null(annotate_new(dso_kernel(NULL), s, true, &err));
	assert_non_null(strstr(err.msg, "kernel function kfn"));
	assert_non_null(strstr(err.msg, "no-kcore does not exist"));
	assert_non_null(strstr(err.msg, "vmlinux"));
	assert_non_null(dso_kernel_resolve(0xffffffffc0000000ULL, &s));
	assert_null(annotate_new(dso_kernel("mymod"), s, true, &err));
	assert_non_null(strstr(err.msg, "modfn [mymod]"));
	annotate_code_set_paths(NULL, NULL, NULL);
}

/* Build the programs and write their source. */
static int
setup(void **state)
{
	FILE *f;

	(void)state;
	if (bt_mkdirs("tt-annotate") != 0 || (f = fopen(bt_path("prog.c"), "w")) == NULL)
		return -1;
	fputs(prog_src, f);
	fclose(f);
	return bt_sh("cd '%s' && %s -O1 -g -o prog prog.c && %s -O1 -o nodbg prog.c && "
	             "%s -O1 -g -fno-pie -no-pie -Wl,--build-id -o nopie prog.c && cp prog trunc",
	             bt_dir, bt_cc, bt_cc, bt_cc)
	           ? 0
	           : -1;
}

/* Remove the directory tree. */
static int
teardown(void **state)
{
	(void)state;
	annotate_code_set_paths(NULL, NULL, NULL);
	srcline_free_all();
	dso_cache_free();
	return bt_sh("rm -rf '%s'", bt_dir) ? 0 : -1;
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_disassembly),    cmocka_unit_test(test_boundaries),
	    cmocka_unit_test(test_call_targets),   cmocka_unit_test(test_source_lines),
	    cmocka_unit_test(test_no_debug),       cmocka_unit_test(test_percentages),
	    cmocka_unit_test(test_percent_sum),    cmocka_unit_test(test_lookup_search),
	    cmocka_unit_test(test_reports),        cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_image_headers),  cmocka_unit_test(test_kernel_kcore),
	    cmocka_unit_test(test_kernel_vmlinux), cmocka_unit_test(test_kernel_missing),
	};
	static const char *const tools[] = {"nm", "objdump", "truncate", "head"};

	return bt_run_group("annotate", tests, ARRAY_SIZE(tests), tools, ARRAY_SIZE(tools), setup,
	                    teardown);
}
