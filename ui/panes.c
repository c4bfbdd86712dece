/* panes: the table of the screen's panes, in tab order. Adding a pane is
 * adding its file and one line here. */
#include "config.h"

#include "tracetop/util.h"
#include "ui/tui.h"

extern const struct pane_ops pane_trace;
extern const struct pane_ops pane_system;
extern const struct pane_ops pane_procs;
extern const struct pane_ops pane_latency;

const struct pane_ops *const tui_panes[] = {
    &pane_top,   &pane_counters, &pane_trace,    &pane_probes, &pane_system,
    &pane_procs, &pane_latency,  &pane_annotate, &pane_flame,
};
const size_t tui_npanes = ARRAY_SIZE(tui_panes);
