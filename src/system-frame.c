/* system-frame: what readers of the system part of a frame use without
 * the source (panes, reports, frames' owners): its history rings, the
 * names of its fields and freeing it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/system.h"

/* ---- histories ---- */

/* Append a value to a ring. */
void
system_hist_push(struct system_hist *h, double v)
{
	if (isnan(v))
		return;
	h->v[h->head] = (float)v;
	h->head = (uint16_t)((h->head + 1) % SYSTEM_HISTORY);
	if (h->n < SYSTEM_HISTORY)
		h->n++;
}

/* The value age intervals back. */
double
system_hist_get(const struct system_hist *h, unsigned age)
{
	return h->v[(h->head + SYSTEM_HISTORY - 1 - age) % SYSTEM_HISTORY];
}

/* ---- names ---- */

static const char *const cpu_names[SYS_CPU_NFIELDS] = {
    [SYS_CPU_USER] = "user",       [SYS_CPU_NICE] = "nice",
    [SYS_CPU_SYSTEM] = "system",   [SYS_CPU_IDLE] = "idle",
    [SYS_CPU_IOWAIT] = "iowait",   [SYS_CPU_IRQ] = "irq",
    [SYS_CPU_SOFTIRQ] = "softirq", [SYS_CPU_STEAL] = "steal",
    [SYS_CPU_GUEST] = "guest",     [SYS_CPU_GUEST_NICE] = "guest_nice",
};

/* A CPU column's name. */
const char *
system_cpu_field_name(enum sys_cpu_field f)
{
	return f < SYS_CPU_NFIELDS ? cpu_names[f] : "?";
}

static const char *const mem_names[SYSTEM_MEM_NFIELDS] = {
    [SYSTEM_MEM_TOTAL] = "total_kib",
    [SYSTEM_MEM_USED] = "used_kib",
    [SYSTEM_MEM_FREE] = "free_kib",
    [SYSTEM_MEM_AVAILABLE] = "available_kib",
    [SYSTEM_MEM_BUFFERS] = "buffers_kib",
    [SYSTEM_MEM_CACHED] = "cached_kib",
    [SYSTEM_MEM_DIRTY] = "dirty_kib",
    [SYSTEM_MEM_WRITEBACK] = "writeback_kib",
    [SYSTEM_MEM_SHMEM] = "shmem_kib",
    [SYSTEM_MEM_SLAB] = "slab_kib",
    [SYSTEM_MEM_SWAP_TOTAL] = "swap_total_kib",
    [SYSTEM_MEM_SWAP_USED] = "swap_used_kib",
    [SYSTEM_MEM_SWAP_FREE] = "swap_free_kib",
    [SYSTEM_MEM_SWAP_CACHED] = "swap_cached_kib",
};

/* A memory field's JSON key. */
const char *
system_mem_name(enum system_mem_field f)
{
	return f < SYSTEM_MEM_NFIELDS ? mem_names[f] : "?";
}

static const char *const vm_names[SYSTEM_VM_NFIELDS] = {
    [SYSTEM_VM_MINFLT] = "minflt_s",      [SYSTEM_VM_MAJFLT] = "majflt_s",
    [SYSTEM_VM_PGIN] = "page_in_kib_s",   [SYSTEM_VM_PGOUT] = "page_out_kib_s",
    [SYSTEM_VM_SWAPIN] = "swap_in_kib_s", [SYSTEM_VM_SWAPOUT] = "swap_out_kib_s",
};

/* A paging field's JSON key. */
const char *
system_vm_name(enum system_vm_field f)
{
	return f < SYSTEM_VM_NFIELDS ? vm_names[f] : "?";
}

static const char *const misc_names[SYSTEM_MISC_NFIELDS] = {
    [SYSTEM_INTR] = "interrupts_s",
    [SYSTEM_CTXT] = "ctxt_s",
    [SYSTEM_FORKS] = "forks_s",
    [SYSTEM_PROCS_RUNNING] = "procs_running",
    [SYSTEM_PROCS_BLOCKED] = "procs_blocked",
    [SYSTEM_TASKS] = "tasks",
    [SYSTEM_LOAD1] = "load1",
    [SYSTEM_LOAD5] = "load5",
    [SYSTEM_LOAD15] = "load15",
    [SYSTEM_UPTIME] = "uptime",
};

/* A scalar's JSON key. */
const char *
system_misc_name(enum system_misc_field f)
{
	return f < SYSTEM_MISC_NFIELDS ? misc_names[f] : "?";
}

/* Free a system part's arrays. */
void
frame_system_free(struct frame_system *fs)
{
	struct system_irqs *tabs[] = {&fs->irqs, &fs->softirqs};

	free(fs->cpus);
	free(fs->disks);
	free(fs->nets);
	for (size_t i = 0; i < 2; i++) {
		free(tabs[i]->cpus);
		free(tabs[i]->rows);
		free(tabs[i]->rates);
	}
	free(fs->procs);
	free(fs->threads);
	memset(fs, 0, sizeof *fs);
}
