#!/usr/bin/env bash
# check-imports.sh: the dependency rules of mark1, checked with go list -deps.
#  - The machine's packages (and everything that must run headless: the mark1 command) import
#    neither ebiten (which panics at start on Linux without a display) nor periph.
#  - The machine's core does not carry the built-in sets' fonts.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=github.com/mark1-perceptron/mark1
fail=0
deny() { # deny PACKAGE REGEXP WHY
	local bad
	bad=$(go list -deps "$1" | grep -E "$2" || true)
	if [ -n "$bad" ]; then
		echo "check-imports: $1 must not depend on $3:" >&2
		echo "$bad" | sed 's/^/  /' >&2
		fail=1
	fi
}
core="./retina ./patchboard ./potentiometer ./machine ./images ./knob ./internal/..."
for p in $core; do
	deny "$p" '^github.com/hajimehoshi/ebiten|^periph.io/' "ebiten or periph"
	deny "$p" '^golang.org/x/image/font|^'"$mod"'/images/builtin$' "the built-in sets or their fonts"
done
deny ./cmd/mark1 '^github.com/hajimehoshi/ebiten|^periph.io/x/host' "ebiten or periph host (it must run headless)"
[ $fail -eq 0 ] && echo "check-imports: ok"
exit $fail
