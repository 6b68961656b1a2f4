# shellcheck shell=bash
# Common helpers for the lrutest scripts.  Sourced, never run.
# shellcheck disable=SC2034 # the variables are for the scripts that source this

LRUTEST_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LRUTEST_CACHE=$(realpath -m -- "${LRUTEST_CACHE:-$LRUTEST_ROOT/.cache}")
# The config and kernel whose build is gcov-instrumented: scripts/coverage
# runs it, the gate's coverage floors are taken from it.
COVERAGE_CONFIG=debug
COVERAGE_KERNEL=6.12
# The kernels the scripts know, oldest first: each is Debian's
# linux-source-KERNEL package (kernel_debian_suite: where it comes from).
# The default is the newest.
LRUTEST_KERNELS=(6.12 7.3)
LRUTEST_NEWEST=${LRUTEST_KERNELS[${#LRUTEST_KERNELS[@]} - 1]}
LRUTEST_KERNEL=${LRUTEST_KERNEL:-$LRUTEST_NEWEST}

die() {
	echo "${0##*/}: error: $*" >&2
	exit "${LRUTEST_EXIT:-1}"
}

note() {
	echo "${0##*/}: $*" >&2
}

need_tool() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "required tool '$t' not found in PATH (try: apt-get install $t)"
	done
}

# kernel_version TREE: print VERSION.PATCHLEVEL.SUBLEVEL of a kernel tree.
kernel_version() {
	local mk=$1/Makefile v p s
	v=$(sed -n '/^VERSION = /{s///p;q}' "$mk")
	p=$(sed -n '/^PATCHLEVEL = /{s///p;q}' "$mk")
	s=$(sed -n '/^SUBLEVEL = /{s///p;q}' "$mk")
	echo "$v.$p.$s"
}

# check_kernel_tree TREE: die unless TREE looks like a kernel source tree.
check_kernel_tree() {
	local t=$1
	[ -n "$t" ] || die "no kernel tree given"
	[ -d "$t" ] || die "kernel tree '$t' does not exist or is not a directory"
	if [ ! -f "$t/Makefile" ] || [ ! -f "$t/mm/vmscan.c" ] ||
		[ ! -f "$t/tools/testing/kunit/kunit.py" ] || [ ! -f "$t/Kconfig" ]; then
		die "'$t' is not a Linux kernel source tree (no Makefile, mm/vmscan.c or tools/testing/kunit/kunit.py)"
	fi
}

# check_kernel_name KERNEL: die unless KERNEL is one of LRUTEST_KERNELS.
check_kernel_name() {
	local k
	for k in "${LRUTEST_KERNELS[@]}"; do
		[ "$k" != "$1" ] || return 0
	done
	die "unknown kernel '$1' (known: ${LRUTEST_KERNELS[*]})"
}

# kernel_debian_suite KERNEL: the Debian suite linux-source-KERNEL is taken
# from, empty for Debian 12's own (installed with the machine's sources).
kernel_debian_suite() {
	case $1 in
	6.12) echo "" ;;
	7.3) echo trixie-backports ;;
	*) die "unknown kernel '$1' (known: ${LRUTEST_KERNELS[*]})" ;;
	esac
}

# default_tree: the kernel tree the scripts work on: $KERNEL_SRC, else the
# unpacked linux-source-$LRUTEST_KERNEL.
default_tree() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		(cd "$KERNEL_SRC" 2>/dev/null && pwd) ||
			die "KERNEL_SRC='$KERNEL_SRC' does not exist"
	else
		check_kernel_name "$LRUTEST_KERNEL"
		echo "$LRUTEST_CACHE/linux-$LRUTEST_KERNEL"
	fi
}

# build_dir CONFIG: the build folder of CONFIG's kernel for $LRUTEST_KERNEL.
build_dir() {
	echo "$LRUTEST_CACHE/build/$LRUTEST_KERNEL/$1"
}

# config_boots CONFIG: the NAME of each "# boot: NAME ARG..." line of a
# config fragment (more boots of the same build, see scripts/run).
config_boots() {
	sed -n 's/^# boot: *\([a-z0-9]*\) .*/\1/p' \
		"$LRUTEST_ROOT/tools/testing/kunit/lrutest/$1.config"
}

# config_cmdline CONFIG: one kunit.py "--kernel_args=ARG" a line for each
# argument of the "# cmdline: ARG..." lines of a config fragment (given to
# every boot of the build: scripts/run, scripts/forcefail).
config_cmdline() {
	local line a
	while read -r line; do
		for a in $line; do echo "--kernel_args=$a"; done
	done < <(sed -n 's/^# cmdline: *//p' "$LRUTEST_ROOT/tools/testing/kunit/lrutest/$1.config")
}

# use_ccache: set make_opts to the kunit.py options that build through
# ccache (none without ccache), with the project's cache.
use_ccache() {
	make_opts=()
	command -v ccache >/dev/null 2>&1 || return 0
	export CCACHE_DIR=${CCACHE_DIR:-$LRUTEST_CACHE/ccache}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	# Paths under the cache are hashed relative to the build folder, so
	# every config and every clone of the project shares the hits.
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$LRUTEST_CACHE}
	make_opts+=(--make_options "CC=ccache gcc")
}
