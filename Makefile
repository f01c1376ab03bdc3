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
	$(BIN)/jupyter lab notebooks/

test: $(STAMP)
	$(BIN)/python -m pytest tests
	$(BIN)/python -m pytest --nbval notebooks solutions --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:randomly

bench: $(STAMP)
	$(BIN)/python -m gofish_teach.bench

clean:
	rm -rf $(VENV)
