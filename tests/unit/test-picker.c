/* Unit tests for ui/picker.c: fuzzy scores and their order, narrowing as
 * the query is typed, moving and choosing, and the box drawn on a headless
 * screen. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "headless.h"

#include "tracetop/util.h"
#include "ui/picker.h"

static const char *const events[] = {
    "cpu-clock",
    "task-clock",
    "page-faults",
    "context-switches",
    "cpu-migrations",
    "major-faults",
    "sched:sched_switch",
    "sched:sched_process_exec",
    "syscalls:sys_enter_openat",
};

/* Type a string into the picker. */
static void
type(struct picker *pk, const char *s)
{
	size_t idx;

	for (; *s != '\0'; s++)
		assert_int_equal(picker_key(pk, (wint_t)(unsigned char)*s, false, &idx),
		                 PICKER_NONE);
}

/* The item shown at match position i. */
static const char *
shown(const struct picker *pk, size_t i)
{
	return i < pk->nmatch ? pk->items[pk->match[i]] : NULL;
}

/* Prefix beats substring beats scattered; no match is -1; case is ignored. */
static void
test_score(void **state)
{
	(void)state;
	assert_true(picker_score("page-faults", "") == 0);
	assert_true(picker_score("page-faults", "page") >= 0);
	assert_true(picker_score("page-faults", "page") < picker_score("major-faults", "fault"));
	assert_true(picker_score("major-faults", "fault") < picker_score("page-faults", "pgf"));
	assert_true(picker_score("page-faults", "PGF") >= 0);
	assert_int_equal(picker_score("page-faults", "xyz"), -1);
	assert_int_equal(picker_score("page-faults", "stluaf"), -1); /* order counts */
	/* Tighter scattered matches first. */
	assert_true(picker_score("sched:sched_switch", "sse") <
	            picker_score("syscalls:sys_enter_openat", "sse"));
}

/* Typing narrows and ranks; Backspace widens again; Enter gives the item's
 * own index, Esc nothing. */
static void
test_narrow_and_choose(void **state)
{
	struct picker pk = {0};
	size_t idx = 99;

	(void)state;
	picker_open(&pk, "Count an event", events, ARRAY_SIZE(events));
	assert_true(pk.active);
	assert_int_equal(pk.nmatch, ARRAY_SIZE(events));
	assert_string_equal(shown(&pk, 0), "cpu-clock"); /* list order when empty */
	type(&pk, "fault");
	assert_int_equal(pk.nmatch, 2);
	assert_string_equal(shown(&pk, 0), "page-faults"); /* earlier substring */
	assert_string_equal(shown(&pk, 1), "major-faults");
	assert_int_equal(picker_key(&pk, KEY_DOWN, true, &idx), PICKER_NONE);
	assert_int_equal(picker_key(&pk, KEY_DOWN, true, &idx), PICKER_NONE); /* clamped */
	assert_int_equal(pk.sel, 1);
	assert_int_equal(picker_key(&pk, '\n', false, &idx), PICKER_CHOSEN);
	assert_string_equal(events[idx], "major-faults");
	assert_false(pk.active);

	picker_open(&pk, "again", events, ARRAY_SIZE(events));
	type(&pk, "zzz");
	assert_int_equal(pk.nmatch, 0);
	/* nothing to choose: refused, saying why, and the picker stays */
	assert_int_equal(picker_key(&pk, '\r', false, &idx), PICKER_REFUSED);
	assert_non_null(strstr(pk.why, "nothing matches 'zzz'"));
	assert_true(pk.active);
	picker_key(&pk, KEY_BACKSPACE, true, &idx);
	picker_key(&pk, KEY_BACKSPACE, true, &idx);
	picker_key(&pk, KEY_BACKSPACE, true, &idx);
	assert_int_equal(pk.nmatch, ARRAY_SIZE(events));
	type(&pk, "sched");
	assert_string_equal(shown(&pk, 0), "sched:sched_switch");
	assert_int_equal(picker_key(&pk, 27, false, &idx), PICKER_CANCEL);
	assert_false(pk.active);
	picker_free(&pk);
}

/* A stand-in for the event parser: names ending in ":u" are good. */
static bool
typed_u(void *ctx, const char *text, char *why, size_t len)
{
	size_t n = strlen(text);

	(*(int *)ctx)++;
	if (n > 2 && strcmp(text + n - 2, ":u") == 0)
		return true;
	snprintf(why, len, "'%s' has no :u", text);
	return false;
}

/* Typed text the owner accepts is offered first and chosen as
 * PICKER_TYPED (in a checklist, toggled too); an exact item name is not
 * offered again; text it refuses gives its reason on Enter. */
static void
test_typed(void **state)
{
	static const bool marks[ARRAY_SIZE(events)];
	struct picker pk = {0};
	struct theme th;
	size_t idx = 0;
	int calls = 0;
	bool seen = false;

	(void)state;
	picker_open(&pk, "Count an event", events, ARRAY_SIZE(events));
	picker_allow_typed(&pk, typed_u, &calls);
	assert_false(pk.typed_ok); /* nothing typed */
	type(&pk, "page-faults:u");
	assert_true(calls > 0);
	assert_true(pk.typed_ok);
	assert_int_equal(pk.nmatch, 0);
	theme_plain(&th, true);
	headless_screen(24, 80);
	picker_draw(&pk, stdscr, 24, 80, &th);
	for (int y = 0; y < 24; y++)
		seen |= strstr(headless_text(y, 0, 80), "page-faults:u  (as typed)") != NULL;
	assert_true(seen);
	assert_int_equal(picker_key(&pk, '\n', false, &idx), PICKER_CHOSEN);
	assert_true(idx == PICKER_TYPED);
	assert_string_equal(pk.query.text, "page-faults:u"); /* readable after close */
	assert_false(pk.active);

	/* refused: Enter says the owner's reason, the picker stays */
	picker_open(&pk, "again", events, ARRAY_SIZE(events));
	picker_allow_typed(&pk, typed_u, &calls);
	type(&pk, "nope:k");
	assert_false(pk.typed_ok);
	assert_int_equal(picker_key(&pk, '\n', false, &idx), PICKER_REFUSED);
	assert_string_equal(pk.why, "'nope:k' has no :u");
	assert_true(pk.active);
	picker_close(&pk);

	/* offered before matching items; an exact item is not offered twice */
	picker_open_checklist(&pk, "check", (const char *const[]){"b", "a:ux"}, 2, marks);
	picker_allow_typed(&pk, typed_u, &calls);
	type(&pk, "a:u");
	assert_true(pk.typed_ok);
	assert_int_equal(pk.nmatch, 1); /* a:ux, after the typed row */
	assert_int_equal(picker_key(&pk, ' ', false, &idx), PICKER_TOGGLED);
	assert_true(idx == PICKER_TYPED);
	assert_int_equal(picker_key(&pk, KEY_DOWN, true, &idx), PICKER_NONE);
	assert_int_equal(picker_key(&pk, ' ', false, &idx), PICKER_TOGGLED);
	assert_int_equal(idx, 1);
	picker_close(&pk);
	picker_open(&pk, "exact", (const char *const[]){"x:u  note"}, 1);
	picker_allow_typed(&pk, typed_u, &calls);
	type(&pk, "x:u");
	assert_false(pk.typed_ok);
	assert_int_equal(picker_key(&pk, '\n', false, &idx), PICKER_CHOSEN);
	assert_int_equal(idx, 0);
	picker_free(&pk);
}

/* Items ranked last (those this machine cannot use) come after every
 * other match, with a query too, whatever their score; in list order
 * without one. */
static void
test_rank_last(void **state)
{
	static const char *const items[] = {"cpu-clock", "sys_enter_clock_cycle_x", "cycles  [no]",
	                                    "bus-cycles  [no]"};
	struct picker pk = {0};

	(void)state;
	picker_open(&pk, "Count an event", items, ARRAY_SIZE(items));
	picker_rank_last(&pk, 2);
	assert_int_equal(pk.nmatch, 4);
	assert_int_equal(pk.match[0], 0);
	assert_int_equal(pk.match[3], 3);
	type(&pk, "cycl");
	/* "cycles" is a prefix match, the supported one only a substring */
	assert_true(picker_score(items[2], "cycl") < picker_score(items[1], "cycl"));
	assert_int_equal(pk.nmatch, 3);
	assert_int_equal(pk.match[0], 1);
	assert_int_equal(pk.match[1], 2);
	assert_int_equal(pk.match[2], 3);
	picker_close(&pk);
	/* without picker_rank_last: by score alone */
	picker_open(&pk, "again", items, ARRAY_SIZE(items));
	type(&pk, "cycl");
	assert_int_equal(pk.match[0], 2);
	picker_free(&pk);
}

/* The box: title on the border, the query, matches with the selection
 * highlighted, and the count; nothing drawn outside it. */
static void
test_draw(void **state)
{
	struct picker pk = {0};
	struct theme th;
	attr_t a;
	int y;
	bool seen_title = false, seen_count = false;

	(void)state;
	theme_plain(&th, true);
	th.attr[TH_DIALOG_SELECTED] = A_REVERSE;
	headless_screen(24, 80);
	picker_open(&pk, "Count an event", events, ARRAY_SIZE(events));
	type(&pk, "clock");
	picker_draw(&pk, stdscr, 24, 80, &th);
	for (y = 0; y < 24; y++) {
		const char *line = headless_text(y, 0, 80);

		seen_title |= strstr(line, "Count an event") != NULL;
		seen_count |= strstr(line, "2 of 9") != NULL;
		if (strstr(line, "cpu-clock") != NULL) {
			headless_cell(y, strstr(line, "cpu-clock") - line, &a);
			assert_true(a & A_REVERSE);
		}
		if (strstr(line, "task-clock") != NULL) {
			headless_cell(y, strstr(line, "task-clock") - line, &a);
			assert_false(a & A_REVERSE);
		}
		assert_null(strstr(line, "page-faults"));
	}
	assert_true(seen_title);
	assert_true(seen_count);
	assert_string_equal(headless_text(0, 0, 80), "");
	/* Too small a screen: nothing drawn, no crash. */
	headless_screen(5, 20);
	picker_draw(&pk, stdscr, 5, 20, &th);
	assert_string_equal(headless_text(2, 0, 20), "");
	picker_close(&pk);
	picker_free(&pk);
	headless_screen(24, 80);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_score),     cmocka_unit_test(test_narrow_and_choose),
	    cmocka_unit_test(test_draw),      cmocka_unit_test(test_typed),
	    cmocka_unit_test(test_rank_last),
	};

	return headless_run("picker", tests, ARRAY_SIZE(tests), false);
}
