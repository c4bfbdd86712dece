/* keymap: the key bindings, in one table. */
#include "config.h"

#include <string.h>

#include "tracetop/util.h"
#include "ui/curses.h"
#include "ui/keymap.h"

#define CTRL(c) ((c)&0x1f)

/* Every binding. Order matters: it is the order of the key bar, the help
 * pane and the man page; an action's first binding with a bar label is the
 * one the key bar shows. */
static const struct keybind keymap[] = {
    {KEY_F(1), true, "F1", ACT_HELP, SCOPE_GLOBAL, "Help", "show this help (Esc or q closes it)"},
    {'?', false, "?", ACT_HELP, SCOPE_GLOBAL, NULL, NULL},
    {'h', false, "h", ACT_HELP, SCOPE_GLOBAL, NULL, NULL},
    {KEY_F(3), true, "F3", ACT_SEARCH, SCOPE_TABLE, "Search", "search rows incrementally"},
    {'/', false, "/", ACT_SEARCH, SCOPE_TABLE, NULL, NULL},
    {'n', false, "n", ACT_SEARCH_NEXT, SCOPE_TABLE, NULL, "next match of the search"},
    {'N', false, "N", ACT_SEARCH_PREV, SCOPE_TABLE, NULL, "previous match of the search"},
    {KEY_F(4), true, "F4", ACT_FILTER, SCOPE_TABLE, "Filter",
     "filter by command, shared object or symbol (! negates, Esc clears)"},
    {'\\', false, "\\", ACT_FILTER, SCOPE_TABLE, NULL, NULL},
    {KEY_F(6), true, "F6", ACT_SORT_MENU, SCOPE_TABLE, "SortBy", "choose the sort column"},
    {'<', false, "<", ACT_SORT_PREV, SCOPE_TABLE, NULL, "sort by the previous column"},
    {'>', false, ">", ACT_SORT_NEXT, SCOPE_TABLE, NULL, "sort by the next column"},
    {'I', false, "I", ACT_SORT_INVERT, SCOPE_TABLE, NULL, "invert the sort order"},
    {'\n', false, "Enter", ACT_ENTER, SCOPE_PROCS, "Zoom",
     "zoom the Top and Counters panes into the selected process"},
    {'\r', false, "Enter", ACT_ENTER, SCOPE_PROCS, NULL, NULL},
    {KEY_ENTER, true, "Enter", ACT_ENTER, SCOPE_PROCS, NULL, NULL},
    {'H', false, "H", ACT_THREADS, SCOPE_PROCS, "Threads",
     "show or hide each process's threads under it (Enter on one zooms Top into it)"},
    {'\n', false, "Enter", ACT_ENTER, SCOPE_LATENCY, "Histogram",
     "show or hide the selected row's histogram (on a stack tree line: open or close it)"},
    {'\r', false, "Enter", ACT_ENTER, SCOPE_LATENCY, NULL, NULL},
    {KEY_ENTER, true, "Enter", ACT_ENTER, SCOPE_LATENCY, NULL, NULL},
    {'+', false, "+", ACT_EXPAND, SCOPE_LATENCY, "Stacks",
     "expand an offcpu row's stacks as a tree, outermost callers first, by blocked time"},
    {'-', false, "-", ACT_COLLAPSE, SCOPE_LATENCY, NULL,
     "collapse the selected stack tree line, or the row's tree"},
    {'E', false, "E", ACT_EXPAND_ALL, SCOPE_LATENCY, NULL, "expand every offcpu row's stacks"},
    {'C', false, "C", ACT_COLLAPSE_ALL, SCOPE_LATENCY, NULL, "collapse every stack tree"},
    {'p', false, "p", ACT_PER_PROCESS, SCOPE_LATENCY, "PerProc",
     "one row per process (offcpu, oncpu: per thread), or one per syscall, function, wait "
     "reason and kind over every process (--latency-merge); block I/O rows are by device"},
    {KEY_DC, true, "Delete", ACT_REMOVE, SCOPE_LATENCY, "Untime",
     "stop timing the selected function and remove its probe pair"},
    {'\n', false, "Enter", ACT_ENTER, SCOPE_TABLE, "Menu",
     "menu for the selected row: zoom into its process, thread, cgroup or object"},
    {'\r', false, "Enter", ACT_ENTER, SCOPE_TABLE, NULL, NULL},
    {KEY_ENTER, true, "Enter", ACT_ENTER, SCOPE_TABLE, NULL, NULL},
    {'i', false, "i", ACT_DETAIL, SCOPE_TABLE, NULL,
     "the selected row's whole text in a popup: full name, object path, every field "
     "(i or Esc closes it)"},
    {KEY_RIGHT, true, "Right", ACT_RIGHT, SCOPE_TABLE, NULL,
     "scroll the long column (symbol, fields, command) right to read what is cut"},
    {KEY_LEFT, true, "Left", ACT_BACK, SCOPE_TABLE, NULL,
     "scroll it back left; at its start, back out of a zoom"},
    {KEY_UP, true, "Up", ACT_UP, SCOPE_TABLE, NULL, "move the selection up"},
    {KEY_DOWN, true, "Down", ACT_DOWN, SCOPE_TABLE, NULL, "move the selection down"},
    {KEY_PPAGE, true, "PgUp", ACT_PAGE_UP, SCOPE_TABLE, NULL, "move up one page"},
    {KEY_NPAGE, true, "PgDn", ACT_PAGE_DOWN, SCOPE_TABLE, NULL, "move down one page"},
    {KEY_HOME, true, "Home", ACT_HOME, SCOPE_TABLE, NULL, "go to the first row"},
    {KEY_END, true, "End", ACT_END, SCOPE_TABLE, NULL, "go to the last row"},
    {'K', false, "K", ACT_HIDE_KERNEL, SCOPE_TOP, NULL, "hide or show kernel symbols"},
    {'U', false, "U", ACT_HIDE_USER, SCOPE_TOP, NULL, "hide or show user symbols"},
    {'c', false, "c", ACT_CGROUP_COL, SCOPE_TOP, NULL,
     "hide or show the Cgroup column: the container or systemd unit of each row"},
    {'g', false, "g", ACT_GROUP, SCOPE_TOP, NULL,
     "group rows by the next keys (--sort): comm,dso,sym, +pid, +tid, ..."},
    {'+', false, "+", ACT_EXPAND, SCOPE_TOP, NULL,
     "with -g: expand the row's call graph (Enter toggles one of its lines)"},
    {'-', false, "-", ACT_COLLAPSE, SCOPE_TOP, NULL,
     "with -g: collapse the selected call-graph line or row"},
    {'E', false, "E", ACT_EXPAND_ALL, SCOPE_TOP, NULL, "with -g: expand every row shown"},
    {'C', false, "C", ACT_COLLAPSE_ALL, SCOPE_TOP, NULL, "with -g: collapse every row"},
    {'G', false, "G", ACT_TREE_MODE, SCOPE_TOP, NULL,
     "with -g: show callers or callees in the call graphs"},
    {'%', false, "%", ACT_TREE_PERCENT, SCOPE_TOP, NULL,
     "with -g: call-graph percentages of the total or of the parent"},
    {'s', false, "s", ACT_COUNTERS_SCOPE, SCOPE_COUNTERS, "Scope",
     "count the system total, per CPU or per process"},
    {'a', false, "a", ACT_ADD, SCOPE_COUNTERS, "Add",
     "count another event, picked from the event catalog"},
    {KEY_IC, true, "Insert", ACT_ADD, SCOPE_COUNTERS, NULL, NULL},
    {KEY_DC, true, "Delete", ACT_REMOVE, SCOPE_COUNTERS, "Remove",
     "stop counting the selected row's event (per process: the sorted column's)"},
    {'a', false, "a", ACT_ADD, SCOPE_TRACE, "Events",
     "turn tracepoints on or off: a checklist of the catalog (Space toggles, type to narrow)"},
    {KEY_IC, true, "Insert", ACT_ADD, SCOPE_TRACE, NULL, NULL},
    {KEY_DC, true, "Delete", ACT_REMOVE, SCOPE_TRACE, NULL,
     "stop tracing the selected row's event"},
    {'p', false, "p", ACT_PAUSE, SCOPE_TRACE, "Pause",
     "pause the stream: the view holds still, events are still counted"},
    {'f', false, "f", ACT_FTRACE, SCOPE_TRACE, "Ftrace",
     "follow kernel functions with the function tracer (again: stop it)"},
    {'F', false, "F", ACT_KFILTER, SCOPE_TRACE, NULL,
     "edit the selected event's filter in the kernel (ftrace syntax; empty clears it)"},
    {'v', false, "v", ACT_SUMMARY, SCOPE_TRACE, "Summary",
     "switch between the event stream and the counts and rates per event"},
    {'a', false, "a", ACT_ADD, SCOPE_PROBES, "Insert",
     "insert a probe: a kernel function, or a function of a binary or of a target's objects; "
     "or count a tracepoint"},
    {KEY_IC, true, "Insert", ACT_ADD, SCOPE_PROBES, NULL, NULL},
    {' ', false, "Space", ACT_TOGGLE, SCOPE_PROBES, "On/off",
     "turn the selected probe's counting on or off"},
    {KEY_DC, true, "Delete", ACT_REMOVE, SCOPE_PROBES, "Remove", "remove the selected probe"},
    {'a', false, "a", ACT_ANNOTATE, SCOPE_TOP, NULL,
     "annotate the selected function: its instructions and source lines"},
    {'t', false, "t", ACT_TIME_FUNC, SCOPE_TOP, NULL,
     "time the selected function: an entry/return probe pair, its latency histogram in the "
     "Latency pane"},
    {'t', false, "t", ACT_TIME_FUNC, SCOPE_PROBES, "Time",
     "time the selected probe's function (or, in the insert dialogue, the function chosen) "
     "in the Latency pane"},
    {'F', false, "F", ACT_FLAME, SCOPE_TOP, NULL,
     "with -g: show the selected function in the Flame pane"},
    {']', false, "]", ACT_HOT_NEXT, SCOPE_ANNOTATE, "Hot",
     "the next hot line (cooler), from the hottest"},
    {'[', false, "[", ACT_HOT_PREV, SCOPE_ANNOTATE, NULL, "the previous hot line (hotter)"},
    {'\n', false, "Enter", ACT_ENTER, SCOPE_ANNOTATE, "Follow",
     "follow the selected jump, or call into its target"},
    {KEY_BACKSPACE, true, "Backspace", ACT_RETURN, SCOPE_ANNOTATE, "Back",
     "back from a call followed with Enter"},
    {127, false, "Backspace", ACT_RETURN, SCOPE_ANNOTATE, NULL, NULL},
    {'S', false, "S", ACT_TOGGLE_SOURCE, SCOPE_ANNOTATE, NULL, "hide or show the source lines"},
    {'A', false, "A", ACT_TOGGLE_ADDR, SCOPE_ANNOTATE, NULL, "hide or show the addresses"},
    {'P', false, "P", ACT_TOGGLE_COUNTS, SCOPE_ANNOTATE, NULL, "show percentages or sample counts"},
    {KEY_UP, true, "Up", ACT_UP, SCOPE_FLAME, NULL,
     "the frame above: the caller in an icicle, a callee in a flame"},
    {KEY_DOWN, true, "Down", ACT_DOWN, SCOPE_FLAME, NULL,
     "the frame below: a callee in an icicle, the caller in a flame"},
    {KEY_LEFT, true, "Left", ACT_LEFT, SCOPE_FLAME, NULL, "the frame to the left"},
    {KEY_RIGHT, true, "Right", ACT_RIGHT, SCOPE_FLAME, NULL, "the frame to the right"},
    {'\n', false, "Enter", ACT_ENTER, SCOPE_FLAME, "Zoom",
     "zoom into the selected frame: its subtree fills the width"},
    {'\r', false, "Enter", ACT_ENTER, SCOPE_FLAME, NULL, NULL},
    {KEY_ENTER, true, "Enter", ACT_ENTER, SCOPE_FLAME, NULL, NULL},
    {KEY_BACKSPACE, true, "Backspace", ACT_RETURN, SCOPE_FLAME, "Out", "zoom out one level"},
    {127, false, "Backspace", ACT_RETURN, SCOPE_FLAME, NULL, NULL},
    {KEY_HOME, true, "Home", ACT_HOME, SCOPE_FLAME, NULL, "zoom out all the way"},
    {'/', false, "/", ACT_SEARCH, SCOPE_FLAME, "Search",
     "highlight the frames whose name contains a text, with their total share"},
    {KEY_F(3), true, "F3", ACT_SEARCH, SCOPE_FLAME, NULL, NULL},
    {'r', false, "r", ACT_FLAME_CALLERS, SCOPE_FLAME, "Callers",
     "show the callers of the selected function (reversed); again: the whole graph"},
    {'i', false, "i", ACT_FLAME_FLIP, SCOPE_FLAME, "Icicle",
     "draw as a flame (root at the bottom) or an icicle (root at the top)"},
    {27, false, "Esc", ACT_CLOSE, SCOPE_GLOBAL, NULL,
     "close a dialog, clear the filter, or leave a zoom"},
    {'\t', false, "Tab", ACT_NEXT_PANE, SCOPE_GLOBAL, NULL, "next pane"},
    {KEY_BTAB, true, "Shift-Tab", ACT_PREV_PANE, SCOPE_GLOBAL, NULL, "previous pane"},
    {'z', false, "z", ACT_TOGGLE_ZERO, SCOPE_GLOBAL, NULL,
     "switch between decaying and zeroing the counts at each refresh"},
    {'Z', false, "Z", ACT_FREEZE, SCOPE_GLOBAL, "Freeze",
     "freeze the display (sampling goes on; with a history, on its newest interval); again to "
     "thaw"},
    {',', false, ",", ACT_HIST_BACK, SCOPE_GLOBAL, NULL,
     "history: show the interval before (every pane holds it; sampling goes on)"},
    {'.', false, ".", ACT_HIST_FORWARD, SCOPE_GLOBAL, NULL,
     "history: show the interval after (past the newest: now)"},
    {'!', false, "!", ACT_HIST_SPIKE, SCOPE_GLOBAL, NULL,
     "history: jump to the interval with the most samples/s"},
    {'R', false, "R", ACT_HIST_RANGE, SCOPE_GLOBAL, NULL,
     "history: start a range at the interval shown, step to its other end (again: drop it)"},
    {'L', false, "L", ACT_HIST_LIVE, SCOPE_GLOBAL, NULL, "history: back to now, the live view"},
    {'T', false, "T", ACT_HIST_SHARE, SCOPE_GLOBAL, NULL,
     "history: the strip under the header shows the share of the Top pane's selected row in "
     "each interval (it follows the selection; blank: an interval whose rows were not kept); "
     "again: samples/s"},
    {'B', false, "B", ACT_BASELINE, SCOPE_GLOBAL, NULL,
     "diff: mark what the panes show (now, or the history's interval or range) as the baseline: "
     "Top rows get Delta and Ratio (new, gone), counters and latency rows their change; again: "
     "clear it"},
    {'d', false, "d", ACT_DELAY, SCOPE_GLOBAL, NULL, "change the refresh interval"},
    {'e', false, "e", ACT_NEXT_EVENT, SCOPE_GLOBAL, NULL, "show the next event given with -e"},
    {'m', false, "m", ACT_METERS, SCOPE_GLOBAL, NULL,
     "hide or show the header meters (CPUs, memory, swap, tasks, load, uptime)"},
    {KEY_F(2), true, "F2", ACT_SAVE_SETUP, SCOPE_GLOBAL, NULL,
     "save the setup to tracetoprc: sorts, columns, meters, counters, pane, interval"},
    {CTRL('L'), false, "Ctrl-L", ACT_REDRAW, SCOPE_GLOBAL, NULL, "redraw the screen"},
    {KEY_F(10), true, "F10", ACT_QUIT, SCOPE_GLOBAL, "Quit", "quit (q first closes a dialog)"},
    {'q', false, "q", ACT_QUIT, SCOPE_GLOBAL, NULL, NULL},
};

const enum key_scope keymap_scopes[] = {SCOPE_GLOBAL,  SCOPE_TABLE,  SCOPE_TOP,      SCOPE_COUNTERS,
                                        SCOPE_TRACE,   SCOPE_PROBES, SCOPE_ANNOTATE, SCOPE_PROCS,
                                        SCOPE_LATENCY, SCOPE_FLAME};
const size_t keymap_nscopes = ARRAY_SIZE(keymap_scopes);

/* Does binding b apply in scope (every pane but help and Flame is a list
 * pane and sees the table keys too)? */
bool
keymap_applies(const struct keybind *b, enum key_scope scope)
{
	if (b->scope == SCOPE_GLOBAL || b->scope == scope)
		return true;
	return b->scope == SCOPE_TABLE && scope != SCOPE_GLOBAL && scope != SCOPE_FLAME;
}

/* The action for a key in scope. */
enum action
keymap_lookup(wint_t key, bool is_key, enum key_scope scope)
{
	for (size_t i = 0; i < ARRAY_SIZE(keymap); i++)
		if (keymap[i].key == key && keymap[i].is_key == is_key &&
		    keymap_applies(&keymap[i], scope))
			return keymap[i].action;
	return ACT_NONE;
}

/* The table itself. */
const struct keybind *
keymap_table(size_t *n)
{
	*n = ARRAY_SIZE(keymap);
	return keymap;
}

/* Heading for a scope. */
const char *
keymap_scope_name(enum key_scope scope)
{
	switch (scope) {
	case SCOPE_GLOBAL:
		return "Everywhere";
	case SCOPE_TABLE:
		return "Lists";
	case SCOPE_TOP:
		return "Top pane";
	case SCOPE_COUNTERS:
		return "Counters pane";
	case SCOPE_TRACE:
		return "Trace pane";
	case SCOPE_PROBES:
		return "Probes pane";
	case SCOPE_ANNOTATE:
		return "Annotate pane";
	case SCOPE_PROCS:
		return "Processes pane";
	case SCOPE_LATENCY:
		return "Latency pane";
	case SCOPE_FLAME:
		return "Flame pane";
	}
	return "";
}

/* The keys bound to the action of entry i, joined: "F1 ? h". */
static void
keymap_keys_of(size_t i, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < ARRAY_SIZE(keymap); j++) {
		if (keymap[j].action != keymap[i].action || keymap[j].scope != keymap[i].scope)
			continue;
		if (strstr(buf, keymap[j].name) != NULL && strlen(keymap[j].name) > 1)
			continue; /* Enter is bound three ways */
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
		                         used ? " " : "", keymap[j].name);
	}
}

/* Bytes of the first line of text wrapped at width columns: up to the
 * last blank that fits, or cut inside a word longer than the line (help
 * text is ASCII). */
static size_t
keymap_wrap(const char *text, size_t width)
{
	size_t n = strlen(text), brk = 0;

	if (n <= width)
		return n;
	for (size_t i = 1; i <= width; i++)
		if (text[i] == ' ')
			brk = i;
	return brk > 0 ? brk : width;
}

/* Help lines of one scope: the keys, then what they do wrapped at width
 * columns under its own start. */
size_t
keymap_help_lines(enum key_scope scope, int width, char lines[][KEYMAP_LINE_MAX], size_t max)
{
	const int indent = 15; /* "%-14s " */
	size_t n = 0, room;

	if (width > KEYMAP_LINE_MAX - 1)
		width = KEYMAP_LINE_MAX - 1;
	room = width > indent + 12 ? (size_t)(width - indent) : 12;
	for (size_t i = 0; i < ARRAY_SIZE(keymap) && n < max; i++) {
		const char *text = keymap[i].help;
		char keys[48];
		bool first = true;

		if (keymap[i].scope != scope || text == NULL)
			continue;
		keymap_keys_of(i, keys, sizeof keys);
		while (*text != '\0' && n < max) {
			size_t k = keymap_wrap(text, room);

			snprintf(lines[n++], KEYMAP_LINE_MAX, "%-14s %.*s", first ? keys : "",
			         (int)k, text);
			text += k;
			while (*text == ' ')
				text++;
			first = false;
		}
	}
	return n;
}

/* The KEYS section as text, scope by scope, wrapped at KEYMAP_TEXT_WIDTH. */
void
keymap_print(FILE *out)
{
	char lines[ARRAY_SIZE(keymap) * 3][KEYMAP_LINE_MAX];

	for (size_t s = 0; s < keymap_nscopes; s++) {
		size_t n = keymap_help_lines(keymap_scopes[s], KEYMAP_TEXT_WIDTH - 2, lines,
		                             ARRAY_SIZE(lines));

		fprintf(out, "%s%s:\n", s ? "\n" : "", keymap_scope_name(keymap_scopes[s]));
		for (size_t i = 0; i < n; i++)
			fprintf(out, "  %s\n", lines[i]);
	}
}
