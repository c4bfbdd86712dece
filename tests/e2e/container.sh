#!/bin/bash
# A process in another mount namespace (a container) whose binary only it
# can see (on a private tmpfs): started after tracetop, it is resolved
# through /proc/PID/root; a probe with -p and the path inside the container
# is placed on that binary.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3
need_tool unshare util-linux

# A new mount namespace whose mounts stay its own. In a chroot (CI's),
# whose root is no mount point, unshare cannot make every mount private:
# then the mount point is under /dev (a mount the chroot binds), made
# private first, so that nothing reaches the host's.
if unshare -m --propagation private true 2>"$TT_TMP/unshare.err"; then
	ns=(unshare -m --propagation private)
	mnt="$TT_TMP/private"
	private=:
elif unshare -m --propagation unchanged true 2>/dev/null && [ -d /dev/shm ] &&
	mountpoint -q /dev; then
	ns=(unshare -m --propagation unchanged)
	mnt="/dev/shm/tt-container.$$"
	private="mount --make-rprivate /dev"
	at_exit "rmdir '$mnt' 2>/dev/null"
else
	tap_skip_all "cannot make a mount namespace here: $(head -n 1 "$TT_TMP/unshare.err")"
fi
mkdir -p "$mnt"
# start_app SECONDS: the split workload as $mnt/app in the new namespace
start_app() {
	"${ns[@]}" sh -c "$private && mount -t tmpfs tt-private '$mnt' &&
		cp '$WORKLOADS/split' '$mnt/app' && exec '$mnt/app' $1" \
		>/dev/null 2>"$TT_TMP/unshare.err" &
	app_sh=$!
}

# 1. System-wide, the process starting after tracetop.
"$TRACETOP" -b -d 3 -n 1 --format json >"$TT_TMP/sys.json" 2>"$TT_TMP/sys.err" &
tpid=$!
sleep 0.5
start_app 2
wait $tpid
ok $? "system-wide run exits 0"
wait $app_sh
[ ! -e "$mnt/app" ]
ok $? "the binary is not visible outside its mount namespace"
res=$(python3 - "$TT_TMP/sys.json" "$mnt/app" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) for r in json.loads(l)["rows"] if r["comm"] == "app"]
own = [r for r in rows if r["dso"] == sys.argv[2]]
total = sum(r["samples"] for r in own)
named = {r["symbol"]: r["samples"] for r in own}
unknown = sum(r["samples"] for r in own if r["symbol"].startswith("[unknown]"))
print("app samples in its binary:", total, "unknown:", unknown, "named:", sorted(named)[:5])
ok = total > 100 and unknown <= 0.01 * total and \
    all(f in named for f in ("split_alpha", "split_beta", "split_gamma"))
print("OK" if ok else "FAIL")
PY
)
like "$res" "OK$" "a container's binary resolves fully"
diag "$res"

# 2. A probe on the binary by its path inside the container, with -p.
start_app 6
pid=$app_sh # unshare and sh exec into the workload
wait_for 5 grep -qx app /proc/$pid/comm
ok $? "workload started in its namespace"
"$TRACETOP" -b --view probes -p "$pid" --probe "$mnt/app:split_alpha" -d 1 -n 1 \
	>"$TT_TMP/probe.txt" 2>"$TT_TMP/probe.err"
ok $? "--probe on the container's path with -p exits 0"
hits=$(awk '/:split_alpha /{print $4}' "$TT_TMP/probe.txt")
[ "${hits:-0}" -gt 0 ]
ok $? "the probe counts the container's calls ($hits hits)"
like "$(cat "$TT_TMP/probe.txt")" "/proc/$pid/root$mnt/app:split_alpha" \
	"the probe is placed through /proc/PID/root"
diag "$(cat "$TT_TMP/probe.err")"
kill "$pid" 2>/dev/null
wait $app_sh 2>/dev/null
done_testing
