#!/usr/bin/env bash
# web-build.sh [OUTDIR]: build the museum for the browser into OUTDIR (default web/dist):
# mark1-museum compiled for GOOS=js GOARCH=wasm, the Go toolchain's own wasm_exec.js (copied
# from the toolchain that compiled it, never committed: the two must match) and web/index.html.
# Serve it with: mark1 web --dir OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-web/dist}
go=${GO:-go}
root=$("$go" env GOROOT)
js="$root/lib/wasm/wasm_exec.js"
[ -f "$js" ] || js="$root/misc/wasm/wasm_exec.js" # Go before 1.24
[ -f "$js" ] || { echo "web-build: no wasm_exec.js in $root/lib/wasm or $root/misc/wasm" >&2; exit 1; }
mkdir -p "$out"
GOOS=js GOARCH=wasm "$go" build -trimpath -ldflags=-s -o "$out/.mark1-museum.wasm.tmp" ./cmd/mark1-museum
mv "$out/.mark1-museum.wasm.tmp" "$out/mark1-museum.wasm"
cp "$js" "$out/wasm_exec.js"
cp web/index.html "$out/index.html"
echo "web-build: $out: $(du -h "$out/mark1-museum.wasm" | cut -f1) of WebAssembly; serve it with: mark1 web --dir $out"
