# The lessons as a static site (Voici: Python runs in each learner's browser). Included by Makefile;
# standalone: make -f Makefile -f site.mk site
#   make site         builds site/ from notebooks/*.ipynb and the railkit package (PyPI and npm only;
#                     downloads cached in .cache/site/, build tools in .site-venv/, never in .venv/)
#   make serve-site   serves site/ on http://127.0.0.1:$(SITE_PORT)/ (any static web server will do)
PYTHON ?= python3
HOST ?= 127.0.0.1
SITE_PORT ?= 8870
SITE_DIR ?= site
SITE_VENV := .site-venv
SITE_STAMP := $(SITE_VENV)/.installed

.PHONY: site serve-site clean-site

$(SITE_STAMP): tools/site/requirements.txt
	@test -x $(SITE_VENV)/bin/python || $(PYTHON) -m venv $(SITE_VENV)
	$(SITE_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r tools/site/requirements.txt
	@touch $(SITE_STAMP)

site: $(SITE_STAMP)
	$(SITE_VENV)/bin/python tools/site/build.py --out $(SITE_DIR)

serve-site: site
	@echo "Serving the static site at http://$(HOST):$(SITE_PORT)/ (Ctrl-C to stop)"
	$(PYTHON) tools/site/serve.py --dir $(SITE_DIR) --host $(HOST) --port $(SITE_PORT)

clean-site:
	rm -rf $(SITE_DIR) $(SITE_VENV) .cache/site
