#!/usr/bin/env bash
# Live NetBox check (`make test-netbox`): stand up a real NetBox (PyPI package `netbox`) with
# PostgreSQL and Redis from Debian packages on loopback, and check three independent cases, side
# by side (each in its own NetBox database of one PostgreSQL; the machine has 2 cores):
#
# 1. CSV: two Hallwright designs imported as two sites of one NetBox through NetBox's own
#    bulk-import views (every row imported; device, interface, cable, module and patch-panel
#    counts, lengths, cable traces), then each site's lists read back by import-netbox;
# 2. library: a NetBox holding the devicetype-library's NVIDIA types first (manufacturer
#    Nvidia), the export named as the library names them imports with 0 failed rows and no
#    duplicate type, and import-netbox from that NetBox brings every link back;
# 3. push: push-netbox --types library through the REST API into a NetBox holding the library
#    types (dry run, push, idempotent re-push, one rack moved: only its objects change, traces,
#    the way back over REST), and a cross-connect pod pushed with Hallwright's own names.
#
# Default pods (CI, a few minutes): 8-node DGX H100 rail-optimized pods whose device names and
# device types repeat, one of them cabled cross-connect (rack-top MPO panels, trunks, cords:
# traces run through the panels). NETBOX_PODS=full (`make netbox-check`) adds a 16-node pod and a
# 2-rack GB200 NVL72 with its 2,592 NVLink backplane cables, and pushes a 1,024-node pod
# (NETBOX_PUSH_NODES to change it) instead of the 8-node one.
#
# Every phase prints one timing line (`test-netbox: phase ...`: wall seconds, and the CPU
# seconds of the processes it ran). Everything it starts is private to this run (a throw-away
# PostgreSQL cluster and Redis on free loopback ports, in a temporary folder) and is stopped on
# exit. The NetBox virtual environment is kept in $HALLWRIGHT_NETBOX_HOME (default
# ~/.cache/hallwright-netbox) so later runs skip the pip install, and the migrated empty
# database as a dump beside it so later runs skip the ~900 migrations.
# Usage: tests/netbox_live/run_live_import.sh [DESIGN ...]
set -euo pipefail
set -o errtrace
trap 'echo "test-netbox: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR
RUN_START=$(date +%s)
cd "$(dirname "$0")/../.."
REPO=$PWD
NETBOX_VERSION=${NETBOX_VERSION:-4.7.3}
NB_HOME=${HALLWRIGHT_NETBOX_HOME:-$HOME/.cache/hallwright-netbox}
PY_HALL=${PY_HALL:-$REPO/.venv/bin/python}
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)

RUN_DIR=$(mktemp -d /tmp/hallwright-netbox.XXXXXX)
chmod 755 "$RUN_DIR"
PG_PID=""
JOBS=()
kill_tree() {  # a process and everything it started, children first
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null || true); do kill_tree "$child"; done
    kill "$1" 2>/dev/null || true
}
cleanup() {
    local pid
    trap - ERR  # what is already gone is no failure here
    for pid in "${JOBS[@]}"; do kill_tree "$pid"; done
    for pid in "$RUN_DIR"/*.server-pid; do
        [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    if [ -n "$PG_PID" ]; then
        runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$RUN_DIR/pg" -m fast stop >/dev/null 2>&1 || true
    fi
    if [ -f "$RUN_DIR/redis.pid" ]; then kill "$(cat "$RUN_DIR/redis.pid")" 2>/dev/null || true; fi
    # NETBOX_KEEP_EXPORTS=DIR keeps the exports, NetBox's lists and the designs for a look.
    if [ -n "${NETBOX_KEEP_EXPORTS:-}" ] && [ -d "$RUN_DIR/exports" ]; then
        rm -rf "$NETBOX_KEEP_EXPORTS" && cp -r "$RUN_DIR/exports" "$NETBOX_KEEP_EXPORTS"
        cp "$RUN_DIR"/*.hall.json "$NETBOX_KEEP_EXPORTS/" 2>/dev/null || true
    fi
    rm -rf "$RUN_DIR"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PG_PORT=$(free_port)
REDIS_PORT=$(free_port)
NB_PORT=$(free_port)
now_ms() { date +%s%3N; }
# The CPU ms of this shell's finished children between two `times` outputs (its second line,
# children's user and system time: bash's `times` must run in the shell itself, not in $(...)).
cpu_between() {
    python3 -c 'import re, sys
def ms(path):
    line = open(path).read().splitlines()[1]
    return sum(float(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.]+)s", line)) * 1000
print(int(ms(sys.argv[2]) - ms(sys.argv[1])))' "$1" "$2"
}
# `timed NAME COMMAND...`: one line per phase, its wall time and the CPU seconds of the
# processes it ran (the servers' own CPU, PostgreSQL's and NetBox's, is not in it).
timed() {
    local name=$1 start rc=0
    shift
    local clock=$RUN_DIR/.times.$BASHPID  # this shell's: $BASHPID differs inside $(...)
    start=$(now_ms)
    times >"$clock.start"
    # In the background and waited for: a command run as `cmd || rc=$?` would run with set -e
    # off inside it (bash ignores -e in such a list), and a failing step would not stop it.
    "$@" &
    wait $! || rc=$?
    times >"$clock.end"
    local wall_ms=$(($(now_ms) - start)) cpu_used
    cpu_used=$(cpu_between "$clock.start" "$clock.end")
    printf 'test-netbox: phase %-34s %6d.%d s wall, %5d.%d s CPU%s\n' "$name" \
        $((wall_ms / 1000)) $((wall_ms % 1000 / 100)) $((cpu_used / 1000)) \
        $((cpu_used % 1000 / 100)) "$([ "$rc" -eq 0 ] || echo ", FAILED (exit $rc)")"
    return "$rc"
}
# Independent phases run side by side (2 cores): each in the background, its output kept in
# a log and printed whole when it ends, so the lines of two phases never interleave.
start_job() {  # start_job NAME FUNCTION [ARGS...]
    local name=$1
    shift
    ( timed "$name" "$@" ) >"$RUN_DIR/job-$name.log" 2>&1 &
    JOBS+=($!)
    eval "JOB_$name=$!"
}
finish_job() {  # finish_job NAME: waits, prints its log; its exit status
    local name=$1 pid rc=0
    pid=$(eval "echo \$JOB_$name")
    wait "$pid" || rc=$?
    cat "$RUN_DIR/job-$name.log"
    return "$rc"
}

debian_packages() {
    local need_apt=()
    [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || need_apt+=(postgresql)
    command -v redis-server >/dev/null || need_apt+=(redis-server)
    if [ ${#need_apt[@]} -gt 0 ]; then
        echo "installing ${need_apt[*]} (Debian packages)"
        # Another apt run (unattended upgrades, a parallel job) holds dpkg's lock: wait for it
        # up to 10 minutes instead of failing at once (a run failed so).
        apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
            "${need_apt[@]}" >/dev/null
    fi
    # The daemons Debian starts with the packages are not used: this run has its own.
}

find_python312() {
    for candidate in python3.13 python3.12 "$HOME/.pyenv/versions/3.12"*/bin/python3.12 \
        "$HOME/.pyenv/versions/3.13"*/bin/python3.13; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
            command -v "$candidate"
            return
        fi
    done
    echo "NetBox needs Python >= 3.12 and none was found" >&2
    exit 2
}
netbox_venv() {
    mkdir -p "$NB_HOME"
    if ! "$NB_HOME/venv/bin/python" -c "import importlib.metadata as m, sys; \
sys.exit(m.version('netbox') != '$NETBOX_VERSION')" 2>/dev/null; then
        echo "installing netbox==$NETBOX_VERSION into $NB_HOME/venv (cold cache)"
        rm -rf "$NB_HOME/venv"
        "$(find_python312)" -m venv "$NB_HOME/venv"
        "$NB_HOME/venv/bin/pip" install -q --upgrade pip
        "$NB_HOME/venv/bin/pip" install -q "netbox==$NETBOX_VERSION"
    fi
}

timed "package check (Debian)" debian_packages
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
# --------------------------------------------------------------------------- services
# PostgreSQL refuses to run as root: the cluster belongs to the postgres user Debian creates.
# Two NetBox databases, so the two halves run side by side without meeting each other's
# objects: netbox (Hallwright's own names, the CSV sites) and netbox_lib (the devicetype-
# library's types loaded first, the library-named CSV site, then the REST pushes).
DATABASES=(netbox netbox_lib)
DUMP=$NB_HOME/migrated-$NETBOX_VERSION.dump
start_services() {
    mkdir -p "$RUN_DIR/pg" "$RUN_DIR/pgsock"
    chown postgres "$RUN_DIR/pg" "$RUN_DIR/pgsock"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$RUN_DIR/pg" -A trust -U postgres -E UTF8 >/dev/null
    # A throw-away cluster, made again by every run: nothing it writes must survive a crash, so
    # no fsync, no wait for the WAL at commit, no full-page images after a checkpoint and only
    # the WAL crash recovery needs (no replication); no JIT compiling of a query's plan (NetBox's
    # queries are short, and a compile costs more CPU than it saves).
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$RUN_DIR/pg" -l "$RUN_DIR/pg/log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $RUN_DIR/pgsock -c fsync=off \
-c synchronous_commit=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 \
-c jit=off" start >/dev/null
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
        --dir "$RUN_DIR" --logfile "$RUN_DIR/redis.log" --daemonize yes \
        --pidfile "$RUN_DIR/redis.pid"
}
psql_do() { runuser -u postgres -- "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres "$@"; }
# A fresh database takes NetBox's ~900 migrations (minutes on 2 shared cores); the migrated
# empty database is kept as a dump beside the virtual environment (named by NetBox version:
# written only after `netbox migrate` succeeded, so a restored dump lacks no migration) and
# restored on later runs. The other database is a copy of the first (CREATE DATABASE ...
# TEMPLATE: a file copy, well under a second).
restore_databases() {
    psql_do -c "CREATE DATABASE netbox"
    if [ -s "$DUMP" ]; then
        # read by root: the postgres user cannot see $HOME
        runuser -u postgres -- "$PG_BIN/pg_restore" -h 127.0.0.1 -p "$PG_PORT" -U postgres \
            -d netbox --no-owner <"$DUMP"
        echo "netbox $NETBOX_VERSION: restored the migrated database"
    else
        echo "netbox $NETBOX_VERSION: migrating a fresh database (cold cache)"
        NETBOX_ROOT=$RUN_DIR/nb-netbox "$NB_HOME/venv/bin/netbox" migrate --no-input \
            >"$RUN_DIR/migrate.log" 2>&1 || { tail -n 30 "$RUN_DIR/migrate.log"; return 1; }
        runuser -u postgres -- "$PG_BIN/pg_dump" -h 127.0.0.1 -p "$PG_PORT" -U postgres -Fc \
            netbox >"$DUMP.tmp" && mv "$DUMP.tmp" "$DUMP"
    fi
    local db
    for db in "${DATABASES[@]:1}"; do psql_do -c "CREATE DATABASE $db TEMPLATE netbox"; done
}
# One NETBOX_ROOT (configuration) per database; each NetBox its own two Redis databases.
write_conf() {  # write_conf DATABASE INDEX
    local root=$RUN_DIR/nb-$1
    mkdir -p "$root/conf" "$root/media" "$root/reports" "$root/scripts"
    touch "$root/conf/__init__.py"
    cat >"$root/conf/configuration.py" <<CONF
ALLOWED_HOSTS = ['localhost', '127.0.0.1', 'testserver']
DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': '$1',
             'USER': 'postgres', 'PASSWORD': '', 'HOST': '127.0.0.1', 'PORT': '$PG_PORT',
             'CONN_MAX_AGE': 300}}
REDIS = {
    'tasks': {'HOST': '127.0.0.1', 'PORT': $REDIS_PORT, 'DATABASE': $((2 * $2)), 'SSL': False},
    'caching': {'HOST': '127.0.0.1', 'PORT': $REDIS_PORT, 'DATABASE': $((2 * $2 + 1)), 'SSL': False},
}
SECRET_KEY = '$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')'
# Loopback only: nothing phones home.
CENSUS_REPORTING_ENABLED = False
ISOLATED_DEPLOYMENT = True
MEDIA_ROOT = '$root/media'
REPORTS_ROOT = '$root/reports'
SCRIPTS_ROOT = '$root/scripts'
CONF
}
for i in "${!DATABASES[@]}"; do write_conf "${DATABASES[$i]}" "$i"; done
services() {
    PG_PID=started  # stopped on exit from here on, whatever happens in between
    timed "service start (PostgreSQL, Redis)" start_services &&
        timed "dump restore (2 databases)" restore_databases
}

# --------------------------------------------------------------------------- designs
# Exported by this checkout's Hallwright while the services start (all in one process).
EXPORT_DIR=$RUN_DIR/exports
mkdir -p "$EXPORT_DIR"
PUSH_NODES=8
[ "${NETBOX_PODS:-small}" = full ] && PUSH_NODES=${NETBOX_PUSH_NODES:-1024}
prepare_designs() {
    "$PY_HALL" tests/netbox_live/prepare.py "$RUN_DIR" "${NETBOX_PODS:-small}" "$PUSH_NODES" "$@"
}

start_job designs prepare_designs "$@"
timed "NetBox venv check" netbox_venv
services_ok=0
services || services_ok=$?
finish_job designs
[ "$services_ok" -eq 0 ] || exit "$services_ok"

# --------------------------------------------------------------------------- cases
status=0
# One site's way back: its NetBox lists through import-netbox, compared with its design. Exit
# 1 of import-netbox: the design was written, some objects not brought back (listed);
# round_trip.py says whether what came back is the design. Only 2 (bad input) or worse fails.
round_trip() {  # round_trip DESIGN LISTS BACK
    local rc=0
    "$PY_HALL" main.py import-netbox "$2" -o "$3" || rc=$?
    if [ "$rc" -gt 1 ]; then echo "FAIL import-netbox of $2 (exit $rc)" >&2; return 1; fi
    "$PY_HALL" tests/netbox_live/round_trip.py "$1" "$3"
}
# Case 1: Hallwright's own names, the sites whose device names and types repeat, into one
# NetBox through its bulk-import views, then each site's way back.
csv_sites() {
    local rc=0 site
    NETBOX_ROOT=$RUN_DIR/nb-netbox timed "CSV import, $(($(wc -w <"$RUN_DIR/sites.txt") / 2)) sites" \
        "$NB_HOME/venv/bin/python" "$REPO/tests/netbox_live/live_import.py" \
        $(cat "$RUN_DIR/sites.txt") || rc=1
    while read -r site design; do
        [ -d "$EXPORT_DIR/$site.netbox-lists" ] || continue
        timed "round trip $site" round_trip "$design" "$EXPORT_DIR/$site.netbox-lists" \
            "$EXPORT_DIR/back-$site.hall.json" || rc=1
    done <"$RUN_DIR/designs.txt"
    return "$rc"
}
# Case 2: a NetBox holding the devicetype-library's NVIDIA types first; the export named as
# the library names them (--types-from: the held types left out) imports with 0 failed rows
# and no second type, and import-netbox from that NetBox brings every link back.
csv_library() {
    local rc=0
    NETBOX_ROOT=$RUN_DIR/nb-netbox_lib timed "CSV import into a library NetBox" \
        "$NB_HOME/venv/bin/python" "$REPO/tests/netbox_live/live_import.py" \
        --preload "$REPO/tests/data/devicetype_library_nvidia" \
        "$EXPORT_DIR/library" "$EXPORT_DIR/library.expected.json" || rc=1
    timed "round trip library" round_trip "$RUN_DIR/library.hall.json" \
        "$EXPORT_DIR/library.netbox-lists" "$EXPORT_DIR/back-library.hall.json" || rc=1
    return "$rc"
}
# Case 3, after case 2 in the same NetBox: push-netbox --types library through the REST API of
# NetBox's own server on a free loopback port, with a v1 token (v2 tokens need
# API_TOKEN_PEPPERS): the library-named pod pushed onto the site its CSV files made (the plan
# must be empty: import and push agree), one rack moved, traces, the way back over REST, a
# cross-connect pod pushed with Hallwright's names (tests/netbox_live/live_push.py).
# NETBOX_PODS=full pushes a PUSH_NODES pod of its own instead (created, then re-pushed).
PUSH_DESIGN=$RUN_DIR/library.hall.json
[ "${NETBOX_PODS:-small}" = full ] && PUSH_DESIGN=$RUN_DIR/pod-p.hall.json
# NetBox is served as its docs deploy it: gunicorn with the package's contrib/gunicorn.py
# (timeout 120 s, 3 threads a worker), NETBOX_WORKERS processes (default 3: the push sends a
# kind's independent requests side by side, and one Python process holds one core at a time).
# NETBOX_WORKERS=runserver serves with Django's development server, as before (one process).
NETBOX_WORKERS=${NETBOX_WORKERS:-3}
# Started before case 2's CSV import (its start-up then overlaps the import instead of following
# it); answering, with a token, is awaited after it (netbox_ready). Under load 8 (nice 19) the
# wait after the import was 103 s when the server started there, 10 s started before it.
serve_netbox() {
    export NETBOX_ROOT=$RUN_DIR/nb-netbox_lib
    if [ "$NETBOX_WORKERS" = runserver ]; then
        "$NB_HOME/venv/bin/netbox" runserver --noreload --skip-checks "127.0.0.1:$NB_PORT" \
            >"$RUN_DIR/runserver.log" 2>&1 &
    else
        local contrib
        contrib=$("$NB_HOME/venv/bin/python" -c 'import netbox, pathlib
print(pathlib.Path(netbox.__file__).parent / "_data/contrib/gunicorn.py")')
        # --preload: NetBox (Django and its ~1,000 modules) is loaded once, by the master, and
        # each worker is forked from it, instead of every worker loading it again.
        "$NB_HOME/venv/bin/gunicorn" --config "$contrib" --bind "127.0.0.1:$NB_PORT" \
            --workers "$NETBOX_WORKERS" --preload netbox.wsgi >"$RUN_DIR/runserver.log" 2>&1 &
    fi
    echo $! >"$RUN_DIR/push.server-pid"
}
# The token is made once the CSV import is over: both make the 'hallwright' user when missing.
netbox_ready() {
    export NETBOX_ROOT=$RUN_DIR/nb-netbox_lib
    "$NB_HOME/venv/bin/python" -W ignore -c "
import os, secrets, django
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'netbox.settings'); django.setup()
from django.contrib.auth import get_user_model
from users.models import Token
user = get_user_model().objects.filter(username='hallwright').first() or \
    get_user_model().objects.create_superuser('hallwright', 'hw@localhost', 'unused-pw')
token = Token(user=user, version=1, write_enabled=True)
token.token = secrets.token_hex(20)
token.save()
print(token.token)" >"$RUN_DIR/token"
    for _ in $(seq 240); do
        curl -sf -o /dev/null "http://127.0.0.1:$NB_PORT/api/status/" \
            -H "Authorization: Token $(cat "$RUN_DIR/token")" && return 0
        sleep 0.5
    done
    echo "FAIL NetBox did not answer on 127.0.0.1:$NB_PORT" >&2
    tail -n 20 "$RUN_DIR/runserver.log" >&2
    return 1
}
hold_netbox() {  # until the server ends: it was started in `timed`'s subshell, not waitable here
    while kill -0 "$(cat "$RUN_DIR/push.server-pid")" 2>/dev/null; do sleep 5; done
}
rest_push() {
    timed "NetBox answers (gunicorn/runserver: $NETBOX_WORKERS, token)" netbox_ready || return 1
    if [ -n "${NETBOX_SERVE_ONLY:-}" ]; then  # a NetBox to push to by hand (measurements)
        echo "NetBox at http://127.0.0.1:$NB_PORT/ (token in $RUN_DIR/token), designs in" \
            "$RUN_DIR; NETBOX_SERVE_ONLY set: Ctrl-C (or killing this run) ends it"
        hold_netbox
        return 0
    fi
    mkdir -p "$RUN_DIR/push"
    timed "push cases ($(basename "$PUSH_DESIGN"))" "$PY_HALL" tests/netbox_live/live_push.py \
        "http://127.0.0.1:$NB_PORT" "$RUN_DIR/token" "$PUSH_DESIGN" "$RUN_DIR/push" ||
        { tail -n 20 "$RUN_DIR/runserver.log"; return 1; }
    if [ -n "${NETBOX_HOLD:-}" ]; then  # keep NetBox serving for a look (Ctrl-C ends the run)
        echo "NetBox at http://127.0.0.1:$NB_PORT/ (token in $RUN_DIR/token); NETBOX_HOLD set"
        hold_netbox
    fi
}

# NETBOX_PUSH_ONLY=1 skips the CSV imports (while developing push-netbox): the pod is then
# pushed into an empty site, and pushed again.
library_then_push() {
    local rc=0
    timed "NetBox server started" serve_netbox || return 1
    [ -n "${NETBOX_PUSH_ONLY:-}" ] || csv_library || rc=1
    rest_push || rc=1
    return "$rc"
}
[ -n "${NETBOX_PUSH_ONLY:-}" ] || start_job csv_sites csv_sites
start_job library_then_push library_then_push
[ -n "${NETBOX_PUSH_ONLY:-}" ] || finish_job csv_sites || status=1
finish_job library_then_push || status=1
# The servers' CPU, which the phase lines leave out: PostgreSQL (the postmaster, its finished
# backends, the live ones) and NetBox (its server and live workers), from /proc (clock ticks).
server_cpu() {
    local tick pg=0 pid rs=0
    tick=$(getconf CLK_TCK)
    pid=$(head -n1 "$RUN_DIR/pg/postmaster.pid" 2>/dev/null) || return 0
    pg=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat")
    for pid in $(ps -o pid= --ppid "$pid" || true); do
        pg=$((pg + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    if [ -f "$RUN_DIR/push.server-pid" ]; then  # gunicorn's master and its live workers
        pid=$(cat "$RUN_DIR/push.server-pid")
        rs=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null || echo 0)
        for pid in $(ps -o pid= --ppid "$pid" || true); do
            rs=$((rs + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
        done
    fi
    echo "test-netbox: servers' CPU: PostgreSQL $((pg / tick)) s, NetBox $((rs / tick)) s"
}
server_cpu || true
trap - ERR
if [ "$status" -ne 0 ]; then
    echo "test-netbox: FAILED (see the FAIL lines above) after $(($(date +%s) - RUN_START)) s" >&2
    exit "$status"
fi
echo "test-netbox: passed in $(($(date +%s) - RUN_START)) s"
