# Set-up and the two jobs of the README. Everything installs into .venv; nothing else is assumed.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# pip here is capped at torch<=2.14.1 and only 2.13.0 is a CPU build on local disk: pin it so pip
# never picks a multi-GB CUDA build when Docling's extra asks for torch.
TORCH_PIN ?= torch==2.13.0
OUT ?= out

.PHONY: setup setup-dev demo test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.core: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q "$(TORCH_PIN)" -e ".[dev,docling]"
	touch $@ $(VENV)/.core

setup: $(VENV)/.core

setup-dev: $(VENV)/.dev

demo: $(VENV)/.core
	$(BIN)/sjt chunk sample_pdfs/ --format text -o $(OUT)/units.txt
	$(BIN)/sjt chunk sample_pdfs/ -o $(OUT)/units.jsonl
	@echo "Evidence Units written to $(OUT)/units.txt and $(OUT)/units.jsonl"

test: $(VENV)/.dev
	$(BIN)/python -m pytest -q

bench: $(VENV)/.dev
	$(BIN)/python benchmarks/bench_lite_parser.py
	$(BIN)/python benchmarks/bench_semantic.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache
