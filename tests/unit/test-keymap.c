/* Unit tests for the key map's help text (ui/keymap.c): lines wrap at the
 * width asked, never past it, and cut no text. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ui/keymap.h"

/* Joined back, each action's lines are its help text exactly, under its
 * keys, at every width. */
static void
test_help_wrap(void **state)
{
	static const int widths[] = {40, 60, 70, 78};
	static char lines[256][KEYMAP_LINE_MAX];
	size_t nb;
	const struct keybind *b = keymap_table(&nb);

	(void)state;
	for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
		for (size_t s = 0; s < keymap_nscopes; s++) {
			size_t n = keymap_help_lines(keymap_scopes[s], widths[wi], lines, 256),
			       k = 0;

			for (size_t i = 0; i < nb; i++) {
				char joined[512] = "";

				if (b[i].scope != keymap_scopes[s] || b[i].help == NULL)
					continue;
				assert_true(k < n);
				assert_memory_equal(lines[k], b[i].name, strlen(b[i].name));
				do {
					assert_true(strlen(lines[k]) <= (size_t)widths[wi]);
					if (joined[0] != '\0')
						strcat(joined, " ");
					strcat(joined, lines[k] + 15);
					k++;
				} while (k < n && strncmp(lines[k], "               ", 15) == 0);
				assert_string_equal(joined, b[i].help);
			}
			assert_int_equal(k, n);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_help_wrap),
	};

	return cmocka_run_group_tests_name("keymap", tests, NULL, NULL);
}
