#!/bin/bash
# Containers by their cgroup: a workload in a fresh cgroup v2 group named
# like docker's (docker-<64 hex>.scope, under a group of this test's own)
# is shown with the container's id (its first 12 hex digits) in JSON rows,
# sorted and grouped by --sort cgroup, in a text column only when --sort
# names it, after an exec into the group, and in the counters' process
# rows. Skips when this machine has no writable cgroup v2 tree.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

ID=4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b
ID12=${ID:0:12}
need_cgroup_v2 "tt-test-$$/docker-$ID.scope"

# in_group SECS: the split workload, moved into the group before it starts
in_group() {
	sh -c "echo \$\$ >'$CG_DIR/cgroup.procs' && exec '$WORKLOADS/split' $1" >/dev/null 2>&1 &
}

in_group 120
pid=$!
bg_pid "$pid"
wait_for 5 grep -qx split "/proc/$pid/comm"
ok $? "workload started in the group"
# the path as /proc shows it (our cgroup namespace may not start at the mount)
cgpath=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
like "$cgpath" "/tt-test-$$/docker-$ID\\.scope\$" "the kernel has it in the group ($cgpath)"

# rows_check FILE PYTHON-EXPR: evaluate EXPR over the last report's rows
# (r: the rows, mine: those of $pid), print True/False and a summary.
rows_check() {
	python3 - "$1" "$pid" "$2" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
rows = json.loads(lines[-1])["rows"]
mine = [r for r in rows if r["pid"] == int(sys.argv[2])]
print(eval(sys.argv[3]))
print("rows %d, of the workload %d, its cgroups %s" %
      (len(rows), len(mine), sorted({(r.get("cgroup"), r.get("cgroup_path")) for r in mine})))
PY
}

# 1. -p: every row of the workload carries the group's short name and path.
"$TRACETOP" -b -p "$pid" -d 1 -n 2 --sort cgroup,overhead --format json \
	>"$TT_TMP/p.json" 2>"$TT_TMP/p.err"
ok $? "-p --sort cgroup,overhead --format json exits 0"
res=$(rows_check "$TT_TMP/p.json" \
	"len(mine) > 0 and all(r.get('cgroup') == '$ID12' and r.get('cgroup_path') == '$cgpath' for r in mine)")
like "$res" '^True$' "JSON rows name the container ($ID12) and its path"
diag "$res"

# 2. Text: the Cgroup column when --sort names it, the usual columns otherwise.
"$TRACETOP" -b -p "$pid" -d 1 -n 1 --sort cgroup,comm,pid,dso,sym >"$TT_TMP/p.txt" 2>/dev/null
ok $? "text with --sort cgroup exits 0"
like "$(cat "$TT_TMP/p.txt")" '^ *Overhead +Samples +Command +PID +Cgroup +Shared Object +Symbol$' \
	"a Cgroup column after PID"
like "$(cat "$TT_TMP/p.txt")" "split +$pid +$ID12 +split +\\[\\.\\] split_alpha" \
	"the workload's rows show the container id"
"$TRACETOP" -b -p "$pid" -d 1 -n 1 >"$TT_TMP/plain.txt" 2>/dev/null
like "$(cat "$TT_TMP/plain.txt")" '^ *Overhead +Samples +Command +PID +Shared Object +Symbol$' \
	"without --sort cgroup the columns are as before"

# 3. System-wide: sorted by cgroup name (unknown last), each group's rows
# together and by overhead, the workload's in its group.
"$TRACETOP" -b -d 1 -n 2 --sort cgroup,overhead --format json >"$TT_TMP/sys.json" \
	2>"$TT_TMP/sys.err"
ok $? "system-wide --sort cgroup,overhead exits 0"
res=$(rows_check "$TT_TMP/sys.json" "$(
	cat <<'PY'
(lambda keys: len(mine) > 0 and all(r.get('cgroup') == '4f3c2b1a0e9d' for r in mine)
 and keys == sorted(keys)
 and all(a['overhead'] >= b['overhead'] for a, b in zip(rows, rows[1:])
         if a.get('cgroup_path') == b.get('cgroup_path')))(
 [(r.get('cgroup') is None, r.get('cgroup') or '', r.get('cgroup_path') or '') for r in rows])
PY
)")
like "$res" '^True$' "system-wide rows sorted and grouped by cgroup, the workload's in its own"
diag "$res"

# 4. A process that joins the group and then execs is seen in it (the
# cgroup is read again at exec), tracetop running before it starts.
# (one row per process: by default a command's processes share a row)
"$TRACETOP" -b -d 3 -n 1 -s overhead,pid,sym --format json >"$TT_TMP/exec.json" 2>"$TT_TMP/exec.err" &
tpid=$!
sleep 0.5
sh -c "sleep 0.2; echo \$\$ >'$CG_DIR/cgroup.procs' && exec '$WORKLOADS/split' 2" \
	>/dev/null 2>&1 &
late=$!
wait "$tpid"
ok $? "system-wide run with a late workload exits 0"
wait "$late"
res=$(pid=$late rows_check "$TT_TMP/exec.json" \
	"any(r['comm'] == 'split' for r in mine) and all(r.get('cgroup') == '$ID12' for r in mine if r['comm'] == 'split')")
like "$res" '^True$' "a process that moved in and exec'd is shown in the group"
diag "$res"

# 5. Counters: the process scope's rows carry the cgroup.
"$TRACETOP" -b --view counters --counters-scope process -p "$pid" -d 1 -n 1 --format json \
	>"$TT_TMP/cnt.json" 2>"$TT_TMP/cnt.err"
ok $? "counters in process scope exit 0"
res=$(rows_check "$TT_TMP/cnt.json" \
	"len(mine) > 0 and all(r.get('cgroup') == '$ID12' and r.get('cgroup_path') == '$cgpath' for r in mine)")
like "$res" '^True$' "counters' process rows name the container"
diag "$res"

done_testing
