#!/usr/bin/env bash
# museum-demo.sh [--install-only] [FLAGS]: make demo. Builds mark1 and hwbridge, and with a
# display mark1-museum too (installing the X and GL headers the window needs with
# scripts/need.sh), and installs them into ~/.local/bin, where a user's shell finds them (the
# script says the line to add to ~/.profile when that folder is not on $PATH). Then, with a
# display, it opens the museum's window with "mark1 museum FLAGS"; without one, or when the
# window does not build, it runs the terminal demo (mark1 demo), saying why.
# --install-only installs and stops there.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
install_only=0
if [ "${1:-}" = --install-only ]; then
	install_only=1
	shift
fi
bin="$HOME/.local/bin"
# shellcheck disable=SC2088 # the folder as the user writes it
shown='~/.local/bin'
mkdir -p "$bin"

# put NAME PACKAGE [ENV...]: build into the folder, then move into place (a program that is
# running is replaced, not overwritten).
put() {
	local name=$1 pkg=$2
	shift 2
	env "$@" "$go" build -o "$bin/.$name.new" "$pkg" && mv -f "$bin/.$name.new" "$bin/$name"
}

put mark1 ./cmd/mark1
put hwbridge ./cmd/hwbridge
installed="mark1 and hwbridge"
window=""
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
	window="no display (\$DISPLAY and \$WAYLAND_DISPLAY are unset)"
elif [ "$(uname -s)" = Linux ] && command -v dpkg-query >/dev/null &&
	! bash scripts/need.sh gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev \
		libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev; then
	window="could not install the window's build dependencies"
elif ! put mark1-museum ./cmd/mark1-museum CGO_ENABLED=1; then
	rm -f "$bin/.mark1-museum.new"
	window="the window (mark1-museum) did not build"
else
	installed="mark1, mark1-museum and hwbridge"
fi
echo "mark1: installed $installed in $shown" >&2
case ":$PATH:" in
*":$bin:"*) ;;
*)
	echo "mark1: $shown is not on your \$PATH, so your shell does not find them there yet: add this line to ~/.profile and log in again (or run it in this shell now):" >&2
	# shellcheck disable=SC2016 # the line to copy, as written in ~/.profile
	echo '    export PATH="$HOME/.local/bin:$PATH"' >&2
	;;
esac
if [ $install_only = 1 ]; then
	[ -z "$window" ] || echo "mark1: mark1-museum not installed: $window" >&2
	exit 0
fi
if [ -n "$window" ]; then
	echo "mark1: $window; running the terminal demo (mark1 demo) instead" >&2
	exec "$bin/mark1" demo
fi
echo "mark1: opening the museum (Ctrl+Q or closing the window ends it)" >&2
exec "$bin/mark1" museum "$@"
