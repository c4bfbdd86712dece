# shellcheck shell=bash
# Shared set-up steps for scripts/run and scripts/check (sourced, not run).
# Safe under `set -euo pipefail`. Messages go to stderr so that the
# stdout of tracetop (batch mode) and of the test summary stays clean.

# The repository root, whatever the caller's working directory.
TOP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$TOP/build"

# Debian packages needed to build tracetop (TT_PACKAGES, for scripts/run;
# libbpf-dev and clang build the BPF sampling engine, which configure
# leaves out without them) and to run its tests (TT_TEST_PACKAGES, added
# by scripts/check): bpftool and libcap2-bin (capsh) for the BPF engine's
# tests (what it leaves loaded, the fallback without privileges), tmux for
# the TUI tests, python3 for their checks, binutils (objdump, nm, c++filt),
# procps (pgrep, ps), clang-format (the tree's format is checked), rustc
# (the Rust demangling test builds a workload; g++ comes with
# build-essential), golang-go (go tool pprof reads the pprof test's
# profiles), nodejs and npm (pprof-format reads them too, where the npm
# registry is reachable), debuginfod (the server the debuginfod test runs on
# loopback), strace (the screen's cost test counts tracetop's calls), and qemu,
# busybox, cpio and xz for tests/vm, which boots Debian's kernel with
# tracetop in an initramfs. Every other command
# the tests call comes with a minimal Debian root (coreutils, util-linux,
# grep, sed, findutils, gzip, mount).
TT_PACKAGES=(
	build-essential autoconf automake libtool pkg-config gawk
	libelf-dev libdw-dev libunwind-dev libtraceevent-dev libtracefs-dev
	libcapstone-dev libcmocka-dev libncurses-dev linux-libc-dev libiberty-dev
	libdebuginfod-dev libbpf-dev clang zlib1g-dev
)
TT_TEST_PACKAGES=(
	tmux python3 binutils procps clang-format rustc debuginfod
	qemu-system-x86 busybox-static cpio xz-utils nodejs bpftool libcap2-bin golang-go strace
)
# npm installs the pprof test's independent decoder (pprof-format); a
# nodejs from nodesource brings its own npm and conflicts with Debian's.
command -v npm >/dev/null 2>&1 || TT_TEST_PACKAGES+=(npm)

# Print a message from the scripts on stderr.
tt_say() {
	printf '%s: %s\n' "$(basename "$0")" "$*" >&2
}

# Succeed when Debian package $1 is installed.
tt_pkg_installed() {
	local status
	status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" || return 1
	[ "$status" = "install ok installed" ]
}

# Run a command as root: directly, through sudo, or fail saying why.
tt_as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		tt_say "need root to run: $*  (not root and no sudo)"
		return 1
	fi
}

# Install the missing Debian packages named as arguments (Debian only).
# Quiet when everything is already there.
tt_deps() {
	local missing=() pkg log
	if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
		tt_say "not a Debian system: make sure these are installed: $*"
		return 0
	fi
	for pkg in "$@"; do
		tt_pkg_installed "$pkg" || missing+=("$pkg")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	# libunwind-dev conflicts with LLVM's libunwind-NN-dev: remove it ("pkg-").
	if [[ " ${missing[*]} " == *" libunwind-dev "* ]]; then
		for pkg in libunwind-13-dev libunwind-14-dev libunwind-15-dev libunwind-16-dev; do
			tt_pkg_installed "$pkg" && missing+=("$pkg-")
		done
	fi
	tt_say "installing: ${missing[*]}"
	log="$(mktemp)"
	if ! tt_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 ||
		! tt_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
		tail -n 30 "$log" >&2
		rm -f "$log"
		tt_say "could not install: ${missing[*]}"
		tt_say "as root: apt-get update && apt-get install ${missing[*]}"
		return 1
	fi
	rm -f "$log"
}

# Succeed when file $1 is missing or older than any of the files after it.
tt_stale() {
	local target="$1" dep
	shift
	[ -e "$target" ] || return 0
	for dep in "$@"; do
		[ -e "$dep" ] && [ "$dep" -nt "$target" ] && return 0
	done
	return 1
}

# Configure (if needed) and build tracetop out of tree in $TOP/build.
# Each step checks its status, so this also works where set -e is off.
tt_build() {
	local m4files=("$TOP"/m4/*.m4)
	if tt_stale "$TOP/configure" "$TOP/configure.ac" "$TOP/Makefile.am" "${m4files[@]}"; then
		tt_say "autoreconf"
		(cd "$TOP" && autoreconf -fi) >&2 || return 1
	fi
	mkdir -p "$BUILD" || return 1
	if [ ! -e "$BUILD/Makefile" ] || tt_stale "$BUILD/config.status" "$TOP/configure"; then
		tt_say "configure"
		(cd "$BUILD" && "$TOP/configure" -q) >&2 || return 1
	fi
	make -s --no-print-directory -C "$BUILD" -j"$(nproc)" >&2
}

# The pprof test's independent decoder (pprof-format, from the npm
# registry) into $BUILD/tests/npm, once; a note when npm cannot (the test
# then says why).
tt_npm_decoder() {
	local dir="$BUILD/tests/npm"
	[ -d "$dir/node_modules/pprof-format" ] && return 0
	command -v npm >/dev/null 2>&1 || { tt_say "note: no npm: the pprof test installs nothing"; return 0; }
	mkdir -p "$dir" || return 0
	if ! (cd "$dir" && timeout 300 npm install --no-audit --no-fund --silent pprof-format) \
		>"$dir/npm.log" 2>&1; then
		tt_say "note: npm could not install pprof-format: $(tail -n 1 "$dir/npm.log")"
	fi
	return 0
}

# Mount tracefs when it is not there; only a note if that is impossible.
tt_tracefs() {
	local dir=/sys/kernel/tracing
	[ -d "$dir/events" ] && return 0
	if [ "$(id -u)" -eq 0 ] && mount -t tracefs nodev "$dir" 2>/dev/null &&
		[ -d "$dir/events" ]; then
		return 0
	fi
	tt_say "note: tracefs is not mounted at $dir (tracepoint features will say so)"
}
