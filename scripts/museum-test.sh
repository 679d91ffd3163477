#!/usr/bin/env bash
# museum-test.sh: the museum's tests that need a display or a browser, for make test.
#  - installs what the window needs to build and run headless (X and GL headers, Xvfb, xauth,
#    Chromium), saying so, with scripts/need.sh;
#  - checks the cross-builds: the browser build (GOOS=js GOARCH=wasm), mark1 without cgo, and
#    that mark1 does not depend on ebiten;
#  - vets the window's tagged test files;
#  - runs the window's tests (-tags museumwindow: package museum and the real mark1-museum
#    binary: screenshots checked for what they show, resume, --experiment on a resumed museum,
#    SIGTERM, no display, -h with and without one, frame rate while training at full speed, no
#    XGB lines under a bare Xvfb of the test's own; the camera: a recorded Y4M of an E shown
#    with the S key, typed by xdotool; a rig: --bridge to hwbridge --simulate, a mirror and a
#    loop, trained 30 s, the bridge killed and restarted, halted, a chip faulty) under xvfb-run;
#  - builds the browser version and loads it in headless Chromium: cmd/mark1 TestBrowser, and
#    cmd/mark1-museum TestBrowserCamera (a fake camera playing an E drawn in the test and made
#    a Y4M by ffmpeg; S typed through the DevTools protocol; the retina and the answer read
#    from the page);
#  - runs view's goldens and its readings of what the visitor sees compiled for arm64 under
#    qemu (go test -exec qemu-aarch64-static; installs qemu-user-static): there the goldens hold within the tolerance TestGolden
#    states, measured so (go test ./view, run by make test, holds them exactly on amd64 and
#    leaves out each of the scene's draw steps in turn: TestEachDrawStepIsSeen);
#  - runs the soak test for MARK1_SOAK (default 30s), and the rig's soak (the exhibit with
#    hwbridge --simulate faulted again and again) for MARK1_SOAK_RIG (default 45s).
# Without the tag, "go test ./..." has no window tests and never links ebiten's GLFW.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
bash scripts/need.sh gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev \
	libxrandr-dev libxxf86vm-dev libasound2-dev xvfb xauth chromium xdotool ffmpeg

echo "museum-test: cross-builds"
GOOS=js GOARCH=wasm "$go" build -o /dev/null ./cmd/mark1-museum
CGO_ENABLED=0 "$go" build -o /dev/null ./cmd/mark1
if "$go" list -deps ./cmd/mark1 | grep -q '^github.com/hajimehoshi/ebiten'; then
	echo "museum-test: cmd/mark1 depends on ebiten" >&2
	exit 1
fi
"$go" vet -tags museumwindow ./museum/ ./cmd/mark1-museum/

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash scripts/web-build.sh "$tmp/web" >/dev/null

echo "museum-test: the window under Xvfb, and the browser's camera in headless Chromium"
MARK1_BROWSER_TEST=1 MARK1_WEB_DIR="$tmp/web" xvfb-run -a -s "-screen 0 1920x1080x24" \
	"$go" test -count=1 -tags museumwindow ./museum/ ./cmd/mark1-museum/

echo "museum-test: the browser version in headless Chromium"
MARK1_BROWSER_TEST=1 MARK1_WEB_DIR="$tmp/web" "$go" test -count=1 -run '^(TestBrowser|TestWireBudget)$' ./cmd/mark1/

echo "museum-test: view's goldens and readings on arm64 under qemu"
command -v qemu-aarch64-static >/dev/null || command -v qemu-aarch64 >/dev/null || bash scripts/need.sh qemu-user-static
GOARCH=arm64 CGO_ENABLED=0 "$go" test -count=1 -exec "$(command -v qemu-aarch64-static || command -v qemu-aarch64)" \
	-run '^(TestGolden|TestWhatTheVisitorSees)$' ./view/

echo "museum-test: soak for ${MARK1_SOAK:=30s}"
MARK1_SOAK=$MARK1_SOAK "$go" test -count=1 -run '^TestSoak$' -v ./museum/console/ | grep -E 'soak:|^(ok|FAIL|---)'

echo "museum-test: the rig's soak for ${MARK1_SOAK_RIG:=45s}"
MARK1_SOAK_RIG=$MARK1_SOAK_RIG "$go" test -count=1 -run '^TestSoakRig$' -v ./museum/riglink/ | grep -E 'soak |^(ok|FAIL|---)'
