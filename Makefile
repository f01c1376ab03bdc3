# Two commands: `make lab` and `make test`. Everything else is set up on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab lint test bench notebooks casedata handouts play clean

# Reinstall only when the package metadata changes, so a second run is quiet. Then numba compiles
# every loop a lesson runs (a few minutes once, kept on disk), so that no lesson waits for it: the
# exact count's and the sampler's (warm), the fast path's tournament (fast/engine.py, fast/pcg64.py), by a
# short tournament of lesson 00's lineup (its 100,000 games otherwise waited half a minute for it),
# and the search bot's rollouts (bestplay/search.py), by one small decision (lesson 08's first
# search otherwise waited 18.8 s for them).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -e '.[test]'
	@$(BIN)/python -c 'from gofish_teach.probability import warm; warm()'
	@$(BIN)/python -c 'from gofish_teach.simulate import simulate; simulate(["memory"] + ["random"] * 3, "pond", 20, workers=1)'
	@$(BIN)/python -c 'from gofish_teach.bestplay.search import warm; warm()'
	@touch $(STAMP)

# JupyterLab's settings for this kit, kept in the venv (never in your home directory): no
# "official Jupyter news?" prompt and no update check. JupyterLab reads overrides.json there.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json
$(LAB_SETTINGS): jupyterlab-overrides.json $(STAMP)
	@mkdir -p $(@D)
	@cp jupyterlab-overrides.json $@

# The whole kit from the repository's root: the file browser shows notebooks/ (the lessons),
# exercises/ and solutions/; the first lesson opens. Jupyter refuses to run as root without
# --allow-root, so pass it then (only then). Without a browser to open, start with --no-browser
# and say where the address is: Jupyter prints it (http://localhost:PORT/lab/...?token=...) as
# it starts. LAB_ARGS adds options, e.g. --port=9000.
lab: $(STAMP) $(LAB_SETTINGS)
	@args="$(LAB_ARGS)"; \
	if [ "$$(id -u)" = 0 ]; then args="$$args --allow-root"; fi; \
	if ! $(BIN)/python -c 'import webbrowser; webbrowser.get()' 2>/dev/null; then \
		args="$$args --no-browser"; \
		echo "No web browser found: open the http://...lab?token=... address Jupyter prints below."; \
	fi; \
	exec $(BIN)/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks/00-welcome.ipynb \
		--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate $$args

# One PDF per lesson and per exercise sheet (no solutions) in handouts/, from the saved notebooks,
# printed by headless Chromium (apt-get install chromium); no LaTeX.
handouts: $(STAMP)
	@$(BIN)/gofish-teach handouts handouts

# The Table and the Explorer as a web page of their own (Voila), for a projector or a class that has
# never opened JupyterLab. Prints the address; as root and without a browser too. PLAY_ARGS adds
# options, e.g. --port=9000 --ip=0.0.0.0 (let the class connect) --rules=family --seed=7.
play: $(STAMP)
	@exec $(BIN)/gofish-teach play $(PLAY_ARGS)

# ruff (pyflakes, bugbear, import order) on the code and its tests, and mypy on the engine's core, both set
# in pyproject.toml; a finding fails the build before any test runs.
lint: $(STAMP)
	@$(BIN)/ruff check --quiet gofish_teach tests benchmarks solutions/key
	@$(BIN)/mypy

# The checks above first (make lint), then one pytest run: unit, scenario and property tests, the
# docstring examples, and every committed notebook checked cell by cell against its saved outputs
# (strict nbval); pytest recurses into notebooks/, so the teacher's kit (notebooks/teacher/) is checked too.
# It ends with the 30 slowest tests, to keep an eye on the suite's length.
test: lint
	@$(BIN)/python -m pytest --doctest-modules --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--durations=30 gofish_teach tests notebooks solutions

# One table of ratios from one run: this code against commit 55d70c6 (the readable engine and the fast
# path), then the exact-probability timings (benchmarks/bench.py says how; BENCH_ARGS="--quick" for a short
# run, "--all" for the older sections too). The baseline's package is taken from git into the venv's folder
# once; GOFISH_BENCH_BASELINE=PATH (a checkout of 55d70c6) takes its place.
BENCH_BASELINE := $(VENV)/bench-55d70c6
$(BENCH_BASELINE)/gofish_teach/__init__.py:
	@mkdir -p $(BENCH_BASELINE)
	@git archive 55d70c6 gofish_teach | tar -x -C $(BENCH_BASELINE)

bench: $(STAMP) $(BENCH_BASELINE)/gofish_teach/__init__.py
	@GOFISH_BENCH_BASELINE="$${GOFISH_BENCH_BASELINE:-$(BENCH_BASELINE)}" $(BIN)/python -m benchmarks.bench $(BENCH_ARGS)

# The cases the checks ship (gofish_teach/exercises/data/), made from the answer key (solutions/key/, which never
# ships): each public case's answer, and for a lesson check a pool of hidden cases sealed as salted hashes. Run it
# after editing the key or a check's inputs; a test fails while the data differs from what the key makes.
casedata: $(STAMP)
	@$(BIN)/python -m gofish_teach.exercises.casedata > /dev/null

# Re-run every notebook top to bottom and save its outputs (do this after changing code they use);
# the exercises are rebuilt from the solutions and saved as run in their unfinished state.
# No timing metadata (JupyterLab deletes it when a cell runs), no widget state, streams joined as
# JupyterLab joins them (gofish_teach.teacher.notebooks), so opening, Run All and saving changes no byte.
notebooks: $(STAMP) casedata
	@for nb in notebooks/*.ipynb notebooks/teacher/*.ipynb solutions/*.ipynb; do [ -e "$$nb" ] || continue; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.record_timing=False --ExecutePreprocessor.store_widget_state=False "$$nb" || exit 1; done
	@$(BIN)/python -m gofish_teach.teacher.notebooks notebooks/*.ipynb notebooks/teacher/*.ipynb solutions/*.ipynb
	@$(BIN)/python -m gofish_teach.exercises.build > /dev/null

clean:
	rm -rf $(VENV)
