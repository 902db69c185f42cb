# Two commands for a newcomer: `make run` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test bench clean browser

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/analyzer run sims/default.toml

# the fast tier first (a broken build fails early), then the slow one; two worker
# processes (pytest-xdist), whole test files each, so both cores compile and play
test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadfile --durations=10 -m "not slow"
	$(PY) -m pytest -n 2 --dist loadfile --durations=10 -m slow

# BENCH: its options, e.g. make bench BENCH="--only ladder" (python -m analyzer.bench -h)
bench: $(STAMP)
	$(PY) -m analyzer.bench $(BENCH)

# the headless browser of tests/browser (Debian's chromium), installed when missing
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		{ SUDO=$$(test "$$(id -u)" = 0 || echo sudo); $$SUDO apt-get update && $$SUDO apt-get install -y chromium; }

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
