# Two commands: `make lab` and `make test`. Everything else is set up on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test bench notebooks clean

# Reinstall only when the package metadata changes, so a second run is quiet.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

lab: $(STAMP)
	@$(BIN)/jupyter lab notebooks/

# One pytest run: unit, scenario and property tests, the docstring examples, and every
# committed notebook checked cell by cell against its saved outputs (strict nbval).
test: $(STAMP)
	@$(BIN)/python -m pytest --doctest-modules --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		gofish_teach tests notebooks solutions

bench: $(STAMP)
	@$(BIN)/python -m gofish_teach.bench $(BENCH_ARGS)

# Re-run every notebook top to bottom and save its outputs (do this after changing code they use).
notebooks: $(STAMP)
	@for nb in notebooks/*.ipynb solutions/*.ipynb; do [ -e "$$nb" ] || continue; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; done

clean:
	rm -rf $(VENV)
