#!/bin/bash
# Run tracetop's kernel-feature tests for real, in Debian's own kernel under
# qemu: the kernels of the machines here have no kprobes and refuse the
# function tracer; Debian's linux-image-amd64 has both.
#
# Usage: tests/vm/run.sh [TEST ...]
#   TEST is tests/vm/NAME-vm.sh, NAME-vm.sh or NAME; default: every
#   tests/vm/*-vm.sh.
#
# Convention: each tests/vm/NAME-vm.sh is a bash TAP test that runs inside
# the VM, as root, after sourcing tests/vm/lib.sh. Dropping a file with that
# name is all it takes: run.sh (and so `make check`) runs it. See
# tests/vm/README.md.
#
# Steps:
#  1. the kernel: `apt-get download linux-image-amd64`, then the versioned
#     linux-image-6.x package it depends on, unpacked (dpkg-deb -x) into
#     the cache, vmlinuz also uncompressed (qemu boots a vmlinux through its
#     PVH entry, 2 s faster under TCG); later runs use the cache (apt-cache,
#     offline, says whether Debian's lists name a newer one).
#  2. an initramfs (cpio newc, gzip): busybox, bash, tracetop, the workloads
#     that were built, every shared library they need (ldd), the tests,
#     tests/vm/lib.sh and tests/e2e/lib.sh, the kernel's config, and an
#     /init that mounts proc, sys, devtmpfs, tracefs, debugfs, runs each
#     test with its output on the second serial port, and powers off.
#  3. qemu-system-x86_64, KVM when /dev/kvm can be opened and boots the
#     kernel, else TCG (software emulation), killed after TT_VM_TIMEOUT s.
#  4. the TAP of the tests, renumbered and prefixed with the test's name, as
#     this script's own TAP (automake's tap driver reads it), then the plan.
# It skips (1..0 # SKIP reason) only where qemu cannot run: no qemu and no
# way to install it, no kernel cached and none can be downloaded, no tracetop
# built.
#
# Environment:
#   TT_BUILDDIR          build tree with tracetop (default: build/ in the source tree)
#   TT_VM_CACHE          kernel cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/tracetop-vm)
#   TT_VM_ACCEL          kvm or tcg (default: kvm when /dev/kvm opens and boots
#                        the kernel within 20 s, else tcg)
#   TT_VM_TIMEOUT        seconds before qemu is killed (default 60 + 120 a test)
#   TT_VM_TEST_TIMEOUT   seconds for one test inside the VM (default 120)
#   TT_VM_STALL          seconds of silence on both serial ports before a hung
#                        guest is killed (default TT_VM_TEST_TIMEOUT + 120)
#   TT_VM_RCU_STALL      seconds of silence on the tests' port, after the guest
#                        kernel reported an RCU stall or a lockup, before it is
#                        killed as hung (default TT_VM_TEST_TIMEOUT + 30)
#   TT_VM_NO_RETRY=1     no second boot after a guest hang
#   TT_VM_MEM, TT_VM_SMP memory and CPUs of the VM (default 512M, 2)
#   TT_VM_APPEND         more kernel command-line arguments
#   TT_VM_KEEP           a directory: keep the initramfs and console logs there
#   TT_VM_OFFLINE=1      never download: use the cached kernel or skip

TT_SRCDIR="${TT_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
TT_BUILDDIR="${TT_BUILDDIR:-$TT_SRCDIR/build}"
export TT_SRCDIR TT_BUILDDIR
# shellcheck source=../e2e/lib.sh
. "$TT_SRCDIR/tests/e2e/lib.sh"

VM_CACHE="${TT_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracetop-vm}"
VM_TEST_TIMEOUT="${TT_VM_TEST_TIMEOUT:-120}"
VM_STALL="${TT_VM_STALL:-$((VM_TEST_TIMEOUT + 120))}"
VM_RCU_STALL="${TT_VM_RCU_STALL:-$((VM_TEST_TIMEOUT + 30))}"
VM_MEM="${TT_VM_MEM:-512M}"
VM_SMP="${TT_VM_SMP:-2}"
QEMU=qemu-system-x86_64
export LC_ALL=C

# Microseconds to seconds with one decimal.
secs() {
	printf '%d.%d' $(($1 / 1000000)) $(($1 % 1000000 / 100000))
}

# Run a command as root: directly, or with sudo when it needs no password.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@"
	else
		return 1
	fi
}

# apt_install PKG...: install Debian packages (apt-get update once if the
# lists are stale). Fails quietly where that is impossible.
apt_install() {
	command -v apt-get >/dev/null 2>&1 || return 1
	diag "installing $* (apt-get)"
	local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q)
	as_root "${apt[@]}" install --no-install-recommends "$@" >"$TT_TMP/apt.log" 2>&1 ||
		{ as_root "${apt[@]}" update >>"$TT_TMP/apt.log" 2>&1 &&
			as_root "${apt[@]}" install --no-install-recommends "$@" >>"$TT_TMP/apt.log" 2>&1; }
}

# apt_download DIR PKG: `apt-get download PKG` into DIR (as any user), with
# one `apt-get update` (as root) when the lists are stale.
apt_download() {
	local dir="$1" pkg="$2" dl=(apt-get -q download -o APT::Sandbox::User=root)
	[ "$(id -u)" -eq 0 ] || dl=(apt-get -q download)
	(cd "$dir" && "${dl[@]}" "$pkg") >>"$TT_TMP/download.log" 2>&1 && return 0
	as_root env DEBIAN_FRONTEND=noninteractive apt-get -q update >>"$TT_TMP/download.log" 2>&1 &&
		(cd "$dir" && "${dl[@]}" "$pkg") >>"$TT_TMP/download.log" 2>&1
}

# The reason of the last failed download or install, on one line.
last_error() {
	grep -hE '^(E|W|Err):|[Ff]ailed|[Ee]rror' "$TT_TMP"/*.log 2>/dev/null | tail -n 2 | tr '\n' ' '
}

# ---------------------------------------------------------------- qemu

need_qemu() {
	if ! command -v "$QEMU" >/dev/null 2>&1; then
		apt_install qemu-system-x86 ||
			tap_skip_all "no $QEMU and it could not be installed (apt-get install qemu-system-x86): $(last_error)"
		command -v "$QEMU" >/dev/null 2>&1 || tap_skip_all "no $QEMU after installing qemu-system-x86"
	fi
	"$QEMU" --version >"$TT_TMP/qemu-version.log" 2>&1 ||
		tap_skip_all "$QEMU does not run: $(head -n 1 "$TT_TMP/qemu-version.log")"
	command -v cpio >/dev/null 2>&1 || apt_install cpio ||
		tap_skip_all "no cpio to build the initramfs and it could not be installed"
}

# ---------------------------------------------------------------- kernel

# The versioned package linux-image-amd64 points to in apt's lists (offline).
wanted_kernel() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}

# The newest kernel already in the cache.
cached_kernel() {
	local d
	for d in "$VM_CACHE"/linux-image-*/; do
		[ -s "$d/vmlinuz" ] && basename "$d"
	done | sort -V | tail -n 1
}

# fetch_kernel: download linux-image-amd64 and the package it depends on,
# unpack vmlinuz, config and modules.builtin into $VM_CACHE/PKG; set FETCHED
# to PKG.
fetch_kernel() {
	local tmp deb pkg dep
	mkdir -p "$VM_CACHE" || return 1
	tmp="$(mktemp -d "$VM_CACHE/fetch.XXXXXX")" || return 1
	chmod 755 "$tmp"
	diag "downloading linux-image-amd64 (apt-get download)"
	if ! apt_download "$tmp" linux-image-amd64 ||
		! deb="$(ls "$tmp"/linux-image-amd64_*.deb 2>/dev/null)"; then
		rm -rf "$tmp"
		return 1
	fi
	dep="$(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | sed -n 's/^ *\(linux-image-[0-9][^ ]*\).*/\1/p' | head -n 1)"
	if [ -z "$dep" ]; then
		echo "linux-image-amd64 depends on no linux-image-6.x package" >>"$TT_TMP/download.log"
		rm -rf "$tmp"
		return 1
	fi
	diag "downloading $dep (apt-get download; tens of MB, once)"
	if ! apt_download "$tmp" "$dep" || ! deb="$(ls "$tmp/$dep"_*.deb 2>/dev/null)"; then
		rm -rf "$tmp"
		return 1
	fi
	diag "unpacking $(basename "$deb")"
	mkdir -p "$tmp/x" "$tmp/$dep"
	if ! dpkg-deb -x "$deb" "$tmp/x" >>"$TT_TMP/download.log" 2>&1; then
		rm -rf "$tmp"
		return 1
	fi
	cp "$tmp"/x/boot/vmlinuz-* "$tmp/$dep/vmlinuz" &&
		cp "$tmp"/x/boot/config-* "$tmp/$dep/config" &&
		basename "$tmp"/x/boot/vmlinuz-* | sed 's/^vmlinuz-//' >"$tmp/$dep/release" &&
		dpkg-deb -f "$deb" Package Version | awk '{ v = v (v ? " " : "") $2 } END { print v }' >"$tmp/$dep/package" ||
		{ rm -rf "$tmp"; return 1; }
	cp "$tmp"/x/lib/modules/*/modules.builtin "$tmp/$dep/" 2>/dev/null
	rm -rf "${VM_CACHE:?}/$dep"
	mv "$tmp/$dep" "$VM_CACHE/$dep" || { rm -rf "$tmp"; return 1; }
	rm -rf "$tmp"
	FETCHED="$dep"
}

# unpack_vmlinux DIR: DIR/vmlinux, the uncompressed kernel that qemu boots
# straight (PVH entry), skipping 2 s of emulated xz decompression. Debian's
# kernels are xz-compressed; for anything else vmlinuz stays the one booted.
unpack_vmlinux() {
	local dir="$1" off
	[ -s "$dir/vmlinux" ] && return 0
	grep -q '^CONFIG_PVH=y' "$dir/config" && command -v xz >/dev/null 2>&1 || return 1
	off="$(grep -abo $'\xfd7zXZ\x00' "$dir/vmlinuz" | head -n 1 | cut -d: -f1)"
	[ -n "$off" ] || return 1
	tail -c +"$((off + 1))" "$dir/vmlinuz" | xz -dc --single-stream >"$dir/vmlinux.$$" 2>/dev/null &&
		[ "$(head -c 4 "$dir/vmlinux.$$")" = $'\x7fELF' ] && mv "$dir/vmlinux.$$" "$dir/vmlinux" ||
		{ rm -f "$dir/vmlinux.$$"; return 1; }
}

# need_kernel: set KDIR to the cached kernel, fetching it when needed, and
# KERNEL to the file qemu boots.
need_kernel() {
	local want have
	want="$(wanted_kernel)"
	have="$(cached_kernel)"
	if [ -n "$want" ] && [ -s "$VM_CACHE/$want/vmlinuz" ]; then
		KDIR="$VM_CACHE/$want"
	elif [ -n "$have" ] && { [ -z "$want" ] || [ "${TT_VM_OFFLINE:-0}" = 1 ]; }; then
		KDIR="$VM_CACHE/$have"
	elif [ "${TT_VM_OFFLINE:-0}" = 1 ]; then
		tap_skip_all "no kernel in $VM_CACHE and TT_VM_OFFLINE=1"
	else
		command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 ||
			tap_skip_all "no apt-get/dpkg-deb to fetch Debian's kernel and none cached in $VM_CACHE"
		# one fetch at a time per cache
		mkdir -p "$VM_CACHE" 2>/dev/null ||
			tap_skip_all "cannot create the kernel cache $VM_CACHE"
		exec 9>"$VM_CACHE/.lock"
		flock 9 2>/dev/null
		if [ -n "$want" ] && [ -s "$VM_CACHE/$want/vmlinuz" ]; then
			KDIR="$VM_CACHE/$want"
		elif FETCHED="" && fetch_kernel && [ -n "$FETCHED" ]; then
			KDIR="$VM_CACHE/$FETCHED"
		elif [ -n "$have" ]; then
			diag "could not download ${want:-the kernel} ($(last_error)); using the cached $have"
			KDIR="$VM_CACHE/$have"
		else
			tap_skip_all "cannot download Debian's kernel (apt-get download linux-image-amd64) and none is cached in $VM_CACHE: $(last_error)"
		fi
		exec 9>&-
	fi
	KERNEL="$KDIR/vmlinuz"
	unpack_vmlinux "$KDIR" 2>/dev/null && KERNEL="$KDIR/vmlinux"
	KREL="$(cat "$KDIR/release")"
	diag "kernel: $(cat "$KDIR/package") ($KREL): $KERNEL"
}

# ---------------------------------------------------------------- initramfs

# A static or dynamic busybox: on PATH, or from busybox-static unpacked into
# the cache.
need_busybox() {
	local tmp
	BUSYBOX="$(command -v busybox 2>/dev/null)"
	[ -n "$BUSYBOX" ] && return 0
	BUSYBOX="$VM_CACHE/busybox"
	[ -x "$BUSYBOX" ] && return 0
	mkdir -p "$VM_CACHE" && tmp="$(mktemp -d "$VM_CACHE/fetch.XXXXXX")" && chmod 755 "$tmp" ||
		tap_skip_all "cannot create the cache $VM_CACHE"
	diag "downloading busybox-static (apt-get download)"
	if apt_download "$tmp" busybox-static && dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/x" &&
		cp "$tmp/x/bin/busybox" "$BUSYBOX"; then
		rm -rf "$tmp"
		return 0
	fi
	rm -rf "$tmp"
	tap_skip_all "no busybox and busybox-static could not be downloaded: $(last_error)"
}

# put SRC DEST: copy a file into the initramfs at DEST (following links).
put() {
	mkdir -p "$ROOT$(dirname "$2")" && cp -L "$1" "$ROOT$2"
}

# put_elf SRC [DEST]: copy a program and every shared library it needs
# (ldd), libraries at the paths the loader looks for them.
put_elf() {
	local src="$1" dest="${2:-$1}" lib
	put "$src" "$dest" || return 1
	while read -r lib; do
		[ -e "$ROOT$lib" ] || put "$lib" "$lib" || return 1
	done < <(ldd "$src" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
}

# The /init script: mount, run each test with its TAP on ttyS1, power off.
write_init() {
	cat >"$ROOT/init" <<EOF
#!/bin/sh
# generated by tests/vm/run.sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=linux TMPDIR=/tmp
export TT_BUILDDIR=/tt TT_SRCDIR=/tt TT_VM=1
mount -t devtmpfs devtmpfs /dev 2>/dev/null
if [ -c /dev/console ]; then exec </dev/console >/dev/console 2>&1; fi
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /dev/pts /dev/shm && mount -t devpts devpts /dev/pts && mount -t tmpfs tmpfs /dev/shm
ip link set lo up 2>/dev/null
hostname tt-vm
up() { cut -d' ' -f1 /proc/uptime; }
exec 3>/dev/ttyS1
stty -F /dev/ttyS1 raw -echo 2>/dev/null
echo "TT-VM-BOOTED uptime=\$(up) kernel=\$(uname -r)" >&3
echo "TT-VM-INFO \$(dmesg | grep -m1 'Hypervisor detected' | sed 's/^\[[^]]*\] *//')" >&3
cd /tt
# each test in a session of its own: after $VM_TEST_TIMEOUT s, SIGTERM to all of
# it (the test's clean-up runs), SIGKILL 5 s later
while read -r t; do
	echo "TT-VM-TEST-BEGIN \$t uptime=\$(up)" >&3
	rm -f /tmp/.tt-timeout
	setsid bash "tests/vm/\$t" </dev/null >&3 2>&1 &
	pid=\$!
	(sleep $VM_TEST_TIMEOUT; touch /tmp/.tt-timeout; kill -TERM -\$pid; sleep 5; kill -KILL -\$pid) 2>/dev/null &
	wd=\$!
	wait \$pid
	st=\$?
	kill \$wd 2>/dev/null
	wait \$wd 2>/dev/null
	[ -e /tmp/.tt-timeout ] && st="\$st timeout=$VM_TEST_TIMEOUT"
	echo "TT-VM-TEST-END \$t uptime=\$(up) status=\$st" >&3
	cd /tt
done </tt/tests/vm/.list
echo "TT-VM-DONE uptime=\$(up)" >&3
exec 3>&-
sync
poweroff -f
EOF
	chmod 755 "$ROOT/init"
}

# build_initramfs TEST...: $TT_TMP/initrd.gz with the tests named.
build_initramfs() {
	local t f d app
	ROOT="$TT_TMP/root"
	mkdir -p "$ROOT"/{usr/bin,usr/sbin,usr/lib,usr/lib64,proc,sys,dev,tmp,run,root,etc,mnt} \
		"$ROOT"/tt/tests/{vm,e2e,workloads} || return 1
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$ROOT/$d"; done
	mknod -m 600 "$ROOT/dev/console" c 5 1 2>/dev/null # only as root; /init copes
	put_elf "$(command -v bash)" /usr/bin/bash &&
		put_elf "$BUSYBOX" /usr/bin/busybox &&
		put_elf "$TRACETOP" /tt/tracetop || return 1
	# what tracetop opens only when needed (dlopen), which ldd cannot see:
	# capstone, for Annotate
	local lib
	for lib in $(ldconfig -p | awk '/libcapstone\.so\.[0-9]+ / { print $NF }'); do
		put_elf "$lib" "$lib" || return 1
	done
	# busybox for everything else (never over bash)
	while read -r app; do
		[ -e "$ROOT/$app" ] || [ -L "$ROOT/$app" ] || ln -s /usr/bin/busybox "$ROOT/$app"
	done < <("$BUSYBOX" --list-full)
	[ -e "$ROOT/bin/sh" ] || [ -L "$ROOT/bin/sh" ] || ln -s busybox "$ROOT/usr/bin/sh"
	# the workloads that were built
	for f in "$TT_BUILDDIR"/tests/workloads/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		put_elf "$f" "/tt/tests/workloads/$(basename "$f")" || return 1
	done
	# programs a test asks for with a "# vm-copy: PATH..." line
	for t in "$@"; do
		for f in $(sed -n 's/^# vm-copy: *//p' "$TT_SRCDIR/tests/vm/$t"); do
			f="$(command -v "$f" 2>/dev/null || echo "$f")"
			if [ -f "$f" ]; then put_elf "$f" || return 1; else diag "$t: vm-copy: no $f here"; fi
		done
	done
	for d in /usr/share/terminfo /lib/terminfo; do
		for f in l/linux v/vt100 d/dumb x/xterm x/xterm-256color s/screen t/tmux-256color; do
			[ -f "$d/$f" ] && put "$d/$f" "/usr/share/terminfo/$f"
		done
	done
	# the C.UTF-8 locale where the host has it (tmux refuses to start
	# without a UTF-8 one)
	if [ -d /usr/lib/locale/C.utf8 ]; then
		while read -r f; do
			put "$f" "$f" || return 1
		done < <(find /usr/lib/locale/C.utf8 -type f)
	fi
	cp "$TT_SRCDIR"/tests/vm/*.sh "$ROOT/tt/tests/vm/" &&
		cp "$TT_SRCDIR/tests/e2e/lib.sh" "$ROOT/tt/tests/e2e/" &&
		cp "$KDIR/config" "$ROOT/tt/kernel.config" || return 1
	rm -f "$ROOT/tt/tests/vm/run.sh"
	printf '%s\n' "$@" >"$ROOT/tt/tests/vm/.list"
	echo "$KREL" >"$ROOT/tt/kernel.release"
	echo "tests/vm/run.sh" >"$ROOT/tt/.tracetop-vm"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ROOT/etc/passwd"
	printf 'root:x:0:\n' >"$ROOT/etc/group"
	write_init
	(cd "$ROOT" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 >"$TT_TMP/initrd.gz"
}

# ---------------------------------------------------------------- tests

# The tests to run, as names relative to tests/vm.
list_tests() {
	local t
	if [ "$#" -eq 0 ]; then
		for t in "$TT_SRCDIR"/tests/vm/*-vm.sh; do
			[ -f "$t" ] && basename "$t"
		done
		return 0
	fi
	for t in "$@"; do
		t="$(basename "$t")"
		[ -f "$TT_SRCDIR/tests/vm/$t" ] || t="${t%.sh}-vm.sh"
		[ -f "$TT_SRCDIR/tests/vm/$t" ] || t="${t%-vm-vm.sh}-vm.sh"
		[ -f "$TT_SRCDIR/tests/vm/$t" ] || t="!$1" # no such test
		echo "$t"
	done
}

# Console (kernel) messages worth showing when something went wrong.
# Once: what the kernel said (first the lines that tell a panic or a BUG).
console_tail() {
	[ -z "${console_shown:-}" ] || return 0
	console_shown=1
	if [ -s "$TT_TMP/console.log" ]; then
		diag "the VM console said:"
		diag "$(tr -d '\r' <"$TT_TMP/console.log" | grep -m 8 -E 'Kernel panic|BUG:|Oops|WARNING:|not syncing')"
		diag "..." "$(tr -d '\r' <"$TT_TMP/console.log" | tail -n 15)"
	else
		diag "(nothing on the VM console)"
	fi
}

n=0      # results printed
failed=0 # of which failed

result() { # result STATUS DESC: one of run.sh's own results
	_tap_n=$n
	_tap_result "$1" "$2"
	n=$_tap_n
	[ "$1" -eq 0 ] || failed=$((failed + 1))
}

# relay TAPLOG TEST...: turn the VM's output into this script's TAP.
relay() {
	local log="$1" line cur="" name t sub_n=0 sub_fail=0 sub_plan="" skip_all="" bailed=0
	local booted="" done_up="" status up0=0 rest timedout
	shift
	declare -A seen=()
	while IFS= read -r line; do
		line="${line%$'\r'}"
		case "$line" in
		"TT-VM-BOOTED "*)
			booted="${line#*uptime=}"
			booted="${booted%% *}"
			result 0 "the VM boots Debian's kernel ${line##*kernel=} ($ACCEL; /init after $booted s)"
			continue
			;;
		"TT-VM-INFO "*)
			[ -n "${line#TT-VM-INFO }" ] && diag "VM: ${line#TT-VM-INFO }"
			continue
			;;
		"TT-VM-TEST-BEGIN "*)
			cur="${line#TT-VM-TEST-BEGIN }"
			cur="${cur%% *}"
			up0="${line##*uptime=}"
			seen[$cur]=1
			name="${cur%-vm.sh}"
			sub_n=0 sub_fail=0 sub_plan="" skip_all="" bailed=0
			diag "---- $cur"
			continue
			;;
		"TT-VM-TEST-END "*)
			status="${line#*status=}"
			status="${status%% *}"
			timedout=""
			[[ $line == *" timeout="* ]] && timedout=1
			if [ -n "$skip_all" ] && [ "$sub_n" -eq 0 ]; then
				n=$((n + 1))
				echo "ok $n - $name # SKIP $skip_all"
			elif [ -n "$timedout" ]; then
				result 1 "$name: killed after $VM_TEST_TIMEOUT s (TT_VM_TEST_TIMEOUT), $sub_n tests done"
			elif [ "$sub_n" -eq 0 ] && [ "$bailed" -eq 0 ]; then
				result 1 "$name: no test results (exit status $status)"
			elif [ -n "$sub_plan" ] && [ "$sub_plan" -ne "$sub_n" ]; then
				result 1 "$name: planned $sub_plan tests but ran $sub_n"
			elif [ "$status" -ne 0 ] && [ "$sub_fail" -eq 0 ] && [ "$bailed" -eq 0 ]; then
				result 1 "$name: exit status $status with no failed test"
			fi
			diag "---- $cur: exit status $status, $(awk -v a="$up0" -v b="${line##*uptime=}" 'BEGIN { printf "%.1f", b - a }') s"
			cur=""
			continue
			;;
		"TT-VM-DONE "*)
			done_up="${line#*uptime=}"
			continue
			;;
		esac
		if [ -z "$cur" ]; then
			[ -n "$line" ] && diag "VM: $line"
			continue
		fi
		if [[ $line =~ ^(not\ )?ok([[:space:]]+[0-9]+)?([[:space:]]+-)?([[:space:]]+(.*))?$ ]]; then
			rest="${BASH_REMATCH[5]}"
			sub_n=$((sub_n + 1))
			n=$((n + 1))
			if [ -n "${BASH_REMATCH[1]}" ]; then
				echo "not ok $n - $name: $rest"
				shopt -s nocasematch
				[[ $rest =~ \#[[:space:]]*TODO ]] || { sub_fail=$((sub_fail + 1)) && failed=$((failed + 1)); }
				shopt -u nocasematch
			else
				echo "ok $n - $name: $rest"
			fi
		elif [[ $line =~ ^1\.\.([0-9]+)(.*)$ ]]; then
			sub_plan="${BASH_REMATCH[1]}"
			if [ "$sub_plan" -eq 0 ]; then
				skip_all="$(sed -E 's/^[^#]*#[[:space:]]*[Ss][Kk][Ii][Pp][[:alpha:]]*[[:space:]]*//' <<<"${BASH_REMATCH[2]}")"
				skip_all="${skip_all:-skipped}"
			fi
		elif [[ $line == "Bail out!"* ]]; then
			bailed=1
			result 1 "$name: $line"
		elif [[ $line == "#"* ]]; then
			printf '%s\n' "$line"
		elif [ -n "$line" ]; then
			diag "$line"
		fi
	done < <(tr -d '\r' <"$log")

	if [ -z "$booted" ]; then
		result 1 "the VM boots Debian's kernel $KREL ($ACCEL)"
		console_tail
		return
	fi
	if [ -n "$cur" ]; then
		if [ -e "$TT_TMP/stalled" ]; then
			result 1 "${cur%-vm.sh}: did not finish (the VM hung: $(cat "$TT_TMP/stalled"))"
		else
			result 1 "${cur%-vm.sh}: did not finish (the VM crashed or qemu was killed after $VM_TIMEOUT s)"
		fi
		console_tail
	fi
	for t in "$@"; do
		[ -n "${seen[$t]:-}" ] || result 1 "${t%-vm.sh}: not run (the VM stopped before it)"
	done
	[ -n "$done_up" ] || console_tail
	VM_UPTIME="${done_up:-?}"
	VM_BOOTED="$booted"
}

# ---------------------------------------------------------------- main

mapfile -t TESTS < <(list_tests "$@")
[ "${#TESTS[@]}" -gt 0 ] || tap_skip_all "no tests/vm/*-vm.sh to run"
for t in "${TESTS[@]}"; do
	[[ $t != "!"* ]] || bail_out "no test ${t#!} in tests/vm (tests are tests/vm/NAME-vm.sh)"
done
VM_TIMEOUT="${TT_VM_TIMEOUT:-$((60 + VM_TEST_TIMEOUT * ${#TESTS[@]}))}"
need_built "$TRACETOP"
need_qemu
need_busybox
need_kernel

# boot ACCEL [DEADLINE]: run the VM, its TAP in $TT_TMP/tap.log; set QSTATUS.
# With DEADLINE, give up (status 125) unless /init starts within DEADLINE
# seconds.
boot() {
	local cpu
	case "$1" in
	kvm) cpu=(-accel kvm -cpu host) ;;
	tcg) cpu=(-accel tcg -cpu max) ;;
	esac
	: >"$TT_TMP/tap.log"
	: >"$TT_TMP/console.log"
	# (in a subshell that passes SIGTERM on: a qemu that aborts is reported
	# in qemu.log, not by bash)
	(
		timeout -k 5 "$VM_TIMEOUT" "$QEMU" -nodefaults -no-user-config -display none -no-reboot \
			"${cpu[@]}" -smp "$VM_SMP" -m "$VM_MEM" \
			-kernel "$KERNEL" -initrd "$TT_TMP/initrd.gz" \
			-append "console=ttyS0 quiet panic=-1 ${TT_VM_APPEND:-}" \
			-serial "file:$TT_TMP/console.log" -serial "file:$TT_TMP/tap.log" -monitor none \
			</dev/null >"$TT_TMP/qemu.log" 2>&1 &
		tpid=$!
		trap 'kill "$tpid"; wait "$tpid"; exit 143' TERM
		wait "$tpid"
	) 2>/dev/null &
	QPID=$!
	bg_pid $QPID
	rm -f "$TT_TMP/stalled"
	stall_watch "$QPID" &
	bg_pid $!
	if [ -n "${2:-}" ] && ! wait_for "$2" booted_or_gone; then
		kill "$QPID" 2>/dev/null
		wait "$QPID"
		QSTATUS=125
		return
	fi
	wait "$QPID"
	QSTATUS=$?
}

# stall_watch QPID: kill the VM when neither of its serial logs has grown
# for $VM_STALL s. A guest test writes at least every VM_TEST_TIMEOUT s (its
# watchdog ends it), so silence that long means the guest kernel hung (a
# TCG guest starved by a loaded host stalls in RCU and never recovers);
# waiting for VM_TIMEOUT would only burn the rest of the budget. A guest
# that hangs that way keeps its console busy with the kernel's stall
# reports, so those do not count as life: a stall or lockup report with
# the tests' port silent for $VM_RCU_STALL s since its last line is a hang
# too (a test's watchdog would have written by then).
stall_watch() {
	local qpid="$1" size last="" quiet=0 tsize tlast="" tquiet=0 mark=0
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 5
		size="$(cat "$TT_TMP/tap.log" "$TT_TMP/console.log" 2>/dev/null | wc -c)"
		if [ "$size" = "$last" ]; then
			quiet=$((quiet + 5))
		else
			quiet=0 last="$size"
		fi
		tsize="$(wc -c <"$TT_TMP/tap.log" 2>/dev/null)"
		if [ "$tsize" = "$tlast" ]; then
			tquiet=$((tquiet + 5))
		else
			tquiet=0 tlast="$tsize"
			mark="$(wc -c <"$TT_TMP/console.log" 2>/dev/null)"
		fi
		if [ "$quiet" -ge "$VM_STALL" ]; then
			echo "both serial ports silent for $VM_STALL s" >"$TT_TMP/stalled"
		elif [ "$tquiet" -ge "$VM_RCU_STALL" ] &&
			tail -c +"$((mark + 1))" "$TT_TMP/console.log" 2>/dev/null |
			grep -q -E 'rcu.* stall|detected stalls|soft lockup|hard LOCKUP'; then
			echo "a kernel stall report, then the tests silent for $VM_RCU_STALL s" >"$TT_TMP/stalled"
		fi
		if [ -e "$TT_TMP/stalled" ]; then
			pkill -TERM -P "$qpid" 2>/dev/null
			kill -TERM "$qpid" 2>/dev/null
			return
		fi
	done
}

# Succeed once /init has started or qemu has stopped.
booted_or_gone() {
	grep -q '^TT-VM-BOOTED' "$TT_TMP/tap.log" || ! kill -0 "$QPID" 2>/dev/null
}

# KVM when /dev/kvm opens and has booted a guest here, else TCG. A KVM that
# does not boot the kernel (nested KVM of another flavour) is remembered in
# the cache, for this host kernel and qemu, and not tried again.
KVM_KEY="$(uname -r) $("$QEMU" --version | head -n 1)"
KVM_FAILS="$VM_CACHE/kvm-fails"
ACCEL="${TT_VM_ACCEL:-}"
if [ -z "$ACCEL" ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && : 2>/dev/null <>/dev/kvm; then
		if [ "$(cat "$KVM_FAILS" 2>/dev/null)" = "$KVM_KEY" ]; then
			diag "KVM did not boot a guest here before ($KVM_FAILS): using TCG"
			ACCEL=tcg
		else
			ACCEL=kvm
			kvm_probe=1
		fi
	else
		ACCEL=tcg
	fi
fi
case "$ACCEL" in
kvm | tcg) ;;
*) bail_out "TT_VM_ACCEL must be kvm or tcg, not '$ACCEL'" ;;
esac

t0=$(_tap_now_us)
build_initramfs "${TESTS[@]}" || bail_out "could not build the initramfs in $TT_TMP"
t1=$(_tap_now_us)
diag "initramfs: $(($(stat -c %s "$TT_TMP/initrd.gz") / 1024)) KiB, built in $(secs $((t1 - t0))) s; tests: ${TESTS[*]}"
diag "booting with $ACCEL, $VM_SMP CPUs, $VM_MEM (timeout $VM_TIMEOUT s)"
if [ -n "${kvm_probe:-}" ]; then
	boot kvm 20
	if ! grep -q '^TT-VM-BOOTED' "$TT_TMP/tap.log"; then
		t2=$(_tap_now_us)
		diag "KVM did not boot the kernel in $(secs $((t2 - t1))) s (qemu status $QSTATUS$(head -n 1 "$TT_TMP/qemu.log" | sed 's/^/: /')): using TCG"
		echo "$KVM_KEY" >"$KVM_FAILS" 2>/dev/null
		ACCEL=tcg
		t1=$t2
	fi
elif [ "$ACCEL" = kvm ]; then
	boot kvm
fi
[ "$ACCEL" = tcg ] && boot tcg
# A guest that hung without a failed test so far gets one more boot, and
# the hang is told: a real fault of tracetop hangs it again.
if ! grep -q '^TT-VM-DONE' "$TT_TMP/tap.log" && grep -q '^TT-VM-BOOTED' "$TT_TMP/tap.log" &&
	! grep -q '^not ok' "$TT_TMP/tap.log" && [ -z "${TT_VM_NO_RETRY:-}" ]; then
	hung="$(grep '^TT-VM-TEST-BEGIN' "$TT_TMP/tap.log" | tail -n 1 | cut -d' ' -f2)"
	diag "the VM stopped in ${hung:-?} without a failed test ($([ -e "$TT_TMP/stalled" ] &&
		cat "$TT_TMP/stalled" || echo "qemu status $QSTATUS")); its console said:"
	diag "$(tr -d '\r' <"$TT_TMP/console.log" | grep -m 4 -E 'Kernel panic|BUG:|Oops|WARNING:|stall')"
	diag "booting it once more, all tests again"
	cp "$TT_TMP/console.log" "$TT_TMP/console.first.log"
	boot "$ACCEL"
fi
t2=$(_tap_now_us)
if [ -n "${TT_VM_KEEP:-}" ]; then
	mkdir -p "$TT_VM_KEEP" && cp "$TT_TMP"/{initrd.gz,tap.log,console.log,qemu.log} "$TT_VM_KEEP/"
fi
if [ "$QSTATUS" -ne 0 ]; then
	[ "$QSTATUS" -eq 124 ] && diag "qemu was killed after $VM_TIMEOUT s (TT_VM_TIMEOUT)"
	diag "qemu exited with status $QSTATUS"
	[ -s "$TT_TMP/qemu.log" ] && diag "$(head -n 20 "$TT_TMP/qemu.log")"
fi

VM_UPTIME="?" VM_BOOTED="?"
relay "$TT_TMP/tap.log" "${TESTS[@]}"
diag "times: qemu $(secs $((t2 - t1))) s ($ACCEL: /init after $VM_BOOTED s, powered off at $VM_UPTIME s of guest uptime)"
echo "1..$n"
[ "$failed" -eq 0 ]
