# Pith: `make run` sets everything up and shows the extension on the bundled page; `make test` runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXAMPLE := host/examples/article.html
SYSTEM_PACKAGES := chromium firefox-esr xvfb
NPM_STAMP := tests/node_modules/.installed
WEB_EXT := tests/node_modules/.bin/web-ext
DIST := .cache/dist
VERSION = $(shell $(BIN)/python -c 'import json; print(json.load(open("extension/manifest.json"))["version"])')

.PHONY: run test test-fast bench bench-crawl bench-static bench-scale bench-extension lint package system venv npm clean help train train-blocks train-pagetype fuzz

help:
	@echo "make run     set up (system packages, venv, host registration in .cache/profile) and"
	@echo "             open the bundled article in Chromium with the extension (headless without"
	@echo "             \$$DISPLAY: prints the selection, screenshots in .cache/run/)"
	@echo "make test    set up and run the whole test suite, on every core (what CI runs)"
	@echo "make test-fast  while working: the tests without a browser or a slow measurement"
	@echo "make bench   pith bench: every method and anchor on ../shared/datasets (rendered, then"
	@echo "             static), then --scale"
	@echo "make lint    syntax checks of the host and the extension, web-ext lint (one line: only"
	@echo "             the expected BACKGROUND_SERVICE_WORKER_IGNORED warning passes)"
	@echo "make package web-ext build: the Chrome zip and the Firefox xpi in $(DIST)/"
	@echo "make bench-extension  click-to-highlight latency of the extension in headless Chromium"
	@echo "make bench-crawl  batch extraction of a 10,000-record WARC crawl: pages/s against"
	@echo "             trafilatura, --jobs, Dask, peak memory, a pathological record"
	@echo "make train   retrain CLG's model (host/pith/pipeline/models/) from the snapshot cache of make bench"
	@echo "make train-blocks  retrain the block model (host/pith/pipeline/models/blocks.json) the same way"
	@echo "make train-pagetype  retrain the page type model (models/pagetype.json) from the labelled pages"
	@echo "make fuzz    the long fuzz run: 100,000 cases over framing, protocol, snapshot and"
	@echo "             extract --static (tests/fuzz.py; figures printed, crashes in .cache/fuzz/)"

run: system venv
	$(BIN)/python -m pith.demo

# The suite starts Python a few hundred times (the CLI, the native host, batch workers):
# with PYTHONDONTWRITEBYTECODE set (some sandboxes set it) each one compiles pith again and
# each worker rewrites every test module again, so the tests run without it (the caches go
# to the ignored __pycache__ folders; host/NOTES.md, 'Why the suite shares browsers').
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest

# Every test, on every core (pytest-xdist). worksteal hands each worker a contiguous half of
# the suite and lets an idle worker take tests from the other: on a browser-heavy slice,
# 2:11 against 2:59 grouping each browser module on one worker and 3:00 serial (2 cores
# under other load, 2026-11-27; host/BENCHMARKS.md). The extension's browsers start once
# per worker and are shared by the modules (tests/conftest.py).
test: system venv npm
	$(PYTEST) -n auto --dist worksteal

test-fast: venv
	$(PYTEST) -m 'not slow and not browser' -n auto --dist worksteal

bench: system venv npm
	$(BIN)/pith bench --by-type
	$(BIN)/pith bench --static --by-type
	$(BIN)/pith bench --scale

# Batch extraction of a 10,000-record WARC crawl built from ../shared/datasets (issue 16's
# figures: one core against trafilatura, --jobs, Dask, memory, a pathological record).
bench-crawl: venv
	$(BIN)/pith bench --crawl

# The long fuzz run (the short one is part of `make test`); atheris when it installs.
fuzz: venv
	$(BIN)/pip install -q -e '.[fuzz]' || echo "atheris did not install: Hypothesis only"
	$(BIN)/python tests/fuzz.py

# CLG's logistic regressions: reads the rendered snapshots `make bench` caches (no browser).
train: venv
	$(BIN)/pith train

# The block model (models/blocks.json): the same cache, the training sites only.
train-blocks: venv
	$(BIN)/pith train-blocks

# The page type model (models/pagetype.json): wcxb_dev_full's and magic_html's labels,
# static snapshots of the training sites.
train-pagetype: venv
	$(BIN)/pith train-pagetype

lint: venv npm
	$(BIN)/python -m compileall -q host/pith
	for f in extension/background.js extension/background/*.js extension/ui/*.js; do \
	  node --input-type=module --check < $$f || { echo "syntax error in $$f"; exit 1; }; done
	for f in extension/inject/*.js; do node --check $$f || exit 1; done
	@$(BIN)/python tests/lint_extension.py   # one line; fails on any error or unexpected warning

# The Chrome zip (load unpacked or upload) and the Firefox xpi, from the same folder.
package: npm
	mkdir -p $(DIST)
	$(WEB_EXT) build --source-dir extension --artifacts-dir $(DIST) --overwrite-dest \
	  --filename pith-$(VERSION)-chrome.zip
	$(WEB_EXT) build --source-dir extension --artifacts-dir $(DIST) --overwrite-dest \
	  --filename pith-$(VERSION)-firefox.xpi
	@ls -l $(DIST)

bench-extension: system venv
	$(BIN)/python tests/bench_extension.py

# Debian packages the browser tests need; installed when missing (root or sudo).
system:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v firefox-esr >/dev/null || missing="$$missing firefox-esr"; \
	command -v Xvfb >/dev/null || missing="$$missing xvfb"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

venv: $(STAMP)
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,bench,train,parquet,cluster]'
	touch $@

npm: $(NPM_STAMP)
$(NPM_STAMP): tests/package.json
	cd tests && npm install --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) tests/node_modules .cache .pytest_cache
