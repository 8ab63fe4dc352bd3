# Skatschule: two commands on a fresh machine, `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
VECTORS ?= ../shared/vectors

.PHONY: setup run test check bench mypy clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	$(PY) manage.py runserver 127.0.0.1:8000

test: setup
	$(PY) -m mypy --strict skatschule/engine
	@if [ -f $(VECTORS)/public.json ]; then $(PY) -m skatschule.engine.vectors check $(VECTORS)/public.json; \
	  else echo "no $(VECTORS)/public.json beside the project: vector check skipped"; fi
	$(PY) -m pytest -q

bench: setup
	$(PY) -m skatschule.engine.bench

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache
