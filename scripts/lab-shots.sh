#!/usr/bin/env bash
# lab-shots.sh [DIR]: the browser lab's screenshots of docs/lab/README.md ("In the browser"),
# each panel opened from a link in headless Chromium (go test ./web/lab -run TestScreenshots),
# written to DIR (default docs/images) as lab-*.png and made small with pngquant and optipng.
# Installs what it needs with scripts/need.sh. Look at every picture after.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
out=$(realpath "${1:-docs/images}")
bash scripts/need.sh chromium pngquant optipng
mkdir -p "$out"
MARK1_BROWSER_TEST=1 MARK1_LAB_SHOTS="$out" "$go" test -count=1 -run '^TestScreenshots$' ./web/lab/
for f in "$out"/lab-*.png; do
	pngquant --force --skip-if-larger --output "$f" -- "$f" || true
	optipng -quiet -o2 "$f"
done
ls -l "$out"/lab-*.png
