# Hallwright: `make run` opens the editor, `make test` lints and runs the whole suite headless.
# Both set up the virtual environment .venv on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Installed environments kept between checkouts, one per set of dependencies; .venv links to
# the one pyproject.toml asks for (.ci/venv says how; VENV_CACHE= installs into .venv itself).
VENV_CACHE ?= $(HOME)/.cache/hallwright-venvs

.PHONY: setup run test fuzz bench lint clean test-netbox netbox-check

setup: $(STAMP)

$(STAMP): pyproject.toml
	.ci/venv $(VENV) $(PYTHON) "$(VENV_CACHE)"

run: $(STAMP)
	$(PY) main.py

# pytest-xdist workers per pytest run: "auto" is one per core (2 on the project's machines).
# worksteal: each worker starts on half of the tests and takes from the other's when done, so
# both finish together (the model tests, idle 2-core machine: 144 s with xdist's default
# scheduling, 111 s stealing; the rest of the suite ~80-86 s either way).
TEST_WORKERS ?= auto
MYPY_CACHE ?= $(HOME)/.cache/hallwright-mypy
XDIST = -n $(TEST_WORKERS) --dist worksteal

# Lint and format first (cheap, and the house rules), then the model tests with Qt blocked (a
# stray Qt import in model/ or a model test fails there), then every other test (CLI, fuzz, GUI)
# headless; each step's status stops make. Each test runs once: the model tests ran a second
# time in the whole suite before, with Qt importable, which checked nothing the first run had
# not (`pytest` alone still runs everything, the model tests first). Both runs use every core.
# Two runs, not one: one would save a start-up (~1 s CPU a worker; collection is per test, the
# model tests' 7.9 s and the rest's 5.5 s CPU in one process, paid either way) and one idle
# tail, but the GUI test modules import PySide6 when collected, before any test runs, so in one
# run a model module importing Qt (at its top or in a function) would find it imported, and no
# per-test check sees an import that sys.modules answers.
# The project is byte-compiled first (as for bench): with PYTHONDONTWRITEBYTECODE set, as in the
# project's shells, every xdist worker and every interpreter a test starts compiled ~300
# modules again (~0.7 s CPU each). mypy runs beside the model tests, not before them; its
# report follows theirs and its status fails the step like theirs. Its cache is kept between
# checkouts (MYPY_CACHE): on a fresh clone with an empty cache mypy took 27.1 s CPU, with
# another clone's cache 0.5 s (mypy checks each cached module against its source's hash, so a
# changed module, or one whose imports changed, is checked again; its path or timestamp does
# not matter). CPU of each half in one process (-n 0), user seconds: model 454 -> 248, the
# rest 359 -> 232, once a test stopped settling each design it built (tests/conftest.py).
# Test modules are not byte-compiled but assertion-rewritten, once, into pytest's own cache
# (tests/rewrite_asserts.py): with PYTHONDONTWRITEBYTECODE every xdist worker rewrote them all,
# ~8 s CPU per worker of each run (collection: model 9.6 -> 4.5 s, the rest 6.8 -> 4.0 s CPU;
# the rewrite once 7.9 s).
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m compileall -q -j 0 -x '/(test_[^/]*|[^/]*_test|conftest)\.py$$' cli gui model tests main.py
	$(PY) tests/rewrite_asserts.py
	log=$$(mktemp); MYPY_CACHE_DIR=$(MYPY_CACHE) $(PY) -m mypy > $$log 2>&1 & mypy_pid=$$!; \
	$(PY) tests/model_without_qt.py $(XDIST) tests/model; tests=$$?; \
	wait $$mypy_pid; mypy=$$?; cat $$log; rm -f $$log; \
	test $$tests -eq 0 && test $$mypy -eq 0
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(XDIST) --ignore=tests/model

# 5,000 mutated design files through validate, analyze, bom, schedule, export-netbox and render.
fuzz: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) tests/fuzz/run_fuzz.py --count 5000 --reports 2000 --netbox 500

# The project's modules are byte-compiled first, as an installed application's are (pip compiles
# what it installs): a shell with PYTHONDONTWRITEBYTECODE set would otherwise recompile ~90
# modules in every command the benchmark times (~0.15 s each).
bench: $(STAMP)
	$(PY) -m compileall -q cli gui model main.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/run_benchmarks.py

# A real NetBox (PyPI `netbox`, Python >= 3.12) with PostgreSQL and Redis on loopback, three cases
# side by side (one database each): two generated pods (one cross-connect, with patch panels) as
# two sites of one NetBox through its bulk-import views (every row, counts, traces, the way
# back); a NetBox holding the devicetype-library's NVIDIA types and the library-named export;
# push-netbox --types library (push, re-push, one rack moved, traces). Run by .ci/run.
test-netbox: $(STAMP)
	bash tests/netbox_live/run_live_import.sh

# The same with two more, heavier pods (a 16-node pod and a 2-rack NVL72 with its NVLink spine)
# and the push of a 1,024-node pod (NETBOX_PUSH_NODES=N for another size).
netbox-check: $(STAMP)
	NETBOX_PODS=full bash tests/netbox_live/run_live_import.sh

lint: $(STAMP)
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
