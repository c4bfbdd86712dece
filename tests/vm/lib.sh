# shellcheck shell=bash
# TAP helpers for the tests that run inside the VM (tests/vm/NAME-vm.sh).
# Source it first thing:
#
#   . "$(dirname "$0")/lib.sh"
#   need_config CONFIG_KPROBE_EVENTS
#   tap_ok "tracetop runs" "$TRACETOP" --version
#   done_testing
#
# It brings every helper of tests/e2e/lib.sh (plan, ok, is, like, tap_ok,
# skip, diag, wait_for, bg_pid, at_exit, done_testing, ...) and adds the
# ones below. Outside the VM a test skips itself: run it with
# tests/vm/run.sh NAME.
#
# In the VM: bash, busybox (no python, no tmux), root, /init as PID 1;
# proc, sysfs, devtmpfs, tmpfs on /tmp, tracefs on /sys/kernel/tracing and
# debugfs are mounted. TT_BUILDDIR = TT_SRCDIR = /tt: TRACETOP is
# /tt/tracetop, WORKLOADS is /tt/tests/workloads (whatever was built), and
# /tt/kernel.config is the kernel's config file.

# shellcheck source=../e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

TRACEFS=/sys/kernel/tracing
TT_VM_MARK=/tt/.tracetop-vm # written by tests/vm/run.sh into the initramfs

# Skip everything unless this runs inside the VM that tests/vm/run.sh boots.
need_vm() {
	[ -e "$TT_VM_MARK" ] ||
		tap_skip_all "runs only inside the VM: tests/vm/run.sh $(basename "$0")"
}

# config_is CONFIG_X: print the kernel's value of CONFIG_X (y, m, a string),
# or "n" when it is not set.
config_is() {
	local v
	v="$(grep -m1 "^$1=" /tt/kernel.config 2>/dev/null)"
	if [ -n "$v" ]; then echo "${v#*=}"; else echo n; fi
}

# need_config CONFIG_X...: skip everything unless each is built in (=y).
need_config() {
	local c
	for c in "$@"; do
		[ "$(config_is "$c")" = y ] || tap_skip_all "this kernel has no $c"
	done
}

# need_tracefs FILE...: skip everything unless each file exists in tracefs.
need_tracefs() {
	local f
	for f in "$@"; do
		[ -e "$TRACEFS/$f" ] || tap_skip_all "no $TRACEFS/$f"
	done
}

# tracefs_write FILE TEXT: append TEXT to a tracefs file (as `echo >>`),
# failing with the kernel's error (shown as diagnostics) when it refuses.
tracefs_write() {
	local err
	if ! err="$( (printf '%s\n' "$2" >>"$TRACEFS/$1") 2>&1)"; then
		diag "writing '$2' to $1: ${err:-refused}"
		[ -r "$TRACEFS/error_log" ] && diag "$(tail -n 5 "$TRACEFS/error_log")"
		return 1
	fi
}

need_vm
