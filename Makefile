# geodeck: `make install` sets up .venv; `make deck` builds and prints every deck; `make test` runs the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
GAMES   = $(shell $(BIN)/geodeck games --names)  # from the game registry (pipeline/games/)
MIRROR ?= $(wildcard ../shared/snapshots)
ifneq ($(MIRROR),)
export GEODECK_MIRROR ?= $(abspath $(MIRROR))
endif

.PHONY: install pure deck kit print previews play-check lint test bench clean messages studio studio-screenshots

# One line per phase; pip's own progress on a terminal, --quiet when make writes to a log or pipe (and
# without setuptools' 10-line "Editable installation" warning, which asks nothing of a user).
PIP_INSTALL = q=--quiet; [ -t 1 ] && q=; PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install $$q
$(BIN)/geodeck: pyproject.toml
	@echo "install 1/4: a virtual environment in $(VENV) ($(PYTHON) -m venv)"
	@$(PYTHON) -m venv $(VENV)
	@echo "install 2/4: upgrading pip and setuptools"
	@$(PIP_INSTALL) --upgrade pip setuptools
	@echo "install 3/4: geodeck and its dependencies into $(VENV) (about 2 minutes on 2 cores)"
	@$(PIP_INSTALL) -e '.[test,bench]'
	@touch $@

# The rules engines compiled with mypyc beside their sources (pipeline/compiled.py); again when one changes.
ENGINES  = $(shell GEODECK_PURE=1 $(PYTHON) -c 'from pipeline import compiled; compiled.print_sources()')
COMPILED = $(VENV)/mypyc/compiled
$(COMPILED): $(ENGINES) | $(BIN)/geodeck
	@mkdir -p $(dir $@)
	@echo "install 4/4: compiling the rules engines with mypyc (about 2 minutes on 2 cores; log: $(VENV)/mypyc/log)"
	@GEODECK_PURE=1 $(BIN)/python -c 'from pipeline import compiled; compiled.build("$(VENV)/mypyc/log")' || \
		echo "could not compile the engines (see $(VENV)/mypyc/log): they run as plain Python, slower"
	@touch $@  # tried: again when an engine changes

install: $(BIN)/geodeck $(COMPILED)

pure:  # remove the compiled engines: they run from their sources
	find pipeline -name '*.so' -delete
	rm -f $(COMPILED)

deck: install
	$(BIN)/geodeck fetch
	$(BIN)/geodeck build
	@echo "To run geodeck yourself: \`. $(VENV)/bin/activate\` (once per shell), then \`geodeck --help\`"
	@$(MAKE) --no-print-directory print

# geodeck studio: make, check, print and export decks in the browser (docs/studio.md), on this computer only.
studio: $(BIN)/geodeck
	$(BIN)/geodeck studio

studio-screenshots: $(BIN)/geodeck  # docs/studio/*.png, taken by the studio's browser test in headless Chromium
	GEODECK_STUDIO_SCREENSHOTS=docs/studio $(BIN)/python -m pytest tests/studio/test_studio_browser.py -q -p no:cacheprovider

# A first kit: one game's (GAME) from the committed decks, without the build or the compiled engines.
GAME ?= laender-toppen
kit: $(BIN)/geodeck
	$(BIN)/geodeck print $(GAME) --kit

# Every game's cards and accessories, then its kit (cover, rules, cards, accessories in one PDF); the last
# lines name the kits, one path a line (geodeck prints each written path alone on stdout).
print: install
	@kits=; for game in $(GAMES); do \
		$(BIN)/geodeck print $$game --what all || exit 1; \
		kit=$$($(BIN)/geodeck print $$game --kit) || exit 1; echo "$$kit"; \
		kits=$$(printf '%s\n%s' "$$kits" "$$kit"); \
	done; echo "PDFs in output/print/; the kits to print:$$kits"

# The messages (docs/languages.md): templates/locale/geodeck.pot extracted from the code and the templates'
# `words` (babel.cfg), then every language's catalogue updated from it (a changed message turns fuzzy).
LOCALE = templates/locale
messages: install
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project geodeck -o $(LOCALE)/geodeck.pot .
	$(BIN)/pybabel update -i $(LOCALE)/geodeck.pot -d $(LOCALE) -D geodeck --ignore-obsolete
	@# Babel flags a message python-format when its text looks like a %-directive ("95 % interval"); geodeck's
	@# messages are brace-formatted only, and `msgfmt -c` would check those words as %-directives
	sed -i -E -e '/^#, python-format$$/d' -e 's/^#, python-format, /#, /' -e 's/, python-format\b//' \
		$(LOCALE)/geodeck.pot $(LOCALE)/*/LC_MESSAGES/geodeck.po

previews: install  # docs/previews/*.png: every card kind (front, back), each game's accessories, kit cover and rules
	$(BIN)/python docs/previews/regenerate.py

# Writes output/reports/<game>/<version>/ (report.md, report.json, plots) for every game; fails if a verdict
# of a built-in game fails (exit 1), lists undecided ones (exit 3: undecided at the budget, 8 × the first look)
# without failing. Local games (region decks made by `geodeck region build`) are judged and listed apart: their
# failure does not fail the target.
PLAYCHECK_GAMES ?= 1000
PLAYCHECK = $(BIN)/geodeck play-check $$game --games $(PLAYCHECK_GAMES) --report-dir output/reports --format markdown \
	> /dev/null; rc=$$?
play-check: install
	@status=0; for game in $$($(BIN)/geodeck games --names --which built-in); do \
		echo "$$game: play-check of $(PLAYCHECK_GAMES) games started at $$(date +%T)"; $(PLAYCHECK); \
		if [ $$rc -eq 0 ]; then echo "$$game: passes"; \
		elif [ $$rc -eq 3 ]; then echo "$$game: undecided verdicts (see its report.md)"; \
		else echo "$$game: play-check failed (exit $$rc)"; status=1; fi; \
	done; \
	for game in $$($(BIN)/geodeck games --names --which local); do \
		echo "$$game: play-check of $(PLAYCHECK_GAMES) games started at $$(date +%T)"; $(PLAYCHECK); \
		if [ $$rc -eq 0 ]; then result=passes; elif [ $$rc -eq 3 ]; then result="undecided verdicts"; \
		else result="fails (exit $$rc): not counted"; fi; echo "$$game (local region): $$result"; \
	done; exit $$status

lint: install
	$(BIN)/ruff format --check pipeline tests benchmarks
	$(BIN)/ruff check pipeline tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q -p no:cacheprovider tests/framework/test_games_ports.py tests/test_import_cycles.py tests/cli/test_door.py tests/test_function_length.py  # every slice checked, no probe around a port, the layers, the doors, no long function

# Whole files to each worker (a file's module fixtures are built once, not on both); then no file may have
# appeared under output/ (a test writes only into its own temporary folders).
OUTPUT_FILES = git status --porcelain --ignored --untracked-files=all output/ 2>/dev/null
test: lint
	@before=$$($(OUTPUT_FILES)); $(BIN)/pytest -n 2 --dist loadfile || exit $$?; after=$$($(OUTPUT_FILES)); \
	if [ "$$before" != "$$after" ]; then echo "make test left files under output/ (a test wrote outside its" \
		"temporary folders):"; echo "$$after" | while read -r line; do case "$$before" in *"$$line"*) ;; \
		*) echo "  $$line";; esac; done; exit 1; fi

bench: install
	$(BIN)/python benchmarks/run.py $(BENCH)

clean: pure
	rm -rf build output/print output/export output/reports
