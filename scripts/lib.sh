# shellcheck shell=bash
# Common helpers for the lrutest scripts.  Sourced, never run.
# shellcheck disable=SC2034 # the variables are for the scripts that source this

LRUTEST_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LRUTEST_CACHE=${LRUTEST_CACHE:-$LRUTEST_ROOT/.cache}
# The config whose kernel is gcov-instrumented: scripts/coverage runs it.
COVERAGE_CONFIG=debug
LRUTEST_DEB_PKG=linux-source-6.12
LRUTEST_DEB_TARBALL=/usr/src/linux-source-6.12.tar.xz
# Kernel versions the hook patches are known to apply to.
# The one version the suite is built and run on (6.12.118, Debian's 6.12 LTS).
LRUTEST_SUPPORTED_RE='^6\.12(\.[0-9]+)?$'

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
	v=$(sed -n 's/^VERSION = //p' "$mk" | head -n1)
	p=$(sed -n 's/^PATCHLEVEL = //p' "$mk" | head -n1)
	s=$(sed -n 's/^SUBLEVEL = //p' "$mk" | head -n1)
	echo "$v.$p.$s"
}

# check_tree TREE: die unless TREE looks like a supported kernel source tree.
check_tree() {
	local t=$1 ver
	[ -n "$t" ] || die "no kernel tree given"
	[ -d "$t" ] || die "kernel tree '$t' does not exist or is not a directory"
	if [ ! -f "$t/Makefile" ] || [ ! -f "$t/mm/vmscan.c" ] ||
		[ ! -f "$t/tools/testing/kunit/kunit.py" ] || [ ! -f "$t/Kconfig" ]; then
		die "'$t' is not a Linux kernel source tree (no Makefile, mm/vmscan.c or tools/testing/kunit/kunit.py)"
	fi
	ver=$(kernel_version "$t")
	[[ $ver =~ $LRUTEST_SUPPORTED_RE ]] ||
		die "kernel $ver at '$t' is not supported (lrutest is built and run on 6.12 only; first difference found: $(tree_difference "$t"))"
}

# tree_difference TREE: the first thing the suite relies on that TREE lacks
# or has changed (in the order the build would meet them), as a phrase.
tree_difference() {
	local t=$1
	if [ ! -f "$t/include/linux/pagevec.h" ]; then
		echo "no include/linux/pagevec.h"
	elif ! grep -q 'unlock_page_lruvec_irq(' "$t/include/linux/memcontrol.h" 2>/dev/null; then
		echo "no unlock_page_lruvec_irq() in include/linux/memcontrol.h"
	elif ! grep -q 'generate_params)(const void \*prev, char \*desc)' "$t/include/kunit/test.h" 2>/dev/null; then
		echo "KUnit's generate_params is not (const void *prev, char *desc)"
	elif ! grep -q '^static int evict_folios(struct lruvec \*lruvec, struct scan_control \*sc, int swappiness)' "$t/mm/vmscan.c"; then
		echo "evict_folios() in mm/vmscan.c takes other arguments"
	else
		echo "none of the probed ones; the suite has not been built or run on it"
	fi
}

# default_tree: the kernel tree the scripts work on.
default_tree() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		(cd "$KERNEL_SRC" 2>/dev/null && pwd) ||
			die "KERNEL_SRC='$KERNEL_SRC' does not exist"
	else
		echo "$LRUTEST_CACHE/linux"
	fi
}

# config_boots CONFIG: the NAME of each "# boot: NAME ARG..." line of a
# config fragment (more boots of the same build, see scripts/run).
config_boots() {
	sed -n 's/^# boot: *\([a-z0-9]*\) .*/\1/p' \
		"$LRUTEST_ROOT/tools/testing/kunit/lrutest/$1.config"
}
