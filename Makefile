# Developer tasks (CONTRIBUTING.md explains each). Run them in the project's virtualenv:
#   pip install -e ".[test,dev]"
# `make PYTHON=/path/to/python <target>` picks another interpreter.

PYTHON ?= python
RUNNER ?= runner

# Every code generator of an archetype: apps/<archetype>/gen.py runs as cfab.apps.<archetype>.gen.
GENERATORS := $(patsubst apps/%/gen.py,cfab.apps.%.gen,$(sort $(wildcard apps/*/gen.py)))

.DEFAULT_GOAL := help
.PHONY: help lint format type test test-all regen bench

help:
	@echo "make lint      ruff check and ruff format --check (no file is changed)"
	@echo "make format    sort imports and format with ruff (changes files)"
	@echo "make type      mypy over the cfab packages (.ci/typecheck)"
	@echo "make test      the default test tiers (README's test command)"
	@echo "make test-all  every tier: the slow tests, then the fuzz campaign"
	@echo "make regen     rerun every generator ($(GENERATORS)) and recompile the suite"
	@echo "make bench     speed and memory figures (runner bench)"

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

format:
	$(PYTHON) -m ruff check --select I --fix .
	$(PYTHON) -m ruff format .

type:
	PYTHON=$(PYTHON) .ci/typecheck

test:
	$(PYTHON) -m pytest

# Every tier: the slow tests with the rest, then the fuzz campaign (the tests marked fuzz under the
# Hypothesis profile fuzz: ten times the examples, random; failures kept in .hypothesis/).
test-all:
	$(PYTHON) -m pytest --run-slow
	$(PYTHON) -m pytest --run-fuzz

# Generated files are committed; tests/apps/<archetype> fail when they differ from their generator,
# and the suite test fails when tasks/suites/executable.jsonl differs from a fresh compile.
regen:
	@set -e; for gen in $(GENERATORS); do echo "$(PYTHON) -m $$gen"; $(PYTHON) -m $$gen; done
	$(RUNNER) tasks compile

bench:
	$(RUNNER) bench
