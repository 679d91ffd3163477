#!/usr/bin/env bash
# fuzz.sh TIME [PKG...]: run every fuzz target of the packages (default ./..., the whole
# module) for TIME each (-fuzztime: a duration or a count like 20000x), one after another. The
# targets are what go test -list '^Fuzz' finds, so a new one is fuzzed without being listed
# here. The Go toolchain sometimes ends a fuzzing run with "context deadline exceeded" and no
# crasher (a known race in its coordinator); such a run is retried, up to three times. A real
# failure (a crasher written to testdata/fuzz) fails at once.
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
if [ $# -lt 1 ]; then
	echo "usage: scripts/fuzz.sh TIME [PKG...]" >&2
	exit 2
fi
time=$1
shift
[ $# -gt 0 ] || set -- ./...

# go test -list prints each package's matching names, then "ok PKG TIME" ("?" for a package
# without test files).
if ! list=$("$go" test -list '^Fuzz' "$@" 2>&1); then
	echo "$list" >&2
	echo "fuzz.sh: go test -list '^Fuzz' failed" >&2
	exit 1
fi
targets=() # "NAME PKG"
names=()
while read -r first second _; do
	case "$first" in
	Fuzz*) names+=("$first") ;;
	ok)
		for n in ${names[@]+"${names[@]}"}; do targets+=("$n $second"); done
		names=()
		;;
	esac
done <<<"$list"
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz.sh: no fuzz target in $*" >&2
	exit 1
fi
echo "fuzz.sh: ${#targets[@]} fuzz targets, $time each"

# fuzz TARGET PKG: one target, retried on the toolchain's deadline race.
fuzz() {
	local target=$1 pkg=$2 out code try
	for try in 1 2 3; do
		out=$("$go" test -run='^$' -fuzz="^$target\$" -fuzztime="$time" "$pkg" 2>&1)
		code=$?
		echo "$out" | tail -3
		[ $code -eq 0 ] && return 0
		if echo "$out" | grep -q "context deadline exceeded" && ! echo "$out" | grep -q "Failing input written"; then
			echo "fuzz.sh: $target: the toolchain's deadline race, no crasher; retrying ($try)" >&2
			continue
		fi
		echo "$out" >&2
		return $code
	done
	echo "fuzz.sh: $target: the deadline race three times in a row" >&2
	return 1
}

for t in "${targets[@]}"; do
	read -r target pkg <<<"$t"
	echo "fuzz.sh: $target ($pkg)"
	fuzz "$target" "$pkg" || exit 1
done
