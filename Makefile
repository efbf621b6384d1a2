# The two commands a newcomer needs: `make serve` and `make test`. Both create the environment.
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: serve build test lint lock clean

$(VENV)/.installed: pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[site,test]'
	touch $@

build: $(VENV)/.installed
	$(VENV)/bin/relref build

serve: build
	@echo "Serving http://127.0.0.1:$(PORT)/ (Ctrl-C to stop)"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory site

lock: $(VENV)/.installed
	$(VENV)/bin/relref lock

lint: $(VENV)/.installed
	$(VENV)/bin/relref lint

test: $(VENV)/.installed
	$(VENV)/bin/pytest -q -n 2 --dist loadfile --durations=15

clean:
	rm -rf site build $(VENV)
