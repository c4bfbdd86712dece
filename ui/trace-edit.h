/* trace-edit: what the Trace pane changes in what the kernel streams,
 * apart from the pane's drawing: the kernel filter of an event (F), and
 * tracepoints typed into its checklist. */
#ifndef TRACETOP_UI_TRACE_EDIT_H
#define TRACETOP_UI_TRACE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

struct tui;

/* The kernel filter prompt of one event. */
struct trace_kfilter {
	bool open; /* the prompt open is this one */
	char event[128], label[192];
};

/* Open the prompt for event's kernel filter (NULL or an event that is not
 * on: say so instead), holding the filter it has; REACT_* flags. */
int trace_kfilter_open(struct trace_kfilter *k, struct tui *t, const char *event);

/* The prompt changed, was answered or cancelled: on Enter set the filter
 * (empty: none), or show the kernel's words when it refuses. */
void trace_kfilter_done(struct trace_kfilter *k, struct tui *t, int result);

/* picker_typed_fn for the tracepoint checklist: text is a tracepoint, or
 * why not in why. */
bool trace_typed(void *ctx, const char *text, char *why, size_t len);

#endif
