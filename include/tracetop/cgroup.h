/* cgroup: the control group a process is in, read from /proc/PID/cgroup,
 * and a short name for it: the container's id or name when the path shows
 * one (docker, podman, containerd, CRI-O, Kubernetes, LXC, systemd-nspawn,
 * libvirt), else the path's last component. Both are interned: one struct
 * per distinct path, compared by pointer, never freed. */
#ifndef TRACETOP_CGROUP_H
#define TRACETOP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

struct cgroup {
	const char *path; /* as /proc/PID/cgroup says ("/" for the root), interned, raw */
	const char *name; /* the short name, interned, raw (escape both to print) */
};

/* Container ids are shown by their first this many hex digits, as
 * docker ps and podman ps do. */
#define CGROUP_ID_DIGITS 12

/* The path of the process's cgroup in the text of a /proc/PID/cgroup file,
 * into path (len bytes, cut to fit). Lines are "ID:CONTROLLERS:PATH": the
 * cgroup v2 line ("0::PATH") is taken, else on cgroup v1 the name=systemd
 * line, else the cpu controller's line; one of them at the root ("/") gives
 * way to the next that is not (a hybrid system whose v2 tree nobody uses).
 * false when no line names a path. */
bool cgroup_parse(const char *text, char *path, size_t len);

/* The short name of a cgroup path into buf (len bytes, cut to fit): the
 * outermost container the path shows ("docker-<64 hex>.scope", a bare 64
 * hex digits, "libpod-", "cri-containerd-", "crio-" ids: their first
 * CGROUP_ID_DIGITS digits, "conmon-" before a podman or CRI-O monitor's;
 * "lxc.payload.NAME", "lxc/NAME", "machine-NAME.scope": NAME), else the
 * last component ("session-3.scope"), "/" for the root. systemd's \xNN
 * escapes of printable characters are undone ("qemu\x2d1" is "qemu-1"). */
void cgroup_short_name(const char *path, char *buf, size_t len);

/* The cgroup of path, interned. */
const struct cgroup *cgroup_get(const char *path);

/* The cgroup process pid is in now (PROC/PID/cgroup, proc_root normally
 * "/proc"), or NULL when it cannot be read (the process is gone). */
const struct cgroup *cgroup_of_pid(const char *proc_root, int pid);

#endif
