/* tabledetail: the selected row's whole text in a popup over the table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/menu.h"
#include "ui/tabledetail.h"

#define DETAIL_MAX 8192 /* bytes of one row's detail text */
#define DETAIL_LINES 64 /* wrapped lines kept */

/* The pane's detail text, or each shown column's title and cell. */
void
tabledetail_text(const struct table *t, const void *row, char *buf, size_t len)
{
	char cell[TABLE_CELL_MAX];
	size_t used = 0;

	buf[0] = '\0';
	if (t->ops->detail != NULL) {
		t->ops->detail(row, buf, len, t->ctx);
		buf[len - 1] = '\0';
		return;
	}
	for (size_t i = 0; i < t->ncols && used < len; i++) {
		const char *title = t->cols[i].title;

		if (t->cols[i].hidden)
			continue;
		table_cell(t, row, i, cell);
		if (cell[0] == '\0')
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? "\n" : "",
		                         title && title[0] ? title : "-", cell);
	}
}

/* One wrapped line of the popup. */
struct dline {
	const char *s;
	int len;
	int indent; /* a continuation of a long line is indented */
};

/* Wrap text at cells into lines. */
static int
detail_wrap(const char *text, int cells, struct dline *l, int max)
{
	int n = 0;
	bool cont = false;

	while (*text != '\0' && n < max) {
		int room = cont ? cells - 2 : cells;
		size_t k = wtext_wrap(text, room > 1 ? room : 1);
		size_t e = k;

		while (e > 0 && (text[e - 1] == '\n' || text[e - 1] == ' '))
			e--;
		l[n].s = text;
		l[n].len = (int)e;
		l[n++].indent = cont ? 2 : 0;
		cont = k > 0 && text[k - 1] != '\n';
		text += k;
	}
	return n;
}

/* Draw the popup: a box over the rows, the text wrapped inside it. */
void
tabledetail_draw(struct table *t, struct pen *p)
{
	const void *row = table_selected(t);
	static char text[DETAIL_MAX];
	struct dline l[DETAIL_LINES];
	int n, h, y, sel_y;
	attr_t attr = p->th->attr[TH_DIALOG];

	if (row == NULL || t->height < 3 || t->width < 12)
		return;
	tabledetail_text(t, row, text, sizeof text);
	n = detail_wrap(text, t->width - 4, l, DETAIL_LINES);
	h = n + 2 < t->height ? n + 2 : t->height;
	sel_y = t->y0 + 1 + (int)(t->sel - t->top);
	/* under the selection when it is in the upper half, else over it */
	y = sel_y - t->y0 <= t->height / 2 ? t->y0 + 1 + t->height - h : t->y0 + 1;
	menu_box(p->win, y, t->x0, h, t->width, "Details (i or Esc closes)", attr, p->th);
	for (int k = 0; k < h - 2; k++) {
		char line[DETAIL_MAX];
		struct wtext wt;
		int indent = l[k].indent;

		snprintf(line, sizeof line, "%.*s", l[k].len, l[k].s);
		wtext_set(&wt, line);
		if (k == h - 3 && k < n - 1)
			wt.more = true; /* more lines than the box: say so */
		wtext_fit(&wt, t->width - 4 - indent, &p->ell);
		pen_blank(p, y + 1 + k, t->x0 + 1, t->width - 2, attr);
		pen_text(p, y + 1 + k, t->x0 + 2 + indent, t->width - 4 - indent, &wt, false, attr);
	}
}
