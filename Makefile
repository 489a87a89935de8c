# geodeck: `make install` sets up .venv; `make deck` builds and prints every deck; `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
GAMES   = $(shell $(BIN)/geodeck games --names)  # from the game registry (pipeline/games/)
MIRROR ?= $(wildcard ../shared/snapshots)
ifneq ($(MIRROR),)
export GEODECK_MIRROR ?= $(abspath $(MIRROR))
endif

.PHONY: install deck print previews play-check lint test bench clean

$(BIN)/geodeck: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $@

install: $(BIN)/geodeck

deck: install
	$(BIN)/geodeck fetch
	$(BIN)/geodeck build
	$(MAKE) print

print: install
	@for game in $(GAMES); do $(BIN)/geodeck print $$game --what all || exit 1; done

previews: install  # docs/previews/*.png: every card kind (front, back) and each game's accessories
	$(BIN)/python docs/previews/regenerate.py

# Writes output/reports/<game>/<version>/ (report.md, report.json, plots) for every game; fails if a verdict
# fails (exit 1), lists undecided ones (exit 3: run more games) without failing.
PLAYCHECK_GAMES ?= 4000
play-check: install
	@status=0; for game in $(GAMES); do \
		$(BIN)/geodeck play-check $$game --games $(PLAYCHECK_GAMES) --report-dir output/reports --format markdown \
			> /dev/null; rc=$$?; \
		if [ $$rc -eq 3 ]; then echo "$$game: undecided verdicts (see its report.md)"; \
		elif [ $$rc -ne 0 ]; then echo "$$game: play-check failed (exit $$rc)"; status=1; fi; \
	done; exit $$status

lint: install
	$(BIN)/ruff format --check pipeline tests benchmarks
	$(BIN)/ruff check pipeline tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -n 2

bench: install
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf build output/print output/reports
