#!/usr/bin/env bash
# install.sh: the independent drivers the peer tests run (drivers/i2csim/peers), at pinned
# versions, into a cache outside the repository ($MARK1_PEER_DIR, default ~/.cache/mark1/npm),
# with node and npm from Debian when they are missing. npm runs with --ignore-scripts: nothing
# is built (the real i2c-bus's native part is never compiled; our stand-in replaces it).
# Prints what it installs; prints nothing when everything is already there. Fails when it
# cannot install.
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=${MARK1_PEER_DIR:-$HOME/.cache/mark1/npm}
# Keep in step with Pinned in run.go (TestPinnedVersions checks).
pins=(pca9685@5.0.0 ads1x15@1.2.0 node-mcp23017@0.1.0)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	bash scripts/need.sh nodejs npm
fi
command -v node >/dev/null || { echo "peers: node is not installed" >&2; exit 1; }
command -v npm >/dev/null || { echo "peers: npm is not installed" >&2; exit 1; }
have() { # have NAME VERSION: the package is installed at that version
	grep -q "\"version\": \"$2\"" "$dir/node_modules/$1/package.json" 2>/dev/null
}
missing=()
for p in "${pins[@]}"; do
	have "${p%@*}" "${p##*@}" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "peers: installing ${pins[*]} into $dir (npm install --ignore-scripts)" >&2
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name": "mark1-peer-drivers", "private": true}' >"$dir/package.json"
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --save-exact "${pins[@]}" >&2)
for p in "${pins[@]}"; do
	have "${p%@*}" "${p##*@}" || { echo "peers: $p did not install into $dir" >&2; exit 1; }
done
