# The two commands of the README: `make play` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint bench clean browser mosquitto

CHROMIUM ?= /usr/bin/chromium

# pytest runs on every core (pytest-xdist; `make test PYTEST_WORKERS=0` runs it in one process). Each test
# file stays on one worker (--dist loadfile): a file's module-scoped fixtures (a browser and its server, a
# bot's games) are built once, and its tests run in their written order.
PYTEST_WORKERS ?= auto
# The slow tests (long property runs, soaks: @pytest.mark.slow) are left out of `make test`; `.ci/run` runs
# them with `make test PYTEST_MARKS=`.
PYTEST_MARKS ?= not slow

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/iwgt serve

# The browser tests drive Debian's Chromium with Playwright (never a downloaded browser).
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; \
	fi

# The physical table's tests run against a real Mosquitto broker too (Debian's; the tests start their own).
MOSQUITTO ?= /usr/sbin/mosquitto
mosquitto:
	@if [ ! -x $(MOSQUITTO) ]; then \
		echo "installing Debian's mosquitto for the physical table's tests"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq mosquitto >/dev/null; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq mosquitto >/dev/null; fi; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint browser mosquitto
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile $(if $(PYTEST_MARKS),-m "$(PYTEST_MARKS)")

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py
	$(BIN)/python benchmarks/latency.py
	$(BIN)/python benchmarks/valhalla.py
	$(BIN)/python benchmarks/anvil_bot.py
	$(BIN)/python benchmarks/coloured_dice_odds.py
	$(BIN)/python benchmarks/coloured_dice_engine.py
	$(BIN)/python benchmarks/coloured_dice_bot.py
	$(BIN)/python benchmarks/warquest_odds.py --repeat 1
	$(BIN)/python benchmarks/warquest_costs.py --runs 10
	$(BIN)/python benchmarks/warquest_bot.py --games 10 --players 2,3 --rounds 6 --quiet
	$(BIN)/python benchmarks/hardware.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
