# mark1: the two commands of the README are `make demo` and `make test`; `make help` lists every
# target and what it installs. Each target installs what it misses and says so: Go tools with go
# install, Debian packages with apt-get through scripts/need.sh (sudo when not root):
#
#   demo         mark1, hwbridge and mark1-museum into ~/.local/bin; with a display, gcc and the
#                X, GL and ALSA headers (museum-deps)
#   test         everything its steps below install: staticcheck, museum-deps, qemu-user-static,
#                xvfb, xauth, xdotool, chromium, ffmpeg, pngquant, optipng, adduser, curl, zip
#                and lintian, and the X and GL libraries dist-test runs the window with
#   build, vet,  museum-deps
#   fuzz
#   staticcheck  staticcheck (go install), museum-deps
#   race         gcc, libc6-dev
#   arm64        qemu-user-static
#   museum-test  museum-deps, xvfb, xauth, chromium, xdotool, ffmpeg, qemu-user-static
#   lab-test,    chromium
#   lab-timing
#   rig          chromium
#   web-size     chromium
#   dist         lintian, zip; the arm64 and armhf cross C compilers and X, GL and ALSA headers
#   dist-test    adduser, curl, lintian, zip, xvfb, xauth and the window's X and GL libraries
#   docs-test    museum-deps, xvfb, xauth, xdotool; its blocks, as the docs say: ffmpeg,
#                pngquant, optipng (and the window's libraries through make demo)
#   figures      python3-sklearn
#   the rest     nothing
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
# Every test run and check of make test is counted (internal/tools/testtally), each with its
# time; its summary lists the steps and their times, and its last line says how many passed
# and failed. Recipes run in bash with pipefail, so a pipe fails with go test.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c
TALLY       = $(GO) run ./internal/tools/testtally
export MARK1_TALLY ?= $(CURDIR)/.tally

.PHONY: all help demo test vet fmt-check tidy-check lint staticcheck fma-check imports race purego arm64 bench fuzz build \
	clean museum-deps museum-test lab-test lab-timing web web-size rig dist dist-test docs-test figures

## build: every package and command compiled (installs museum-deps).
all: build

build: museum-deps
	$(GO) build ./...

## help: what each target does and installs (the list at the top, then these comments).
help:
	@awk '/^[^#]/ { exit } { sub(/^# ?/, ""); print }' Makefile
	@awk '/^## [a-z0-9-]+:/ { sub(/^## /, ""); print; next } /^## / { sub(/^##/, "   "); print }' Makefile

## demo: mark1, hwbridge and (with a display) mark1-museum installed in ~/.local/bin (the line
## for ~/.profile printed when it is not on $PATH), then the museum's window when there is a
## display, else training on the built-in letters in the terminal (fits 80x24). Installs, with
## a display, gcc and the X, GL and ALSA headers (museum-deps).
demo:
	@bash scripts/museum-demo.sh

## test: formatting, vet, staticcheck, go.mod tidy, no fused multiply-add, import rules, every
## test, the concurrent readers under the race detector, the Go loops of the AVX2 kernels, the
## golden digests on arm64, the museum's window under Xvfb and browser build in headless
## Chromium, the rig on simulated chips, the Debian packages, and every shell block of the docs;
## then each step's time and the count. Installs what its steps install (the list at the top).
test: museum-deps
	@$(TALLY) reset
	@for t in fmt-check vet staticcheck tidy-check fma-check imports; do \
		$(TALLY) check $$t -- $(MAKE) --no-print-directory $$t || exit 1; \
	done
	$(GO) test -count=1 -json ./... | $(TALLY) go 'go test ./...'
	$(MAKE) --no-print-directory race
	$(MAKE) --no-print-directory purego
	$(MAKE) --no-print-directory arm64
	@for t in museum-test lab-test rig dist-test docs-test; do \
		$(TALLY) check $$t -- $(MAKE) --no-print-directory $$t || exit 1; \
	done
	@$(TALLY) summary

## museum-deps: the C compiler and the X, GL and ALSA headers the window (ebiten) needs to be
## compiled (by vet, staticcheck and build). Installs gcc, libc6-dev, pkg-config and the -dev
## packages of GL, Xcursor, Xi, Xinerama, Xrandr, Xxf86vm and ALSA.
museum-deps:
	@bash scripts/need.sh gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev \
		libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev

## museum-test: the window's tests under Xvfb, the browser build in headless Chromium, the
## cross-builds, view's goldens on arm64 under qemu, a 30 s soak (installs museum-deps, xvfb,
## xauth, chromium, xdotool, ffmpeg, qemu-user-static).
museum-test:
	@bash scripts/museum-test.sh

## lab-test: the browser lab's page (web/lab) in headless Chromium, built from the tree (the
## lab's WebAssembly and mark1) and held to what mark1 prints for the same flags
## (scripts/lab-page-test.sh; installs chromium).
lab-test:
	@bash scripts/lab-page-test.sh

## lab-timing: the browser lab's step and epoch on 1,000 points in headless Chromium, timed
## (web/lab TestStepTiming: the lab's call and the page's drawing; installs chromium).
lab-timing:
	@bash scripts/need.sh chromium
	MARK1_BROWSER_TEST=1 MARK1_LAB_TIMING=1 $(GO) test -count=1 -v -run '^TestStepTiming$$' ./web/lab/ | grep -E 'lab-timing|FAIL|^ok'

## rig: hwbridge cross-compiled for the Pi, the rig run end to end on simulated chips, and a web
## page in headless Chromium that must not move a pot (installs chromium).
rig:
	@bash scripts/rig-test.sh

## dist: release archives and Debian packages (mark1, hwbridge, mark1-museum) for amd64, arm64
## and armhf in dist/, checked by lintian, and mark1's archives for macOS (tar.gz) and Windows
## (zip) on amd64 and arm64, with SHA256SUMS (scripts/dist.sh: versions, cross-builds). Installs
## lintian and zip, and for mark1-museum's cross-builds the arm64 and armhf C compilers and
## headers (adding the architectures to dpkg).
dist:
	@bash scripts/dist.sh --lint

## dist-test: this machine's packages built, installed, used, removed and purged, and its
## archives for every system checked (internal/tools/distcheck) (needs root or sudo; installs
## adduser, curl, lintian, zip, xvfb, xauth and the window's X and GL libraries).
dist-test:
	@bash scripts/dist-test.sh

## docs-test: every shell block of README.md and docs/ run as pasted, in a fresh copy of the
## repository with a fresh home, the files side by side, on free ports (scripts/docs-test.sh;
## installs museum-deps, xvfb, xauth, xdotool; the blocks install what the docs say: ffmpeg,
## pngquant, optipng).
docs-test:
	@bash scripts/docs-test.sh

## web: the browser build in web/dist: the museum at its top, the lab in lab/ (while
## ./cmd/mark1-lab exists), each file worth it precompressed beside it (.br, .gz) and the list
## SHA256SUMS (scripts/web-build.sh; mark1 web serves it, as can any static server). Installs
## nothing.
web:
	@bash scripts/web-build.sh

## web-size: make web, then the bytes each page (the museum, the lab) sends as mark1 web serves
## it (plain, gzip, br) and, in headless Chromium, the bytes received and the time to the first
## frame (TestWebSize in cmd/mark1). Installs chromium.
web-size: web
	@bash scripts/need.sh chromium
	MARK1_WEB_SIZE=1 $(GO) test -count=1 -v -run '^TestWebSize$$' ./cmd/mark1 | grep -v '^\(=== RUN\|--- PASS\|PASS\|ok \)'

## fmt-check: gofmt has nothing to change. Installs nothing.
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## vet: go vet, and of the packages with AVX2 kernels for arm64 and 386 too (their Go loops'
## build lines) (installs museum-deps: it compiles the window).
vet: museum-deps
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./potentiometer ./retina ./machine
	GOARCH=386 $(GO) vet ./potentiometer ./retina

## tidy-check: go.mod and go.sum are tidy. Installs nothing.
tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

$(STATICCHECK):
	@echo "mark1: installing staticcheck $(STATICCHECK_VERSION) with go install"
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

## staticcheck: staticcheck on every package (installs staticcheck with go install, and
## museum-deps: it compiles the window).
staticcheck: $(STATICCHECK) museum-deps
	$(STATICCHECK) ./...

## fma-check: no fused multiply-add in the shipped code compiled for arm64. Installs nothing.
fma-check:
	@bash scripts/check-fma.sh

## imports: the dependency rules the layers alone do not say (TestImportRules in
## docs/design_test.go, on go list -deps: ebiten only in the window, periph only in drivers/
## and cmd/hwbridge, gonum only in the lab and mark1, a core without fonts or the museum).
## Installs nothing.
imports:
	$(GO) test -count=1 -run '^TestImportRules$$' ./docs

## race: the machine's readers on other goroutines, under the race detector (needs cgo). The
## soak is left out: a race build draws a frame ten times slower, too slow to measure it.
## Installs gcc and libc6-dev.
race:
	@bash scripts/need.sh gcc libc6-dev
	CGO_ENABLED=1 $(GO) test -count=1 -race -json -run 'Snapshot|Resume|Interrupt|Frames|Commands|Concurrent|Watchdog|Mirror|Serve|Headless|Loop|ReadersDoNotWrite' \
		./machine ./cmd/mark1 ./session ./museum/console ./museum/riglink ./drivers/rigdev ./hwapi ./cmd/hwbridge ./retina ./images/builtin | $(TALLY) go race

## purego: the packages with AVX2 kernels tested with their Go loops instead (-tags purego), as
## every processor but amd64 runs them: the goldens and the property tests; then tested again
## built as usual on a processor whose AVX2 GODEBUG=cpu.avx2=off hides, as on an amd64 without
## it (TestKernelPath asserts that no AVX2 kernel ran). Installs nothing.
purego:
	$(GO) test -count=1 -tags purego -json ./potentiometer ./retina ./machine | $(TALLY) go purego
	GODEBUG=cpu.avx2=off $(GO) test -count=1 -json ./potentiometer ./retina ./machine | $(TALLY) go noavx2

## arm64: the golden digests compiled for arm64 and run under qemu: go test -exec runs each
## package's test binary with qemu-aarch64-static from the package's directory, as go test
## runs any test (installs qemu-user-static when qemu-aarch64-static is missing).
arm64:
	@$(NEED_QEMU)
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -count=1 -exec "$(QEMU_ARM64)" -run 'Golden|Determinism' -json \
		$(ARM64_TESTS) | $(TALLY) go arm64

## figures: run the commands behind README.md's "Measured figures" and write docs/figures/
## (accuracy.json: seeded, the same on every run; state.json and speed.json: measured, dated);
## FIGURES=accuracy (or state, speed) runs one part. Installs python3-sklearn. A test holds
## README.md to these files (internal/tools/figures).
FIGURES ?= accuracy,state,speed
figures:
	@bash scripts/need.sh python3-sklearn
	$(GO) run ./internal/tools/figures -only $(FIGURES)

## bench: the hot-loop benchmarks with allocation counts, then mark1 bench. Installs nothing.
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

## clean: go clean.
clean:
	$(GO) clean ./...
