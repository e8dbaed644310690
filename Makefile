# SketchPrep — the commands a user types. `make preprocess` and `make test` set themselves up.
SWIFT    ?= swift
PYTHON   ?= python3
CATEGORY ?= airplane
SHARED   ?= ../shared/data
RELEASE  := $(SWIFT) build -c release --product sketchprep
BIN      := .build/release/sketchprep

.PHONY: setup build test preprocess parity eval bench clean

## setup: install Debian/PyPI packages the build and tests need (by name, only if missing)
setup:
	@scripts/setup.sh
	@scripts/setup-onnxruntime.sh

## build: release build of the CLI
build: setup
	@$(RELEASE)

## test: the whole test suite (Swift tests, then the Python cross-checks)
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(PYTHON) -m pytest -q Tests/python

## preprocess: Quick Draw RNN pipeline (75×3 stroke tensors, NPY shards) on raw $(CATEGORY) drawings:
## SampleData's file when it has one, else ../shared/data's
preprocess: build
	@in="SampleData/quickdraw/raw/$(CATEGORY).ndjson"; \
	[ -f "$$in" ] || in="$(SHARED)/quickdraw/raw/$(CATEGORY).ndjson"; \
	[ -f "$$in" ] || { echo "make preprocess: no raw drawings for CATEGORY='$(CATEGORY)' in SampleData/quickdraw/raw or $(SHARED)/quickdraw/raw" >&2; exit 1; }; \
	$(BIN) preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input "$$in" \
		--category "$(CATEGORY)" --output "out/quickdraw-rnn/$(CATEGORY)"

## clean: remove the build and everything written under out/
clean:
	rm -rf .build out

## parity: our simplification vs Google's simplified files (shared data, else SampleData); reports in out/parity/
QUICKDRAW := $(if $(wildcard $(SHARED)/quickdraw/raw),$(SHARED)/quickdraw,SampleData/quickdraw)
parity: build
	$(BIN) parity --raw $(QUICKDRAW)/raw --simplified $(QUICKDRAW)/simplified \
	  --report-json out/parity/parity.json --report-md out/parity/parity.md

## eval: preprocess the evaluation data and report the three bundled models (out/eval/<model>/report.html)
eval: build
	@scripts/eval.sh $(BIN) $(SHARED)

## bench: throughput and peak-memory benchmarks (release build, one command per line)
bench: build
	$(BIN) bench simplify $(QUICKDRAW)/raw --report-json out/bench/simplify.json
	$(BIN) bench preprocess $(QUICKDRAW)/raw --python-reference scripts/bench_reference_preprocess.py --report-json out/bench/preprocess.json
	taskset -c 0 $(PYTHON) scripts/bench_raster.py --shared $(SHARED) --sketchprep $(BIN)
	taskset -c 0 $(PYTHON) scripts/bench_formats.py --shared $(SHARED) --sketchprep $(BIN) --report-json out/bench/formats.json
