# Set-up and the two jobs of the README. Everything installs into .venv; nothing else is assumed.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The test set-up installs Docling and sentence-transformers, which need torch and torchvision. Pin a pair
# that imports together and that pip takes from this machine's local wheel store (torchvision from PyPI
# does not load beside the CPU-only torch 2.13.0 wheel: "operator torchvision::nms does not exist").
ARCH := $(shell uname -m)
ifeq ($(ARCH),aarch64)
TORCH_PIN ?= torch==2.9.1 torchvision==0.24.1
else
TORCH_PIN ?= torch==2.14.1 torchvision==0.29.1
endif
OUT ?= out

.PHONY: setup setup-dev demo test docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.core: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q $(TORCH_PIN) -e ".[dev,docling]"
	touch $@ $(VENV)/.core

setup: $(VENV)/.core

setup-dev: $(VENV)/.dev

# The demo builds its index afresh: an index left by an earlier version of the library's features cannot be
# extended (sjt says so), and the demo's index holds nothing else.
demo: $(VENV)/.core
	rm -f $(OUT)/index.sqlite $(OUT)/index.sqlite-wal $(OUT)/index.sqlite-shm
	$(BIN)/sjt ingest sample_pdfs/ --index $(OUT)/index.sqlite --workers 2
	$(BIN)/sjt search --index $(OUT)/index.sqlite "What was Kestrel Dynamics' operating income in 2024?" -k 3 -o $(OUT)/result.json --text
	$(BIN)/sjt search --index $(OUT)/index.sqlite "B기업의 중장기 채무상환능력은 어떤가?" -k 2 --text
	$(BIN)/sjt verify --index $(OUT)/index.sqlite $(OUT)/result.json

test: $(VENV)/.dev
	$(BIN)/python -m pytest -q

# Rewrite the outputs README.md and docs/*.md show from what their examples print now (tests/docs_run.py);
# `make test` fails while a shown output differs. PAGES= limits it to some pages.
docs: $(VENV)/.dev
	$(BIN)/python tests/docs_run.py --regenerate $(PAGES)

bench: $(VENV)/.dev
	$(BIN)/python benchmarks/bench_lite_parser.py
	$(BIN)/python benchmarks/bench_units.py
	$(BIN)/python benchmarks/bench_semantic.py
	$(BIN)/python benchmarks/bench_ingest.py
	$(BIN)/python benchmarks/bench_corpus.py
	$(BIN)/python benchmarks/bench_citations.py
	$(BIN)/python benchmarks/bench_serving.py
	$(BIN)/python benchmarks/retrieval.py --pdf-dir sample_pdfs --questions benchmarks/questions/sample_pdfs.jsonl -o $(OUT)/retrieval

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache
