# The two commands a newcomer needs: `make run` and `make test` (`make test-fast` while working: no servers,
# browsers, kernels or builds).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# railkit's Voila template (no CDN links) and lesson kernel spec: wheel data (pyproject.toml). An editable
# install does not install data files (setuptools#3399), so `make venv` copies them into the venv where
# Voila looks (python -m railkit.ui.voila_template); a changed template file copies them again.
TEMPLATE := $(VENV)/share/jupyter/voila/templates/railkit
TEMPLATE_FILES := $(wildcard railkit/ui/voila_template/railkit/* railkit/ui/voila_template/railkit-lesson/*)
HOST ?= 127.0.0.1
PORT ?= 8866
TABLES_PORT ?= 8867
# The lock files: the apps (runtime + Voila + JupyterLab; Binder installs a copy) and a developer's
# venv (the apps' pins plus the test, lint and lock tools). `make locks` writes both from pyproject.toml.
APPS_LOCK := requirements.lock
TEST_LOCK := requirements-test.lock
BINDER_LOCK := binder/requirements.txt
# Kept pins stay unless asked: `make locks LOCK_ARGS=--upgrade` or `LOCK_ARGS="--upgrade-package plotly"`.
LOCK_ARGS ?=
PIP_COMPILE := $(BIN)/pip-compile --quiet --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links $(LOCK_ARGS)

.PHONY: run test test-fast lint locks bench bench-check clean venv messages catalogs notebooks-i18n

venv: $(STAMP) $(TEMPLATE)

# A developer's venv installs the test lock (a superset of the apps lock); a lock change reinstalls.
# The editable install compiles the catalogs with Babel (setup.py); `make venv` also recompiles a catalog
# whose .po changed (below).
$(STAMP): pyproject.toml setup.py $(APPS_LOCK) $(TEST_LOCK)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r $(TEST_LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

$(TEMPLATE): $(TEMPLATE_FILES) | $(STAMP)
	$(BIN)/python -m railkit.ui.voila_template
	@touch $(TEMPLATE)

# Voila serves notebooks/ in tree mode and reads notebooks/voila.json (template, stripped sources,
# hidden tracebacks, preheated kernels, culling of idle kernels). `make run BOARD=our_board.json
# DECK=our_deck.json`: every lesson plays on a club's own board / deck (RAILKIT_UP_BOARD, RAILKIT_KK_DECK).
# A class: `make run CLASS=30 LESSON=up_play` keeps 30 kernels of that lesson preheated (README, "A class on
# one server"; railkit/ui/voila_template/class_config.py). CLASS alone spreads the class over every lesson.
CLASS ?=
LESSON ?=
# The class tables' server (railkit.tables, "Play with others") runs beside Voila on loopback; the lessons'
# kernels find it through RAILKIT_TABLES_URL. Its games are kept in $(TABLES_DB) (SQLite, .railkit/ in the
# checkout) unless `make run DB=postgresql://...`. RUN_DIR holds it, the kept games and the teacher key.
RUN_DIR ?= $(abspath .railkit)
TABLES_DB ?= sqlite:///$(RUN_DIR)/tables.sqlite
# The teacher key (README, "The teacher's room"): made in .railkit/ on the first `make run` and printed with the
# teacher's page link at every start; RAILKIT_TEACHER_KEY overrides it.
TEACHER_KEY_FILE ?= $(RUN_DIR)/teacher.key
# A small Python launcher (railkit/ui/voila_template/launch.py) starts both servers, restarts the table server
# if it dies, stops both on Ctrl-C, and prints the two links (learners, teacher) once the lessons are ready.
# The recipe is not echoed (DB= may hold a password); `exec`: make signals the launcher itself, no shell between.
run: venv
	@exec $(BIN)/python -m railkit.ui.voila_template.launch --host "$(HOST)" --port "$(PORT)" --tables-port "$(TABLES_PORT)" \
	  --db "$(or $(DB),$(TABLES_DB))" --teacher-key-file "$(TEACHER_KEY_FILE)" --saves-dir "$(RUN_DIR)/games" \
	  --board "$(if $(BOARD),$(abspath $(BOARD)))" --deck "$(if $(DECK),$(abspath $(DECK)))" \
	  --class "$(CLASS)" --lesson "$(LESSON)" -- $(VOILA_ARGS)

# ruff's, mypy's and import-linter's settings are in pyproject.toml ([tool.ruff], [tool.mypy],
# [tool.importlinter]: the layers, CONTRIBUTING.md).
lint: venv
	$(BIN)/ruff check railkit tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

# --durations: every run (CI's too) lists its 30 slowest tests, where the whole suite's time goes.
test: venv lint
	$(BIN)/python -m pytest -n 2 --durations=30 tests

# The fast tier: engines, session, headless UI, properties. Deselects every test marked as starting a server,
# a browser, a kernel or a build (markers in pyproject.toml; tests/conftest.py adds them by fixture too);
# `make test` still runs those. Its properties try fewer Hypothesis examples (RAILKIT_HYPOTHESIS=fast,
# tests/conftest.py); `make test` tries them all. Under 3 minutes on 2 cores (docs/benchmarks.md, "Test suite").
FAST_MARKS := not (browser or server or build or kernel or hub or slow)
test-fast: venv lint
	RAILKIT_HYPOTHESIS=fast $(BIN)/python -m pytest -n 2 -m "$(FAST_MARKS)" tests

# The pins come from pyproject.toml's ranges; pins already in a lock are kept unless LOCK_ARGS says.
# The test lock is constrained to the apps lock, so both pin every shared package alike.
locks: | $(STAMP)
	$(PIP_COMPILE) --extra app --output-file $(APPS_LOCK) pyproject.toml
	$(PIP_COMPILE) --extra app --extra test --constraint $(APPS_LOCK) --output-file $(TEST_LOCK) pyproject.toml
	{ echo "# Binder installs the apps' lock: a copy of ../$(APPS_LOCK) written by 'make locks'."; \
	  cat $(APPS_LOCK); } > $(BINDER_LOCK)

# Translations (gettext through Babel; see railkit/ui/i18n.py). `make messages` extracts every message
# into railkit/locale/railkit.pot and merges it into each language's .po (new ones start empty, no
# fuzzy guesses, removed ones dropped); translate there. `make catalogs` compiles the .po files to the
# .mo files gettext reads with Babel (the wheel build and the editable install do the same, setup.py);
# `make venv` recompiles any whose .po is newer. The apps compile nothing: a missing .mo shows English.
LOCALES := fi hu es
LOCALE_DIR := railkit/locale
POT := $(LOCALE_DIR)/railkit.pot
MO_FILES := $(patsubst %.po,%.mo,$(wildcard $(LOCALE_DIR)/*/LC_MESSAGES/railkit.po))
venv: $(MO_FILES)
$(LOCALE_DIR)/%/LC_MESSAGES/railkit.mo: $(LOCALE_DIR)/%/LC_MESSAGES/railkit.po | $(STAMP)
	$(BIN)/python setup.py catalogs
messages: | $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --add-location=file --sort-by-file --project=railkit \
	  -k tr -k trn:1,2 -k trc:1c,2 -k N_ -k NC_:1c,2 -k Message:1 -k nmessage:1,2 -k pmessage:1c,2 \
	  -k npmessage:1c,2,3 -k addressed:2 -k naddressed:2,3 -k addressed_group:2,3 -o $(POT) railkit
	$(BIN)/python $(LOCALE_DIR)/number_table.py
	@set -e; for lang in $(LOCALES); do \
	  $(BIN)/pybabel update -i $(POT) -d $(LOCALE_DIR) -D railkit -l $$lang \
	    --init-missing --no-fuzzy-matching --ignore-obsolete; done
catalogs: | $(STAMP)
	$(BIN)/python setup.py catalogs

# The lessons in Finnish, Hungarian and Spanish (notebooks/<lang>/, tools/notebooks_i18n.py): the English
# notebooks' markdown paragraphs go to railkit/locale/<lang>/LC_MESSAGES/notebooks.po (translate the empty
# ones there), then the translated notebooks are written; a test fails when they drift.
notebooks-i18n: | $(STAMP)
	$(BIN)/python tools/notebooks_i18n.py extract
	$(BIN)/python tools/notebooks_i18n.py write

# Every benchmarks/*.py script in turn (not _*.py); each prints its figures for docs/benchmarks.md.
bench: venv
	@set -e; for script in benchmarks/[!_]*.py; do echo "== $$script"; $(BIN)/python $$script; done

# The engines' medians against benchmarks/baseline.json: a warning and exit 1 when one regressed by > 25 %.
# A benchmark for CI to run on a quiet machine, not a test (rerun or --compare before believing a warning).
bench-check: venv
	$(BIN)/python -m benchmarks.engines --check

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist
include site.mk

# A class server for many learners (JupyterHub, one server per learner): see deploy/README.md.
.PHONY: hub-install hub
hub-install:
	deploy/install.sh
hub: hub-install
	deploy/start-hub.sh

# Class tables (railkit.tables): the server that holds shared games. SQLite in $RAILKIT_TABLES_DATA by default;
# `make tables DB=postgresql://...` for PostgreSQL. Loopback only unless HOST says otherwise.
.PHONY: tables
tables: venv
	$(BIN)/python -m railkit.tables --host $(HOST) --port $(TABLES_PORT) $(if $(DB),--db "$(DB)")
