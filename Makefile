# Pith: `make run` sets everything up and extracts the bundled page; `make test` runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXAMPLE := host/examples/article.html
SYSTEM_PACKAGES := chromium firefox-esr xvfb
NPM_STAMP := tests/node_modules/.installed

.PHONY: run test bench bench-static bench-scale lint system venv npm clean help

help:
	@echo "make run     set up (system packages, venv) and extract the bundled page"
	@echo "make test    set up and run the whole test suite"
	@echo "make bench   pith bench on ../shared/datasets (rendered, then static, then --scale)"
	@echo "make lint    syntax checks of the host and the extension"

run: system venv
	$(BIN)/pith extract $(EXAMPLE)

test: system venv npm
	$(BIN)/pytest

bench: system venv
	$(BIN)/pith bench --algorithm cnr
	$(BIN)/pith bench --algorithm cnr --static
	$(BIN)/pith bench --scale

lint: venv npm
	$(BIN)/python -m compileall -q host/pith
	node --check extension/inject/capture.js

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
	$(BIN)/pip install -q -e '.[test,bench]'
	touch $@

npm: $(NPM_STAMP)
$(NPM_STAMP): tests/package.json
	cd tests && npm install --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) tests/node_modules .cache .pytest_cache
