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

clean:
	rm -rf .build out
