# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# railkit's Voila template (no CDN links), linked into the venv where Voila looks for templates.
TEMPLATE := $(VENV)/share/jupyter/voila/templates/railkit
HOST ?= 127.0.0.1
PORT ?= 8866

.PHONY: run test bench clean venv

venv: $(STAMP) $(TEMPLATE)

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m railkit.ui.voila_template
	@touch $(STAMP)

$(TEMPLATE): | $(STAMP)
	$(BIN)/python -m railkit.ui.voila_template

# Voila serves notebooks/ in tree mode and reads notebooks/voila.json (template, stripped sources,
# hidden tracebacks, preheated kernels, culling of idle kernels).
run: venv
	@echo "Serving the railkit apps at http://$(HOST):$(PORT)/voila/render/index.ipynb (Ctrl-C to stop)"
	cd notebooks && ../$(BIN)/voila --no-browser --Voila.ip=$(HOST) --port=$(PORT) .

test: venv
	$(BIN)/python -m pytest -n 2 tests

# Every benchmarks/*.py script in turn (not _*.py); each prints its figures for docs/benchmarks.md.
bench: venv
	@set -e; for script in benchmarks/[!_]*.py; do echo "== $$script"; $(BIN)/python $$script; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
