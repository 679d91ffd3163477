#!/usr/bin/env bash
# test-arm64.sh PKG... [-- TESTARGS...]: cross-compile the test binaries of the given packages
# for linux/arm64 (CGO_ENABLED=0) and run each under qemu-aarch64-static from its package
# directory, so that testdata paths work. Arguments starting with "-" (e.g. -test.run=Golden
# -test.v; write -test.run=X, not -test.run X) are passed to every test binary; "--" ends the
# package list, everything after it being passed on. Package arguments are relative to the
# module root, e.g. scripts/test-arm64.sh ./internal/detmath -test.run=Golden
# Installs Debian's qemu-user-static (through scripts/need.sh) when qemu-aarch64-static is
# missing. Exits non-zero when a build or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=()
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--) shift; args+=("$@"); break ;;
	-*) args+=("$1") ;;
	*) pkgs+=("$1") ;;
	esac
	shift
done
if [ ${#pkgs[@]} -eq 0 ]; then
	echo "usage: scripts/test-arm64.sh PKG... [-test.run=REGEXP ...]" >&2
	exit 2
fi

# qemu-aarch64 (without -static) is the name newer Debian releases may use for the same program.
find_qemu() { command -v qemu-aarch64-static || command -v qemu-aarch64 || true; }
qemu=$(find_qemu)
if [ -z "$qemu" ]; then
	echo "test-arm64: qemu-aarch64-static not found; installing Debian's qemu-user-static" >&2
	bash scripts/need.sh qemu-user-static
	qemu=$(find_qemu)
	[ -n "$qemu" ] || { echo "test-arm64: qemu-aarch64-static still missing after installing qemu-user-static" >&2; exit 1; }
fi

# Resolve the import path and directory of each package (patterns like ./... allowed);
# package arguments are relative to the module root.
list=$(go list -f '{{.ImportPath}} {{.Dir}}' "${pkgs[@]}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
while IFS=' ' read -r path dir; do
	bin="$tmp/$(echo "$path" | tr '/' '_').test"
	if ! GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go test -c -o "$bin" "$path"; then
		echo "FAIL $path (arm64 build)" >&2
		status=1
		continue
	fi
	if [ ! -e "$bin" ]; then
		echo "ok   $path (arm64: no test files)"
		continue
	fi
	start=$(date +%s)
	if (cd "$dir" && "$qemu" "$bin" ${args[@]+"${args[@]}"}); then
		echo "ok   $path (arm64 under qemu, $(($(date +%s) - start))s)"
	else
		echo "FAIL $path (arm64 under qemu)" >&2
		status=1
	fi
done <<<"$list"
exit $status
