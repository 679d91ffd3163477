#!/usr/bin/env bash
# check-fma.sh: fail if the module's shipped code, compiled for arm64, contains a fused
# multiply-add instruction.
#
# The Go specification lets the compiler fuse x*y + z into one instruction that rounds once;
# the arm64 compiler does (FMADDD and friends), the amd64 one does not, so such code gives
# different last bits on a Raspberry Pi and on a PC. Writing float64(x*y) + z forbids the
# fusion (see internal/detmath).
#
# Every non-test package of the module is compiled for GOARCH=arm64 with the compiler's
# assembly listing (-S) for the module's own packages; test files are not compiled, so only
# shipped code is checked. Each fused instruction found in a function of the module is
# printed as "symbol  file:line  instruction". Exit status: 0 when there is none, 1 when
# there are some, 2 when the build fails. The go command caches the listing with the build,
# so a second run takes about a second.
set -euo pipefail
cd "$(dirname "$0")/.."

module=$(go list -m)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The window (museum, cmd/mark1-museum) imports ebiten, which needs cgo on Linux: it is not
# compiled here; what it draws is package view, which is.
pkgs=$(go list ./... | grep -v -E "^$module/(museum|cmd/mark1-museum)\$")
if ! GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -gcflags="$module/...=-S" $pkgs 2>"$tmp/asm.txt"; then
	# The listing and any compile errors share stderr: show the errors only.
	grep -v -E '^(	|[^ ]+ STEXT|#)' "$tmp/asm.txt" | grep -v '^\s*$' | head -50 >&2 || true
	echo "check-fma: the arm64 build failed" >&2
	exit 2
fi

# In the listing, a function starts with "SYMBOL STEXT ..." and each instruction line reads
# "	0xOFFS NNNNN (FILE:LINE)	OP	OPERANDS".
awk -v module="$module" -v root="$PWD/" '
	/^[^ \t].* STEXT/ { sym = $1; next }
	/^\t0x/ {
		op = $4
		if (op ~ /^(FMADDD|FMSUBD|FNMADDD|FNMSUBD|FMADDS|FMSUBS|FNMADDS|FNMSUBS|VFMLA|VFMLS)$/ && index(sym, module "/") == 1) {
			pos = $3
			gsub(/[()]/, "", pos)
			if (index(pos, root) == 1) pos = substr(pos, length(root) + 1)
			args = ""
			for (i = 5; i <= NF; i++) args = args " " $i
			printf "%s  %s  %s%s\n", substr(sym, length(module) + 2), pos, op, args
		}
	}
' "$tmp/asm.txt" >"$tmp/found.txt"

if [ -s "$tmp/found.txt" ]; then
	n=$(wc -l <"$tmp/found.txt")
	echo "check-fma: $n fused multiply-add instruction(s) in $module, compiled for arm64:"
	cat "$tmp/found.txt"
	echo
	echo "check-fma: per package:"
	awk '{ split($1, p, "."); c[p[1]]++ } END { for (k in c) printf "  %5d  %s\n", c[k], k }' "$tmp/found.txt" | sort -k2
	echo "check-fma: write float64(x*y) + z (float32(x*y) for float32 math) to round each product and forbid fusion" >&2
	exit 1
fi
echo "check-fma: no fused multiply-add instruction in $module's shipped code (arm64)"
