# mark1: the two commands of the README are `make demo` and `make test`.
GO          ?= go
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
STATICCHECK_VERSION := v0.8.2
FUZZTIME    ?= 20s

.PHONY: all demo test vet fmt-check lint staticcheck bench fuzz build clean

all: build

build:
	$(GO) build ./...

## demo: train on built-in letters and show the machine learning.
demo:
	$(GO) run ./cmd/mark1 demo

## test: formatting, vet, staticcheck, and every test (with the race detector off: 2 cores).
test: fmt-check vet staticcheck
	$(GO) test -count=1 ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

$(STATICCHECK):
	@echo "mark1: installing staticcheck $(STATICCHECK_VERSION) with go install"
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...

## bench: the hot-loop benchmarks with allocation counts.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./retina/ ./patchboard/ ./potentiometer/ ./machine/
	$(GO) run ./cmd/mark1 bench

## fuzz: run each fuzz target of the user-file parsers for FUZZTIME.
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzRead -fuzztime=$(FUZZTIME) ./patchboard/
	$(GO) test -run='^$$' -fuzz=FuzzReadState -fuzztime=$(FUZZTIME) ./machine/
	$(GO) test -run='^$$' -fuzz=FuzzReadCodes -fuzztime=$(FUZZTIME) ./machine/
	$(GO) test -run='^$$' -fuzz=FuzzLoadIDX -fuzztime=$(FUZZTIME) ./images/
	$(GO) test -run='^$$' -fuzz=FuzzDecodeImage -fuzztime=$(FUZZTIME) ./images/

clean:
	$(GO) clean ./...
