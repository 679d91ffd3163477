#!/usr/bin/env bash
# check-imports.sh: the dependency rules of mark1, checked on every package's dependencies.
#  - ebiten (which panics at start on Linux without a display) only in the window: package museum
#    and cmd/mark1-museum. Everything else must run headless: the mark1 command, the bridge, the
#    lab, and the museum's own session/, view/ and museum/console (tested with no display).
#  - chromedp (a browser driver) in no shipped package.
#  - The machine's core depends on none of the museum's packages (session, view, museum).
#  - periph host only in cmd/hwbridge; periph conn and devices (and the drivers) only in
#    drivers/ and cmd/hwbridge (hwapi/ and rig/ stay periph-free so that mark1 can use them).
#  - gonum only in the lab (lab/) and the mark1 command.
#  - The machine's core (retina, patchboard, potentiometer, machine, images, knob, internal)
#    carries neither the built-in sets nor their fonts.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=github.com/mark1-perceptron/mark1
fail=0
while read -r pkg deps; do
	rel=${pkg#"$mod"}
	rel=${rel#/}
	check() { # check REGEXP ALLOWED-PACKAGES-REGEXP WHAT
		if [[ ! "$rel" =~ $2 ]]; then
			local bad
			bad=$(tr ' ' '\n' <<<"$deps" | grep -E "$1" | head -3 || true)
			if [ -n "$bad" ]; then
				echo "check-imports: $pkg must not depend on $3: $(tr '\n' ' ' <<<"$bad")" >&2
				fail=1
			fi
		fi
	}
	check '^github.com/hajimehoshi/ebiten' '^(museum|cmd/mark1-museum)$' "ebiten (the window only)"
	check '^github.com/chromedp' '^$' "chromedp (test code only)"
	check '^periph.io/x/host' '^cmd/hwbridge$' "periph host (the bridge only)"
	check '^periph.io/x/(conn|devices)' '^(drivers|cmd/hwbridge)(/|$)' "periph (the rig's drivers and daemon only: hwapi and rig stay periph-free so mark1 can use them)"
	check '^github.com/mark1-perceptron/mark1/drivers(/|$)' '^(drivers|cmd/hwbridge)(/|$)' "the rig's drivers (the daemon's)"
	check '^gonum.org/' '^(lab(/|$)|cmd/mark1$)' "gonum (the lab only)"
	case "$rel" in
	retina | patchboard | potentiometer | machine | machine/* | images | knob | internal/*)
		bad=$(tr ' ' '\n' <<<"$deps" | grep -E '^golang.org/x/image/font|^'"$mod"'/(images/(builtin|gen)|session|view|museum(/.*)?)$' || true)
		if [ -n "$bad" ]; then
			echo "check-imports: $pkg (the core) must not carry the built-in sets, their fonts or the museum: $(tr '\n' ' ' <<<"$bad")" >&2
			fail=1
		fi
		;;
	esac
done < <(go list -f '{{.ImportPath}} {{join .Deps " "}}' ./...)
[ $fail -eq 0 ] && echo "check-imports: ok"
exit $fail
