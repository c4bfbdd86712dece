/* report-flame: a flame graph as text lines or as an SVG document, from
 * flame_layout's boxes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/report-flame.h"
#include "tracetop/util.h"

#define SVG_WIDTH 1200 /* pixels */
#define SVG_PAD 10     /* left and right margins */
#define SVG_FRAME 16   /* a row's height */
#define SVG_TOP 40     /* the title's band */
#define SVG_BOTTOM 10  /* below the root */
#define SVG_FONT 12    /* font size */
#define SVG_CHAR 0.59  /* a character's width per font size (monospace-ish) */
#define LABEL_LEN 4096 /* one label's bytes */

/* A node's share of the root, in percent. */
static double
report_flame_pct(const struct flame *fl, uint32_t node)
{
	return fl->nodes[1].total > 0 ? fl->nodes[node].total / fl->nodes[1].total * 100 : 0;
}

/* Text: a line per row, root first. */
void
report_flame_text(FILE *out, const struct flame *fl, uint32_t zoom, int width)
{
	struct flame_layout l = {0};
	char label[LABEL_LEN];
	size_t i = 0;

	flame_layout(fl, zoom, width, &l);
	for (unsigned row = 0; row < l.rows; row++) {
		int col = 0, used;

		fprintf(out, "%3u ", row);
		for (; i < l.n && l.boxes[i].row == row; i++) {
			const struct flame_box *b = &l.boxes[i];

			fprintf(out, "%*s", b->x - col, "");
			col = b->x + b->w;
			if (b->w == 1) {
				fputc('|', out);
				continue;
			}
			used = flame_label(flame_name(fl, b->node), report_flame_pct(fl, b->node),
			                   b->w - 2, "..", label, sizeof label);
			fprintf(out, "[%s%*s]", label, b->w - 2 - used, "");
		}
		fputc('\n', out);
	}
	flame_layout_free(&l);
}

/* Write s with & < > " ' as entities. */
void
report_xml_text(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

/* The fill of a frame: flamegraph.pl's warm hues for user code, orange
 * for the kernel, green for JIT code, aqua for inlined callees, grey for
 * the root and commands; the name's hash varies the shade. */
static void
report_flame_fill(const struct flame *fl, uint32_t node, char *buf, size_t len)
{
	uint64_t h = hash_u64(str_hash(flame_name(fl, node)));
	unsigned v1 = (unsigned)(h % 55), v2 = (unsigned)((h >> 8) % 55);

	switch (fl->nodes[node].kind) {
	case FLAME_KERNEL:
		snprintf(buf, len, "rgb(%u,%u,%u)", 200 + v1, 110 + v2, 40);
		break;
	case FLAME_JIT:
		snprintf(buf, len, "rgb(%u,%u,%u)", 50 + v1, 190 + v2, 50);
		break;
	case FLAME_INLINED:
		snprintf(buf, len, "rgb(%u,%u,%u)", 50 + v1, 190 + v2, 200);
		break;
	case FLAME_OTHER:
		snprintf(buf, len, "rgb(%u,%u,%u)", 180 + v1 / 2, 180 + v1 / 2, 180 + v1 / 2);
		break;
	case FLAME_USER:
		snprintf(buf, len, "rgb(%u,%u,%u)", 200 + v1, 80 + v2 * 2, 55);
		break;
	}
}

/* A self-contained SVG: one <g> per frame with its <title>, <rect> and
 * (when it fits) <text>. */
void
report_flame_svg(FILE *out, const struct flame *fl, const char *title)
{
	struct flame_layout l = {0};
	char label[LABEL_LEN], fill[32];
	int w = SVG_WIDTH - 2 * SVG_PAD, height;

	flame_layout(fl, 1, w, &l);
	height = SVG_TOP + (int)l.rows * SVG_FRAME + SVG_BOTTOM;
	fprintf(out,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	        "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	        "xmlns=\"http://www.w3.org/2000/svg\">\n"
	        "<style>text { font-family: monospace; font-size: %dpx; fill: #000; }"
	        " rect { stroke: #fff; stroke-width: 0.5; }</style>\n"
	        "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#eeeeee\"/>\n"
	        "<text x=\"%d\" y=\"24\" font-size=\"16\">",
	        SVG_WIDTH, height, SVG_WIDTH, height, SVG_FONT, SVG_WIDTH, height, SVG_PAD);
	report_xml_text(out, title);
	fputs("</text>\n", out);
	for (size_t i = 0; i < l.n; i++) {
		const struct flame_box *b = &l.boxes[i];
		const struct flame_node *n = &fl->nodes[b->node];
		double y = height - SVG_BOTTOM - (double)(b->row + 1) * SVG_FRAME;
		int chars = (int)((b->fw - 4) / (SVG_FONT * SVG_CHAR));

		report_flame_fill(fl, b->node, fill, sizeof fill);
		fputs("<g><title>", out);
		report_xml_text(out, flame_name(fl, b->node));
		fprintf(out, " (%.0f samples, %.2f%%)</title>", n->total,
		        report_flame_pct(fl, b->node));
		fprintf(out,
		        "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.3f\" height=\"%d\" fill=\"%s\" "
		        "data-samples=\"%.0f\"/>",
		        SVG_PAD + b->fx, y, b->fw, SVG_FRAME - 1, fill, n->total);
		if (chars >= 3) {
			flame_label(flame_name(fl, b->node), report_flame_pct(fl, b->node), chars,
			            "..", label, sizeof label);
			fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", SVG_PAD + b->fx + 3,
			        y + SVG_FRAME - 4.5);
			report_xml_text(out, label);
			fputs("</text>", out);
		}
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
	flame_layout_free(&l);
}
