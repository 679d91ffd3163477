#!/usr/bin/env bash
# lab-page-test.sh: the browser lab's page (web/lab) in headless Chromium, for make test. The
# test (go test ./web/lab with MARK1_BROWSER_TEST=1) builds the lab's WebAssembly
# (GOOS=js GOARCH=wasm ./cmd/mark1-lab) and mark1, serves the page on loopback, and holds
# what it shows to what mark1 prints for the same flags: the issue's link to the notes' one
# step (its trace table row for row, with +1 written four ways), a click and keys adding and
# removing points, each demonstration's link and a change of its form (mark1 lab regions,
# loss, masking, boolean, fisher-lsq), the Mark I's retina, four languages, projector mode,
# Tab, and a lab that fails to start. MARK1_LAB_DIR=DIR tests a built folder instead (make
# web's web/dist/lab). Installs chromium with scripts/need.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
bash scripts/need.sh chromium
MARK1_BROWSER_TEST=1 "$go" test -count=1 ./internal/devtools/ ./web/lab/
