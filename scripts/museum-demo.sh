#!/usr/bin/env bash
# museum-demo.sh [FLAGS]: make demo. With a display, build mark1 and mark1-museum side by side
# (into ${XDG_CACHE_HOME:-~/.cache}/mark1/bin, installing the X and GL headers the window
# needs with scripts/need.sh) and open the museum's window with "mark1 museum FLAGS". Without a
# display, or when the window cannot be built, run the terminal demo (mark1 demo), saying why.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
terminal() {
	echo "mark1: $1; running the terminal demo (mark1 demo) instead" >&2
	exec "$go" run ./cmd/mark1 demo
}
[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || terminal "no display (\$DISPLAY and \$WAYLAND_DISPLAY are unset)"
if [ "$(uname -s)" = Linux ] && command -v dpkg-query >/dev/null; then
	bash scripts/need.sh gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev \
		libxrandr-dev libxxf86vm-dev || terminal "could not install the window's build dependencies"
fi
bin="${XDG_CACHE_HOME:-$HOME/.cache}/mark1/bin"
mkdir -p "$bin"
"$go" build -o "$bin/mark1" ./cmd/mark1
if ! CGO_ENABLED=1 "$go" build -o "$bin/mark1-museum" ./cmd/mark1-museum; then
	terminal "the window (mark1-museum) did not build"
fi
echo "mark1: opening the museum (Ctrl+Q or closing the window ends it; $bin holds mark1 and mark1-museum)" >&2
exec "$bin/mark1" museum "$@"
