# Shifu — the two set-up commands are `make serve` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test lint bench bench-retrieval bench-planning bench-tools bench-answer bench-answer-sweep bench-e2e bench-eval clean

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip
	@$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

serve: install
	@$(VENV)/bin/shifu demo up --host $(HOST) --port $(PORT)
	@$(VENV)/bin/shifu serve --host $(HOST) --port $(PORT)

test: install
	@scripts/system-deps.sh
	@scripts/test.sh

lint: install
	@$(VENV)/bin/ruff check src tests bench
	@$(VENV)/bin/ruff format --check src tests bench
	@$(VENV)/bin/mypy src

bench: bench-retrieval bench-planning bench-tools bench-answer bench-answer-sweep bench-e2e bench-eval
	@$(PY) bench/collect.py

bench-retrieval: install
	@$(PY) -m bench.retrieval.run
	@$(PY) -m bench.retrieval.scale
	@$(PY) bench/collect.py

bench-planning: install
	@$(PY) bench/planning/run.py
	@$(PY) bench/collect.py

bench-tools: install
	@$(PY) bench/tools/run.py
	@$(PY) bench/collect.py

bench-answer: install
	@$(PY) bench/answer/run.py
	@$(PY) bench/collect.py

bench-answer-sweep: install
	@$(PY) bench/answer/sweep.py
	@$(PY) bench/collect.py

bench-e2e: install
	@$(PY) bench/e2e/run.py
	@$(PY) bench/collect.py

bench-eval: install
	@$(PY) bench/eval/run.py
	@$(PY) bench/collect.py

clean:
	rm -rf var .mypy_cache .ruff_cache .pytest_cache
