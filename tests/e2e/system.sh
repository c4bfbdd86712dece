#!/bin/bash
# The system view in batch (--view system), each section against a load
# the test makes: two threads pinned to one CPU, memory a process touches,
# a fork loop, bytes sent over loopback, O_DIRECT writes to a loop device
# the test makes; the shape of text, CSV and JSON; escaped names; a
# machine without /sys (partitions told by name) and without a file.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/sysload" "$WORKLOADS/evilcomm"
need_tool python3 python3

SYSLOAD="$WORKLOADS/sysload"
NCPU=$(getconf _NPROCESSORS_ONLN)

# field FILE EXPR: a python expression over the JSON reports of FILE
# (reps: every report, last: the last one; cpu(rep, name), proc(rep, pid),
# disk(rep, name) (a disk or a partition), net(rep, name); total(key, f):
# the sum over every report of f(rep)[key], None where f gives None).
field() {
	python3 - "$1" "$2" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = reps[-1] if reps else {}
def cpu(rep, name):
    return next((c for c in rep["cpus"] if c["cpu"] == name), None)
def proc(rep, pid):
    return next((p for p in rep["processes"] if p["pid"] == pid), None)
def disk(rep, name):
    for d in rep["disks"]:
        if d["name"] == name:
            return d
        for p in d["partitions"]:
            if p["name"] == name:
                return p
    return None
def net(rep, name):
    return next((n for n in rep["net"] if n["name"] == name), None)
def total(key, f):
    vals = [f(r)[key] for r in reps if f(r) is not None]
    return sum(v for v in vals if v is not None)
print(eval(sys.argv[2]))
PY
}

# ---------------------------------------------------------------- shape
"$TRACETOP" -b --view system --format json -d 0.3 -n 2 >"$TT_TMP/shape.json" 2>"$TT_TMP/shape.err"
ok $? "json: exit 0"
is "$(wc -l <"$TT_TMP/shape.json")" 2 "json: one object per refresh"
is "$(field "$TT_TMP/shape.json" 'last["view"], last["interval"] > 0.2')" "('system', True)" \
	"json: view and interval"
is "$(field "$TT_TMP/shape.json" 'all(set(c) >= {"cpu","busy","user","system","iowait","irq","softirq","steal","idle"} for c in last["cpus"] + [last["cpu_total"]])')" \
	True "json: every CPU and the total have busy, user, system, iowait, irq, softirq, steal, idle"
is "$(field "$TT_TMP/shape.json" 'len(last["cpus"])')" "$NCPU" "json: one entry per online CPU"
is "$(field "$TT_TMP/shape.json" 'set(last["memory"]) >= {"total_kib","used_kib","available_kib","free_kib","buffers_kib","cached_kib","dirty_kib","writeback_kib"}')" \
	True "json: memory fields"
is "$(field "$TT_TMP/shape.json" 'all(set(d) >= {"name","reads_s","writes_s","read_bytes_s","write_bytes_s","await_ms","util"} for d in last["disks"])')" \
	True "json: disk fields"
is "$(field "$TT_TMP/shape.json" 'all(set(n) >= {"name","rx_bytes_s","tx_bytes_s","rx_packets_s","tx_packets_s","errors","drops"} for n in last["net"]) and net(last, "lo") is not None')" \
	True "json: interface fields, lo among them"
is "$(field "$TT_TMP/shape.json" 'all(set(p) >= {"pid","comm","cpu","rss_kib","minflt_s","majflt_s","threads","state"} for p in last["processes"]) and len(last["processes"]) > 5')" \
	True "json: process fields"
is "$(field "$TT_TMP/shape.json" '[p["cpu"] for p in last["processes"] if p["cpu"] is not None] == sorted([p["cpu"] for p in last["processes"] if p["cpu"] is not None], reverse=True)')" \
	True "json: processes busiest first"
is "$(field "$TT_TMP/shape.json" 'last["interrupts"][0]["rate"] >= last["interrupts"][-1]["rate"] and "per_cpu" in last["interrupts"][0]')" \
	True "json: interrupts busiest first, per CPU"
is "$(field "$TT_TMP/shape.json" 'sum(1 for k in last if k.endswith("_error"))')" 0 \
	"json: nothing absent on this machine"

"$TRACETOP" -b --view system -d 0.3 -n 3 >"$TT_TMP/shape.txt" 2>&1
ok $? "text: exit 0"
like "$(head -n 1 "$TT_TMP/shape.txt")" '^-+time-+ -+cpu %-+ -+memory-+ .*-+dsk/total-+ -+net/total-+ -+system-+' \
	"text: section titles"
like "$(sed -n 2p "$TT_TMP/shape.txt")" '^ +time\|usr sys wai stl idl\| used  free  buff  cach  avai\|' \
	"text: column titles"
is "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\|' "$TT_TMP/shape.txt")" 3 "text: one line per refresh"

"$TRACETOP" -b --view system --format csv -d 0.3 -n 3 >"$TT_TMP/shape.csv" 2>&1
ok $? "csv: exit 0"
like "$(head -n 1 "$TT_TMP/shape.csv")" '^time,interval,cpu_busy,cpu_user,.*,cpu0_busy,.*,mem_used_kib,.*,net_lo_rx_bytes_s,' \
	"csv: one title row"
is "$(wc -l <"$TT_TMP/shape.csv")" 4 "csv: a row per refresh"
is "$(awk -F, '{ print NF }' "$TT_TMP/shape.csv" | sort -u | wc -l)" 1 "csv: every row has the title row's columns"

# ---------------------------------------------------------------- CPU
# Two threads spinning on one CPU: that CPU is busy; the other one is much
# less so unless something else keeps it busy (then that check says why
# it cannot tell). Pinned to the first CPU, then to the last, so that the
# CPUs' numbers cannot be swapped.
busy_ticks() { awk -v c="cpu$1" '$1 == c { print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat; }
for pin in 0 $((NCPU - 1)); do
	[ "$pin" = 0 ] || [ "$NCPU" -gt 1 ] || break
	other=$(((pin + 1) % NCPU))
	SYSLOAD_PIDFILE="$TT_TMP/busy.pid" "$SYSLOAD" busy "$pin" 2 8 &
	bg_pid $!
	lpid=$(wait_pidfile "$TT_TMP/busy.pid" 5)
	rm -f "$TT_TMP/busy.pid"
	# /proc/stat read when the first report comes out and when the run
	# ends: the window of the last report, whatever else the machine does
	"$TRACETOP" -b --view system --format json -d 1 -n 2 >"$TT_TMP/cpu.json" 2>"$TT_TMP/cpu.err" &
	tpid=$!
	for _ in $(seq 300); do
		[ "$(wc -l <"$TT_TMP/cpu.json")" -ge 1 ] && break
		sleep 0.01
	done
	read -r ob0 oa0 < <(busy_ticks "$other")
	wait "$tpid"
	read -r ob1 oa1 < <(busy_ticks "$other")
	kill "$lpid" 2>/dev/null
	got=$(field "$TT_TMP/cpu.json" "cpu(last, 'cpu$pin')['busy']")
	[ -n "$got" ] || diag "no CPU $pin in the report; stderr: $(head -c 400 "$TT_TMP/cpu.err")"
	within "$got" 90 100 "two threads pinned to CPU $pin: it is busy ($got %)"
	# its share of that CPU depends on what else runs there
	is "$(field "$TT_TMP/cpu.json" "(p := proc(last, $lpid)) and (p['comm'], p['threads'], 5 <= p['cpu'] <= cpu(last, 'cpu$pin')['busy'] + 5, p['user'] > p['system'])")" \
		"('sysload', 3, True, True)" "the spinning process: its row, 3 threads, a share of that CPU, in user mode"
	[ "$NCPU" -gt 1 ] || continue
	ogot=$(field "$TT_TMP/cpu.json" "cpu(last, 'cpu$other')['busy']")
	owas=$(awk -v b=$((ob1 - ob0)) -v a=$((oa1 - oa0)) 'BEGIN { printf "%.0f", a ? 100 * b / a : 0 }')
	if [ "$owas" -lt 40 ]; then
		within "$ogot" 0 $((${got%.*} - 40)) "CPU $other, not pinned, is much less busy ($ogot %)"
	else # busy with other work: at least what tracetop says of it agrees
		within "$ogot" $((owas - 20)) $((owas + 20)) \
			"CPU $other, busy with other work, as /proc/stat over the last report's second says ($ogot %, $owas %)"
	fi
done

# ---------------------------------------------------------------- memory
SYSLOAD_PIDFILE="$TT_TMP/touch.pid" "$SYSLOAD" touch 128 30 &
bg_pid $!
lpid=$(wait_pidfile "$TT_TMP/touch.pid" 10)
"$TRACETOP" -b --view system --format json -d 0.3 -n 1 >"$TT_TMP/mem.json" 2>"$TT_TMP/mem.err"
kill "$lpid" 2>/dev/null
got=$(field "$TT_TMP/mem.json" "proc(last, $lpid)['rss_kib']")
within "$got" $((131072 * 95 / 100)) $((131072 * 105 / 100)) "a process that touched 128 MiB: its RES ($got KiB)"

# ---------------------------------------------------------------- forks
# Every fork of the run is counted: the loop's 20000 and what else the
# machine forks meanwhile, which /proc/stat read around the run bounds (a
# busy machine, such as a parallel build, forks thousands more).
forks_now() { awk '$1 == "processes" { print $2 }' /proc/stat; }
f0=$(forks_now)
timeout 120 "$TRACETOP" -b --view system --format json -d 0.5 -- "$SYSLOAD" forks 20000 \
	>"$TT_TMP/forks.json" 2>"$TT_TMP/forks.err"
ok $? "-- COMMAND: exits 0 when the fork loop ends"
f1=$(forks_now)
got=$(field "$TT_TMP/forks.json" 'total("forks", lambda r: r["system"])')
within "$got" 20000 $((f1 - f0 + 2000)) \
	"a loop of 20000 forks: the forks of the run ($got; /proc/stat around it: $((f1 - f0)))"
# (within 5 %: the rate is over the time between the source's two reads
# of /proc/stat, the interval the frame's; on a loaded machine a read
# comes some ms late, and CI's root once missed 1 %)
is "$(field "$TT_TMP/forks.json" 'all(abs(r["system"]["forks_s"] * r["interval"] - r["system"]["forks"]) <= 1 + 0.05 * r["system"]["forks"] for r in reps)')" \
	True "forks/s is the forks of each interval per second" ||
	diag "$(field "$TT_TMP/forks.json" '[(r["interval"], r["system"]["forks"], r["system"]["forks_s"]) for r in reps]')"

# ---------------------------------------------------------------- loopback
# In a network namespace of their own (where root may make one), so that
# nothing else on the machine talks over this lo meanwhile; the workload
# brings it up.
netns=()
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 && unshare -n true 2>/dev/null; then
	netns=(unshare -n)
else
	diag "no network namespace of our own: other traffic on lo may count too"
fi
timeout 120 "${netns[@]}" "$TRACETOP" -b --view system --format json -d 0.5 -- "$SYSLOAD" net 256 \
	>"$TT_TMP/net.json" 2>"$TT_TMP/net.err"
ok $? "-- COMMAND: exits 0 when the bytes are sent"
diag "$(cat "$TT_TMP/net.err")"
mib=$((256 * 1048576))
got=$(field "$TT_TMP/net.json" 'total("rx_bytes", lambda r: net(r, "lo"))')
within "$got" "$mib" $((mib * 105 / 100)) "256 MiB over loopback: lo received bytes ($got)"
got=$(field "$TT_TMP/net.json" 'total("tx_bytes", lambda r: net(r, "lo"))')
within "$got" "$mib" $((mib * 105 / 100)) "256 MiB over loopback: lo sent bytes ($got)"
is "$(field "$TT_TMP/net.json" 'max(net(r, "lo")["rx_bytes_s"] for r in reps) > 0 and all(n["name"] != "lo" for n in [last["net_total"]])')" \
	True "lo has a rate; the total is named total"

# ---------------------------------------------------------------- disk
# O_DIRECT writes to a loop device this test makes; where loop devices
# cannot be made, to a file on the block device that holds the temporary
# directory (other writes to it may come in the same run: more MiB, so
# they weigh less).
dev="" mibs=64
if command -v losetup >/dev/null 2>&1 && dd if=/dev/zero of="$TT_TMP/disk.img" bs=1M count=80 2>/dev/null &&
	dev=$(losetup -f --show "$TT_TMP/disk.img" 2>"$TT_TMP/losetup.err"); then
	at_exit "losetup -d '$dev'"
	target="$dev"
else
	diag "no loop device: $(cat "$TT_TMP/losetup.err" 2>/dev/null)"
	mm=$(stat -c '%d' "$TT_TMP")
	dev=/dev/$(basename "$(readlink -f "/sys/dev/block/$((mm >> 8)):$((mm & 255))" 2>/dev/null)")
	target="$TT_TMP/direct.out"
	mibs=256
fi
name=${dev#/dev/}
diag "writing $mibs MiB with O_DIRECT to $target (device $name)"
if [ -n "$name" ] && grep -qE "^ +[0-9]+ +[0-9]+ $name " /proc/diskstats; then
	timeout 120 "$TRACETOP" -b --view system --format json -d 0.5 -- "$SYSLOAD" write "$target" "$mibs" \
		>"$TT_TMP/disk.json" 2>"$TT_TMP/disk.err"
	ok $? "-- COMMAND: exits 0 when the writes are done"
	diag "$(cat "$TT_TMP/disk.err")"
	bytes=$((mibs * 1048576))
	got=$(field "$TT_TMP/disk.json" "total('write_bytes', lambda r: disk(r, '$name'))")
	within "$got" "$bytes" $((bytes * 105 / 100)) "$mibs MiB written to $name: its written bytes ($got)"
	is "$(field "$TT_TMP/disk.json" "max(disk(r, '$name')['write_bytes_s'] for r in reps) > 0 and max(disk(r, '$name')['util'] for r in reps) > 0")" \
		True "$name: a write rate and a utilization"
else
	skip "no block device found under $TT_TMP (st_dev $(stat -c '%d' "$TT_TMP"))" "O_DIRECT writes counted"
fi

# ---------------------------------------------------------------- names
EVIL_PIDFILE="$TT_TMP/evil.pid" "$WORKLOADS/evilcomm" 20 >/dev/null 2>&1 &
bg_pid $!
epid=$(wait_pidfile "$TT_TMP/evil.pid" 5)
wait_for 5 grep -q x "/proc/$epid/comm"
"$TRACETOP" -b --view system --format json -d 0.3 -n 1 >"$TT_TMP/evil.json" 2>"$TT_TMP/evil.err"
! grep -q $'\x1b' "$TT_TMP/evil.json" "$TT_TMP/evil.err"
ok $? "json: no raw ESC from a process's name"
is "$(field "$TT_TMP/evil.json" "proc(last, $epid)['comm']")" 'ev\x1b[31mil\x0ax' "json: the name escaped"
kill "$epid" 2>/dev/null

# ---------------------------------------------------------------- absent
# A container's /sys may not know the block devices: partitions are then
# told by name, and the JSON says so. A /proc with only some files (a
# tmpfs holding copies of four of them, in a mount namespace): what is
# missing is null with its reason in JSON, "-" with an "# absent:" line in
# text, never zeros. In a chroot (CI's), whose root is no mount point,
# unshare cannot make every mount private: then the mounts it covers are
# made private first, so that nothing reaches the host's.
mntns=()
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1; then
	if unshare -m true 2>/dev/null; then
		mntns=(unshare -m)
	elif unshare -m --propagation unchanged true 2>/dev/null; then
		mntns=(unshare -m --propagation unchanged)
	fi
fi
if [ "${#mntns[@]}" -gt 0 ]; then
	"${mntns[@]}" sh -c 'mount --make-rprivate /sys && mount -t tmpfs none /sys/class/block &&
		exec "$@"' sh \
		"$TRACETOP" -b --view system --format json -d 0.3 -n 1 >"$TT_TMP/nosys.json" 2>"$TT_TMP/nosys.err"
	ok $? "without /sys/class/block: exit 0"
	like "$(field "$TT_TMP/nosys.json" 'last.get("disks_note")')" "partitions told by name" \
		"without /sys/class/block: partitions told by name"
	mkdir "$TT_TMP/someproc"
	# shellcheck disable=SC2016 # expanded by the inner shell
	fakeproc='cp /proc/stat /proc/meminfo /proc/loadavg /proc/uptime "$0" &&
		mount --make-rprivate /proc && mount -t tmpfs none /proc && cp "$0"/* /proc/ &&
		exec "$@"'
	"${mntns[@]}" sh -c "$fakeproc" "$TT_TMP/someproc" \
		"$TRACETOP" -b --view system --format json -d 0.3 -n 1 >"$TT_TMP/noproc.json" 2>"$TT_TMP/noproc.err"
	ok $? "a /proc with four files: exit 0"
	is "$(field "$TT_TMP/noproc.json" '[(k, last[k[:-6]]) for k in sorted(last) if k.endswith("_error")]')" \
		"[('disks_error', None), ('interrupts_error', None), ('net_error', None), ('paging_error', None), ('softirqs_error', None)]" \
		"JSON: the missing sections are null, each with an error"
	is "$(field "$TT_TMP/noproc.json" 'last["disks_error"], last["memory"]["total_kib"] > 0')" \
		"('/proc/diskstats: No such file or directory', True)" "JSON: the reason; what is there is shown"
	"${mntns[@]}" sh -c "$fakeproc" "$TT_TMP/someproc" \
		"$TRACETOP" -b --view system -d 0.3 -n 1 >"$TT_TMP/noproc.txt" 2>&1
	like "$(cat "$TT_TMP/noproc.txt")" '^# absent: /proc/net/dev: No such file or directory$' \
		"text: the reason in an absent line"
	like "$(cat "$TT_TMP/noproc.txt")" '\|    -     -    -\|    -     -\|' \
		"text: the disk and interface columns are -, not 0"
else
	skip "needs root and a mount namespace (unshare -m, util-linux)" "a /proc or /sys without some files"
fi

# ---------------------------------------------------------------- errors
tap_fails "--format csv with another view is a usage error" "$TRACETOP" -b --format csv -n 1
done_testing
