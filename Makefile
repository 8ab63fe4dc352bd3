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
	$(PY) manage.py check_lessons
	$(PY) manage.py runserver 127.0.0.1:8000

test: setup
	$(PY) -m mypy --strict skatschule/engine
	@for f in public.json public_rulings.json; do \
	  if [ -f $(VECTORS)/$$f ]; then echo "vectors: $$f"; $(PY) -m skatschule.engine.vectors check $(VECTORS)/$$f || exit 1; \
	  else echo "no $(VECTORS)/$$f beside the project: vector check skipped"; fi; done
	$(PY) -m pytest -q

bench: setup
	$(PY) -m skatschule.engine.bench

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache
