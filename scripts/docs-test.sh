#!/usr/bin/env bash
# docs-test.sh: every ```sh block of README.md and docs/ runs as a newcomer pastes it
# (docs/docs_test.go, TestDocsRunAsPasted): in a fresh copy of the repository, with a fresh home
# whose ~/.local/bin holds what make demo installs, each block in order, under Xvfb where its
# docs-test comment says it opens a window. It prints each block's result and the blocks it did
# not run, and why (a Raspberry Pi, a change to the system). Installs xvfb and xauth, and the
# window's build dependencies (as make demo would).
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
bash scripts/need.sh xvfb xauth gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev \
	libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev
exec env MARK1_DOCS_TEST=1 "$go" test -count=1 -timeout 60m -run '^TestDocsRunAsPasted$' -v ./docs/
