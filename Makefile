# Companion: `make run` serves the app, `make test` runs the tests. Both set up the venv first.
# Python 3.12 (Django 6): the pyenv shim named in .python-version, else pyenv's 3.12 directly.
PY ?= $(shell command -v python3.12 2>/dev/null || ls -d $$HOME/.pyenv/versions/3.12*/bin/python 2>/dev/null | head -n 1)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

PUBLIC_URL ?=

.PHONY: run url test test-scale runtime venv migrate static chromium bench lint clean

# The scale-out stack: PostgreSQL and Redis on loopback (the platform tests run against them too).
SCALE_DATABASE_URL ?= postgres://root@127.0.0.1:5432/companion
SCALE_REDIS_URL ?= redis://127.0.0.1:6379/0

# Two venv stamps: the runtime (requirements/base.txt, all `make run` installs) and the test tools on top
# (requirements/dev.txt: pytest, playwright, ruff... for `make test`, `make bench`, `make lint`).
runtime: $(VENV)/.installed-base
venv: $(VENV)/.installed-dev

$(VENV)/.installed-base: requirements/base.txt
	@test -n "$(PY)" || { echo "Python 3.12 not found (pyenv install 3.12)"; exit 1; }
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements/base.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-base requirements/dev.txt
	$(BIN)/pip install --quiet -r requirements/dev.txt
	touch $@

# Applies migrations only when the database lacks one (`migrate --check` answers in about a second).
migrate: runtime
	@$(BIN)/python manage.py migrate --check >/dev/null 2>&1 || $(BIN)/python manage.py migrate --noinput

# Collects static files only when a file under static/ or a game's static/ (shelf/<slug>/static/), or the runtime
# packages, changed since the last collection: the stamp lives in staticfiles/, so deleting that folder collects again.
STATIC_SOURCES := $(shell find static shelf/*/static -type f 2>/dev/null)
STATIC_STAMP := staticfiles/.collected

static: $(STATIC_STAMP)

$(STATIC_STAMP): $(VENV)/.installed-base $(STATIC_SOURCES)
	$(BIN)/python manage.py collectstatic --noinput -v 0
	touch $@

# HOST=0.0.0.0 (or ::) serves every address: the URL printed, the join links and QR codes and ALLOWED_HOSTS use the
# machine's LAN address (companion/lan.py), or PUBLIC_URL when set.
# --no-proxy-headers: uvicorn would otherwise take X-Forwarded-For from any client on loopback (its default
# --forwarded-allow-ips) as the client's address; the app alone reads that header, as far as TRUSTED_PROXIES says.
run: migrate static url
	SERVE_HOST=$(HOST) STATIC_FROM_FINDERS=false $(BIN)/uvicorn companion.asgi:application --host $(HOST) --port $(PORT) --lifespan off --no-proxy-headers

# The address to open, on this machine and on the phones (printed by make run before it serves).
url:
	@$(BIN)/python -m companion.lan --host "$(HOST)" --port "$(PORT)" --public-url "$(PUBLIC_URL)"

# The browser tests (tests/e2e) drive Debian's Chromium: installed here when missing and we are root,
# otherwise make stops at once and names the one command that installs it.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's chromium for the browser tests (apt-get install chromium)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "The browser tests need Debian's Chromium. Run:  sudo apt-get install -y chromium   then make test again."; \
	    exit 1; \
	  fi; }

# The import contracts of pyproject.toml ([tool.importlinter]: layers, no cycles) first, then the tests.
test: venv chromium
	$(BIN)/lint-imports
	$(BIN)/pytest -q

test-scale: venv
	@# the database the scale-out workers use (pytest-django makes its own test database beside it)
	-@createdb -h 127.0.0.1 companion 2>/dev/null || true
	@# with both speed workarounds off, where make test runs them on (docs/architecture.md): the same behaviour either way
	DATABASE_URL=$(SCALE_DATABASE_URL) REDIS_URL=$(SCALE_REDIS_URL) INLINE_MIDDLEWARE_HOOKS=false GC_TUNING=false \
	  $(BIN)/pytest -q tests/web tests/api tests/realtime scale_tests

bench: venv
	for f in tests/bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

lint: venv
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
