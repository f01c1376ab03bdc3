# Two commands: `make lab` and `make test`. Everything else is set up on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test bench notebooks handouts play clean

# Reinstall only when the package metadata changes, so a second run is quiet.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Jupyter refuses to run as root without --allow-root, so pass it then (only then). Without a
# browser to open, start with --no-browser and say where the address is: Jupyter prints it
# (http://localhost:PORT/lab?token=...) as it starts. LAB_ARGS adds options, e.g. --port=9000.
lab: $(STAMP)
	@args="$(LAB_ARGS)"; \
	if [ "$$(id -u)" = 0 ]; then args="$$args --allow-root"; fi; \
	if ! $(BIN)/python -c 'import webbrowser; webbrowser.get()' 2>/dev/null; then \
		args="$$args --no-browser"; \
		echo "No web browser found: open the http://...lab?token=... address Jupyter prints below."; \
	fi; \
	exec $(BIN)/jupyter lab notebooks/ $$args

# One PDF per lesson and per exercise sheet (no solutions) in handouts/, from the saved notebooks,
# printed by headless Chromium (apt-get install chromium); no LaTeX.
handouts: $(STAMP)
	@$(BIN)/gofish-teach handouts handouts

# The Table and the Explorer as a web page of their own (Voila), for a projector or a class that has
# never opened JupyterLab. Prints the address; as root and without a browser too. PLAY_ARGS adds
# options, e.g. --port=9000 --ip=0.0.0.0 (let the class connect) --rules=family --seed=7.
play: $(STAMP)
	@exec $(BIN)/gofish-teach play $(PLAY_ARGS)

# One pytest run: unit, scenario and property tests, the docstring examples, and every
# committed notebook checked cell by cell against its saved outputs (strict nbval); pytest
# recurses into notebooks/, so the teacher's kit (notebooks/teacher/) is checked too.
test: $(STAMP)
	@$(BIN)/python -m pytest --doctest-modules --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		gofish_teach tests notebooks solutions

bench: $(STAMP)
	@$(BIN)/python -m gofish_teach.bench $(BENCH_ARGS)

# Re-run every notebook top to bottom and save its outputs (do this after changing code they use).
# No timing metadata (JupyterLab deletes it when a cell runs) and no widget state, so a run in JupyterLab adds no churn.
notebooks: $(STAMP)
	@for nb in notebooks/*.ipynb notebooks/teacher/*.ipynb solutions/*.ipynb; do [ -e "$$nb" ] || continue; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.record_timing=False --ExecutePreprocessor.store_widget_state=False "$$nb" || exit 1; done

clean:
	rm -rf $(VENV)
