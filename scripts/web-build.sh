#!/usr/bin/env bash
# web-build.sh [OUTDIR]: the browser build (make web), into OUTDIR (default web/dist):
#   OUTDIR/            the museum: mark1-museum compiled for GOOS=js GOARCH=wasm, the Go
#                      toolchain's own wasm_exec.js (copied from the toolchain that compiled it,
#                      never committed: the two must match) and web/index.html;
#   OUTDIR/lab/        the lab: ./cmd/mark1-lab compiled the same way into mark1-lab.wasm, with
#                      wasm_exec.js and the page, web/lab/ (its files but testdata/, Go files,
#                      Markdown and dotfiles); skipped, saying so, while ./cmd/mark1-lab or
#                      web/lab is missing from this tree;
# then, by internal/tools/precompress, a .br (brotli, quality 11) and a .gz (gzip -9) beside each
# file worth it, and SHA256SUMS, the list of the build's files that mark1 web serves. Only
# relative links: the folder works from any static web server, and offline.
# Serve it with: mark1 web --dir OUTDIR (the museum at /, the lab at /lab/).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-web/dist}
go=${GO:-go}
root=$("$go" env GOROOT)
js="$root/lib/wasm/wasm_exec.js"
[ -f "$js" ] || js="$root/misc/wasm/wasm_exec.js" # Go before 1.24
[ -f "$js" ] || { echo "web-build: no wasm_exec.js in $root/lib/wasm or $root/misc/wasm" >&2; exit 1; }
ldflags='-s -w'

# wasm CMD FILE: ./cmd/CMD for the browser into FILE (through a temporary file beside it).
wasm() {
	local tmp
	tmp="$(dirname "$2")/.$(basename "$2").tmp"
	# -trimpath and -buildvcs=false: the same WebAssembly from any folder, a checkout or a copy
	# (precompress's cache then serves a build made elsewhere).
	GOOS=js GOARCH=wasm "$go" build -trimpath -buildvcs=false -ldflags="$ldflags" -o "$tmp" "./cmd/$1"
	mv "$tmp" "$2"
}

# The museum.
mkdir -p "$out"
wasm mark1-museum "$out/mark1-museum.wasm"
cp "$js" "$out/wasm_exec.js"
cp web/index.html "$out/index.html"
echo "web-build: the museum: $out/mark1-museum.wasm, $(du -h "$out/mark1-museum.wasm" | cut -f1)"

# The lab.
lab=$out/lab
if ! compgen -G "cmd/mark1-lab/*.go" >/dev/null; then
	echo "web-build: no ./cmd/mark1-lab in this tree yet: the lab is not built (the museum is)"
	rm -rf "$lab"
elif [ ! -f web/lab/index.html ]; then
	echo "web-build: no web/lab/index.html in this tree yet: the lab is not built (the museum is)"
	rm -rf "$lab"
else
	mkdir -p "$lab"
	wasm mark1-lab "$lab/mark1-lab.wasm"
	cp "$js" "$lab/wasm_exec.js"
	keep=("$lab/mark1-lab.wasm" "$lab/wasm_exec.js")
	while IFS= read -r -d '' f; do
		install -D -m 644 "web/lab/$f" "$lab/$f"
		keep+=("$lab/$f")
	done < <(cd web/lab && find . -type f ! -path './testdata/*' ! -path '*/.*' ! -name '*.go' ! -name '*.md' -printf '%P\0')
	# Files of an earlier build no longer in the page (their .br and .gz go with them below).
	while IFS= read -r -d '' f; do
		case $f in *.br | *.gz) continue ;; esac
		printf '%s\n' "${keep[@]}" | grep -qxF "$f" || rm -f "$f"
	done < <(find "$lab" -type f ! -path '*/.*' -print0)
	find "$lab" -mindepth 1 -type d -empty -delete
	echo "web-build: the lab: $lab/mark1-lab.wasm, $(du -h "$lab/mark1-lab.wasm" | cut -f1), and $((${#keep[@]} - 2)) files of web/lab"
fi

echo "web-build: compressing (brotli at quality 11 takes about a minute for each changed WebAssembly file)"
"$go" run ./internal/tools/precompress "$out"
echo "web-build: serve it with: mark1 web --dir $out (the museum at /, the lab at /lab/)"
