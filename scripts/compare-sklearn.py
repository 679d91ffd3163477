#!/usr/bin/python3
"""compare-sklearn.py: mark1's speed and accuracy beside scikit-learn's Perceptron, in one run.

Usage: scripts/compare-sklearn.py [--mark1 PATH] [--seconds S] [--json] speed
       scripts/compare-sklearn.py [--mark1 PATH] [--json] accuracy [--state FILE] TRAIN TEST
       (TRAIN and TEST are data specs, e.g. idx:IMAGES,LABELS or a folder)

speed: the full-size machine (400 S, 512 A, 8 R, alpha rule) trains on the built-in letters with
a distinct 8-bit code per letter (mark1 bench), and scikit-learn fits 8 binary Perceptrons (one
per R-unit, MultiOutputClassifier) on the same letters' 512 A-unit features, precomputed with
mark1 features, for the same codes. Both on one core; time per presentation (one card shown to
all 8 R-units) is compared.

accuracy: mark1 trains ideal and analog machines (--r-units 10 --coding onehot, every other
option at its default) and scikit-learn's Perceptron (default options) fits the ideal machine's
A-unit features of the same cards; the test accuracies are printed side by side. With --state
FILE, mark1 trains nothing: scikit-learn fits the features of that saved (ideal) machine.

--json prints one JSON object instead (go run ./internal/tools/figures reads it).

Needs Debian's python3-sklearn (apt-get install python3-sklearn, or bash scripts/need.sh
python3-sklearn); nothing from PyPI.
"""
import argparse, csv, io, json, os, subprocess, sys, tempfile, time

import numpy as np
import sklearn
from sklearn.linear_model import Perceptron
from sklearn.multioutput import MultiOutputClassifier

os.environ.setdefault("OMP_NUM_THREADS", "1")


def run(mark1, *args):
    return subprocess.run([mark1, *args], check=True, capture_output=True, text=True).stdout


def features(mark1, state, data):
    rows = list(csv.reader(io.StringIO(run(mark1, "features", "--state", state, "--data", data))))
    y = np.array([r[0] for r in rows[1:]])
    X = np.array([[int(v) for v in r[1:]] for r in rows[1:]], dtype=np.float64)
    return X, y


def codes(k):
    # mark1 bench's codes: class c gets the 8 bits of (c*37 + 11) & 255
    return np.array([[((c * 37 + 11) & 255) >> u & 1 for u in range(8)] for c in range(k)])


def speed(a):
    with tempfile.TemporaryDirectory() as d:
        state = os.path.join(d, "l.state")
        run(a.mark1, "train", "--data", "builtin:letters", "--ideal", "--epochs", "1", "--save", state)
        X, labels = features(a.mark1, state, "builtin:letters")
    classes = sorted(set(labels))
    Y = codes(len(classes))[[classes.index(l) for l in labels]]
    # scikit-learn: as many epochs as fit in the time, one fit of E epochs
    epochs, elapsed = 1, 0.0
    while elapsed < a.seconds / 4:
        epochs *= 2
        clf = MultiOutputClassifier(Perceptron(max_iter=epochs, tol=None, shuffle=True, random_state=0), n_jobs=None)
        t0 = time.perf_counter()
        clf.fit(X, Y)
        elapsed = time.perf_counter() - t0
    sk = elapsed / (epochs * len(X))
    bench = json.loads(run(a.mark1, "bench", "--json", "--seconds", str(a.seconds)))
    ideal = 1 / bench["ideal"]["presentations_per_s"]
    analog = 1 / bench["analog"]["presentations_per_s"]
    if a.json:
        print(json.dumps({"sklearn_version": sklearn.__version__, "presentations": len(X), "epochs": epochs,
                          "sklearn_ns": sk * 1e9, "ideal_ns": ideal * 1e9, "analog_ns": analog * 1e9,
                          "a_units": bench["a_units"], "r_units": bench["r_units"]}))
        return
    print(f"per presentation (400 S, {bench['a_units']} A, {bench['r_units']} R, letters, one core):")
    print(f"  scikit-learn {sklearn.__version__} Perceptron x8 on precomputed features: {sk*1e9:8.0f} ns ({epochs} epochs of {len(X)})")
    print(f"  mark1 ideal, features included:                     {ideal*1e9:8.0f} ns  ({sk/ideal:.2f}x faster than scikit-learn)")
    print(f"  mark1 analog, every flaw on:                        {analog*1e9:8.0f} ns  ({ideal/analog:.2f} of the ideal's speed)")


def accuracy(a):
    with tempfile.TemporaryDirectory() as d:
        res = {}
        state = a.state
        if state is None:
            for mode in ("ideal", "analog"):
                st = os.path.join(d, mode + ".state")
                args = ["train", "--data", a.train, "--test", a.test, "--r-units", "10", "--coding", "onehot", "--save", st, "--json"]
                if mode == "ideal":
                    args.append("--ideal")
                res[mode] = json.loads(run(a.mark1, *args))
            state = os.path.join(d, "ideal.state")
        Xtr, ytr = features(a.mark1, state, a.train)
        Xte, yte = features(a.mark1, state, a.test)
    clf = Perceptron(random_state=0).fit(Xtr, ytr)
    sk = {"sklearn_version": sklearn.__version__, "epochs": int(clf.n_iter_),
          "train": {"cards": len(ytr), "correct": int((clf.predict(Xtr) == ytr).sum())},
          "test": {"cards": len(yte), "correct": int((clf.predict(Xte) == yte).sum())}}
    if a.json:
        print(json.dumps({"mark1": res, "sklearn": sk}))
        return
    for mode, rep in res.items():
        e = rep["epochs"]
        print(f"mark1 {mode:6s}: test {100*rep['test']['accuracy']:.1f}%  train {100*rep['train']['accuracy']:.1f}%  ({len(e)} epochs, order {rep['machine']['order']}, polarity {rep['machine']['polarity']}: {rep['figures']})")
    print(f"scikit-learn {sklearn.__version__} Perceptron on the ideal machine's features: test {100*clf.score(Xte, yte):.1f}%  train {100*clf.score(Xtr, ytr):.1f}%  ({clf.n_iter_} epochs)")


p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--mark1", default="mark1")
p.add_argument("--seconds", type=float, default=4)
p.add_argument("--json", action="store_true", help="print one JSON object")
sub = p.add_subparsers(dest="cmd", required=True)
sub.add_parser("speed")
acc = sub.add_parser("accuracy")
acc.add_argument("--state", help="a saved ideal machine whose features scikit-learn fits (mark1 trains nothing)")
acc.add_argument("train")
acc.add_argument("test")
a = p.parse_args()
{"speed": speed, "accuracy": accuracy}[a.cmd](a)
