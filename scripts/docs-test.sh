#!/usr/bin/env bash
# docs-test.sh: every ```sh block of README.md and docs/ runs as a newcomer pastes it
# (docs/docs_test.go, TestDocsRunAsPasted): in a fresh copy of the repository, with a fresh home
# whose ~/.local/bin holds what make demo installs, each file's blocks in order and the files
# side by side (MARK1_DOCS_PARALLEL at once, default 4), under an Xvfb of their own where a
# docs-test comment says they open a window, on ports the test picked free. It prints each
# block's result and time, each file's time, and the blocks it did not run, and why (a
# Raspberry Pi, a change to the system). Installs xvfb, xauth and xdotool (which says when a
# window opens), and the window's build dependencies (as make demo would).
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
bash scripts/need.sh xvfb xauth xdotool gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev \
	libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev
exec env MARK1_DOCS_TEST=1 "$go" test -count=1 -timeout 60m -parallel "${MARK1_DOCS_PARALLEL:-4}" \
	-run '^TestDocsRunAsPasted$' -v ./docs/
