# Two commands for everyone: `make run` to host a game, `make test` to check the code.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Four workers on two cores: the cores stay busy while two workers wait on a server or a
# clock (docs/testing.md has the runs side by side, `make suite-time`).
PYTEST_ARGS ?= -n 4

.PHONY: architecture run test lint fuzz bench flakes screenshots soak walk-night soak-tournaments suite-time bench-tables bench-tables-baseline bench-clock bench-standings bench-tournament messages

# The suite keeps Python's bytecode cache (__pycache__, which git ignores) even where the
# environment turns it off (PYTHONDONTWRITEBYTECODE, set on some CI machines): without it
# every process the suite starts (its workers, each manage.py and server) compiles every
# module it imports again, and pytest rewrites every test module's asserts again:
# collecting the suite took 8.7 s of CPU in each worker, 3.7 s with the cache. `make run`
# keeps it too: the packages are installed without their bytecode (below).
run test lint flakes screenshots suite-time soak walk-night: export PYTHONDONTWRITEBYTECODE =

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when a requirements file changes. --no-compile: pip would
# compile every module of every package (Django's contrib apps, Twisted, mypy,
# hypothesis...), half of a fresh clone's install (17-24 s against 8-10); Python compiles
# what a process imports on first use instead, and keeps it (the bytecode cache, above).
$(VENV)/.installed: requirements.txt | $(PY)
	$(PY) -m pip install --quiet --no-compile -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --no-compile -r requirements-dev.txt
	touch $@ $(VENV)/.installed

# The local embedded run, nothing else needed. Debug pages only on the loopback address:
# served to the Wi-Fi (HOST=0.0.0.0) it runs without them, over plain HTTP on the LAN.
# The links in e-mails and the TV's QR code use the address served on (SITE_URL overrides):
# `manage.py serve` derives it from HOST and PORT.
LOOPBACK := $(filter 127.0.0.1 localhost ::1,$(HOST))
run: export DEBUG ?= $(if $(LOOPBACK),1,0)
run: export SECURE_SSL_REDIRECT ?= 0
run: export SESSION_COOKIE_SECURE ?= 0
run: export CSRF_COOKIE_SECURE ?= 0
run: export SECURE_HSTS_SECONDS ?= 0
run: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py load_demo_tables
	$(PY) manage.py load_demo_tournaments
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# The import graph between the apps (docs/architecture.md); fails if an arrow points up.
architecture: $(VENV)/.installed-dev
	$(PY) -m config.architecture

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy tables/engine
	$(VENV)/bin/lint-imports

# DATABASE_URL and REDIS_URL are used when set; otherwise SQLite and embedded mode.
test: lint
	$(VENV)/bin/pytest $(PYTEST_ARGS)

fuzz: $(VENV)/.installed-dev
	$(PY) tests/engine/fuzz_hands.py --hands 1000000

bench: $(VENV)/.installed-dev
	$(PY) benchmarks/engine.py

# Live tables: kill the server with SIGKILL 50 times mid-hand (the suite does it 5 times).
# The browser and whole-run tests five times in a row on a busy machine (two processes
# spinning on the cores): a flake shows here, by hand, not in CI (FLAKES_ARGS to change).
flakes: $(VENV)/.installed-dev
	$(PY) tests/busy_runs.py $(FLAKES_ARGS)

# The browser tests with their pictures: every page they open on a phone, a laptop or the
# TV saved in test-artifacts/ to look at (`make test` takes none: a picture checks nothing).
screenshots: $(VENV)/.installed-dev
	SCREENSHOTS=1 $(VENV)/bin/pytest $(PYTEST_ARGS) -m browser -q

# Where the suite's time goes: the whole suite once, the host's CPU, the pytest tree's and
# what ran outside it (Chromium's renderers), per test file (SUITE_ARGS: pytest's arguments).
SUITE_ARGS ?= -n 4
suite-time: $(VENV)/.installed-dev
	$(PY) benchmarks/suite_time.py -- $(SUITE_ARGS)

soak: $(VENV)/.installed-dev
	TABLES_SOAK_KILLS=50 $(VENV)/bin/pytest tests/tables/test_restart.py -q

# A whole tournament night in the browser, English and French, the console at 390x844 and
# the TV at 1920x1080; screenshots in test-artifacts/night-walk/.
walk-night: $(VENV)/.installed-dev
	NIGHT_WALK=1 SCREENSHOTS=1 $(VENV)/bin/pytest tests/tournaments/test_night_walk_browser.py -q

# Live tables: N tables of six bots over real WebSockets, embedded then two daphnes.
bench-tables: $(VENV)/.installed-dev
	$(PY) benchmarks/tables_load.py

# The same, each round run side by side with a bare Channels relay (the yardstick), with
# the ratios of their latencies and the table counts where p99 passes 100 ms.
bench-tables-baseline: $(VENV)/.installed-dev
	$(PY) benchmarks/tables_load.py --baseline --find-100ms

# The blind clock: fifty tournaments with one-minute levels, how late each level change
# reaches a clock page's socket. Distributed: DATABASE_URL (a database it may empty) and
# REDIS_URL set, and CLOCK_ARGS="--modes distributed --wipe-database".
CLOCK_ARGS ?= --modes embedded
bench-clock: $(VENV)/.installed-dev
	$(PY) benchmarks/clock.py $(CLOCK_ARGS)

# The series' standings: recomputing a season of 50 events and 200 players.
bench-standings: $(VENV)/.installed-dev
	$(PY) benchmarks/standings.py

# The translation catalogs: collect every message of the code into locale/fr/LC_MESSAGES
# (django.po for Python and templates, djangojs.po for the browser's scripts), then compile
# the .mo files with polib. Collecting needs GNU gettext's xgettext (Debian: gettext);
# compiling, running and testing do not: the .mo files are committed.
MESSAGES_IGNORE := --ignore=.venv --ignore=tests --ignore=benchmarks --ignore=var \
	--ignore=staticfiles --ignore=static/vendor --ignore=test-artifacts
messages: $(VENV)/.installed-dev
	DEBUG=1 $(PY) manage.py makemessages --locale fr --no-obsolete $(MESSAGES_IGNORE)
	DEBUG=1 $(PY) manage.py makemessages --domain djangojs --locale fr --no-obsolete $(MESSAGES_IGNORE)
	DEBUG=1 $(PY) manage.py compile_catalogs
# An online tournament of 300 house bots (50 tables of six) to one winner: embedded, then
# distributed (needs DATABASE_URL on PostgreSQL and REDIS_URL; TOURNAMENT_ARGS to change).
bench-tournament: $(VENV)/.installed-dev
	$(PY) benchmarks/tournament.py $(TOURNAMENT_ARGS)

# Online tournaments played to the end through the real servers by people (pages and table
# sockets) and house bots: six tournaments, embedded, then distributed (DATABASE_URL on
# PostgreSQL and REDIS_URL; a private redis-server). Fails when a goal does: every
# tournament finished, no 5xx, no refused socket, no failed task, no table 10 s late, chips
# exact. SOAK_ARGS to change, e.g. SOAK_ARGS="--tournaments 2 --modes embedded --busy 2".
SOAK_ARGS ?=
soak-tournaments: $(VENV)/.installed-dev
	$(PY) benchmarks/soak_tournaments.py $(SOAK_ARGS)
