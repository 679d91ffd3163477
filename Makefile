# mark1: the two commands of the README are `make demo` and `make test`.
GO          ?= go
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
STATICCHECK_VERSION := v0.8.2
FUZZTIME    ?= 20000x
# Packages whose results must be the same bit for bit on amd64 and arm64, and the tests that
# prove it (golden digests), run compiled for arm64 under qemu.
ARM64_TESTS := ./internal/detmath ./potentiometer ./retina ./machine ./images/gen ./images/builtin
# qemu-aarch64-static runs arm64 test binaries (go test -exec); newer Debian releases may call
# it qemu-aarch64. NEED_QEMU installs Debian's qemu-user-static when neither is there.
QEMU_ARM64  = $$(command -v qemu-aarch64-static || command -v qemu-aarch64)
NEED_QEMU   = command -v qemu-aarch64-static >/dev/null || command -v qemu-aarch64 >/dev/null || \
	bash scripts/need.sh qemu-user-static
# Every test run and check of make test is counted (internal/tools/testtally); its last line
# says how many passed and failed. Recipes run in bash with pipefail, so a pipe fails with
# go test.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c
TALLY       = $(GO) run ./internal/tools/testtally
export MARK1_TALLY ?= $(CURDIR)/.tally

.PHONY: all demo test vet fmt-check tidy-check lint staticcheck fma-check imports race purego arm64 bench fuzz build clean \
	museum-deps museum-test web rig dist dist-test docs-test

all: build

build: museum-deps
	$(GO) build ./...

## demo: mark1, hwbridge and (with a display) mark1-museum installed in ~/.local/bin (the X
## and GL headers installed; the line for ~/.profile printed when it is not on $PATH), then the
## museum's window when there is a display, else train on built-in letters in the terminal
## (fits 80x24).
demo:
	@bash scripts/museum-demo.sh

## test: formatting, vet, staticcheck, go.mod tidy, no fused multiply-add, import rules, every
## test, the concurrent readers under the race detector, the golden digests on arm64, and the
## museum's window under Xvfb and browser build in headless Chromium.
test: museum-deps
	@$(TALLY) reset
	@for t in fmt-check vet staticcheck tidy-check fma-check imports; do \
		$(TALLY) check $$t -- $(MAKE) --no-print-directory $$t || exit 1; \
	done
	$(GO) test -count=1 -json ./... | $(TALLY) go
	$(MAKE) --no-print-directory race
	$(MAKE) --no-print-directory purego
	$(MAKE) --no-print-directory arm64
	@for t in museum-test rig dist-test docs-test; do \
		$(TALLY) check $$t -- $(MAKE) --no-print-directory $$t || exit 1; \
	done
	@$(TALLY) summary

## museum-deps: the C compiler and the X and GL headers the window (ebiten) needs to compile:
## vet, staticcheck and build compile it.
museum-deps:
	@bash scripts/need.sh gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev \
		libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev

## museum-test: the window's tests under Xvfb, the browser build in headless Chromium, the
## cross-builds, a 30 s soak (installs xvfb, xauth, chromium).
museum-test:
	@bash scripts/museum-test.sh

## rig: hwbridge cross-compiled for the Pi, the rig run end to end on simulated chips, and a web
## page in headless Chromium that must not move a pot (installs chromium).
rig:
	@bash scripts/rig-test.sh

## dist: release archives and Debian packages (mark1, hwbridge, mark1-museum) for amd64, arm64
## and armhf in dist/, checked by lintian (scripts/dist.sh: versions, cross-builds).
dist:
	@bash scripts/dist.sh --lint

## dist-test: this machine's packages built, installed, used, removed and purged (needs root or
## sudo; installs lintian, curl, xvfb).
dist-test:
	@bash scripts/dist-test.sh

## docs-test: every shell block of README.md and docs/ run as pasted, in a fresh copy of the
## repository with a fresh home (scripts/docs-test.sh; installs xvfb, xauth).
docs-test:
	@bash scripts/docs-test.sh

## web: the museum for the browser in web/dist (mark1 web serves it).
web:
	@bash scripts/web-build.sh

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

$(STATICCHECK):
	@echo "mark1: installing staticcheck $(STATICCHECK_VERSION) with go install"
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...

## fma-check: no fused multiply-add in the shipped code compiled for arm64.
fma-check:
	@bash scripts/check-fma.sh

## imports: the dependency rules the layers alone do not say (TestImportRules in
## docs/design_test.go, on go list -deps: ebiten only in the window, periph only in drivers/
## and cmd/hwbridge, gonum only in the lab and mark1, a core without fonts or the museum).
imports:
	$(GO) test -count=1 -run '^TestImportRules$$' ./docs

## race: the machine's readers on other goroutines, under the race detector (needs cgo). The
## soak is left out: a race build draws a frame ten times slower, too slow to measure it.
race:
	@bash scripts/need.sh gcc libc6-dev
	CGO_ENABLED=1 $(GO) test -count=1 -race -json -run 'Snapshot|Resume|Interrupt|Frames|Commands|Concurrent|Watchdog|Mirror|Serve|Headless|Loop|ReadersDoNotWrite' \
		./machine ./cmd/mark1 ./session ./museum/console ./drivers/rigdev ./hwapi ./cmd/hwbridge ./retina ./images/builtin | $(TALLY) go

## purego: the packages with AVX2 kernels tested with their Go loops instead (-tags purego), as
## every processor but amd64 runs them: the goldens and the property tests.
purego:
	$(GO) test -count=1 -tags purego -json ./potentiometer ./retina ./machine | $(TALLY) go

## arm64: the golden digests compiled for arm64 and run under qemu: go test -exec runs each
## package's test binary with qemu-aarch64-static from the package's directory, as go test
## runs any test (installs qemu-user-static when qemu-aarch64-static is missing).
arm64:
	@$(NEED_QEMU)
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -count=1 -exec "$(QEMU_ARM64)" -run 'Golden|Determinism' -json \
		$(ARM64_TESTS) | $(TALLY) go

## figures: run the commands behind README.md's "Measured figures" and write docs/figures/
## (accuracy.json: seeded, the same on every run; state.json and speed.json: measured, dated);
## FIGURES=accuracy (or state, speed) runs one part. Installs python3-sklearn. A test holds
## README.md to these files (internal/tools/figures).
FIGURES ?= accuracy,state,speed
figures:
	@bash scripts/need.sh python3-sklearn
	$(GO) run ./internal/tools/figures -only $(FIGURES)

## bench: the hot-loop benchmarks with allocation counts, then mark1 bench.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./retina/ ./patchboard/ ./potentiometer/ ./machine/
	$(GO) run ./cmd/mark1 bench

## fuzz: every fuzz target of the module, as go test -list '^Fuzz' ./... finds them (the parsers
## of the user's files and any target added), each for FUZZTIME (a count: time-boxed runs of
## FuzzReadStateBody stall in the toolchain); a run that ends in the Go toolchain's known
## "context deadline exceeded" race with no crasher is retried (scripts/fuzz.sh). Installs the
## window's build dependencies (museum-deps: listing builds every package's tests).
fuzz: museum-deps
	@bash scripts/fuzz.sh "$(FUZZTIME)"

clean:
	$(GO) clean ./...
