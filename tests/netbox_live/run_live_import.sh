#!/usr/bin/env bash
# Live NetBox check (`make test-netbox`): stand up a real NetBox (PyPI package `netbox`) with
# PostgreSQL and Redis from Debian packages on loopback, import two Hallwright designs as two sites
# of one NetBox through NetBox's own bulk-import views, and check every row imported, the device,
# interface, cable, module and patch-panel counts, lengths and cable traces.
#
# Default pods (CI, a few minutes): two 8-node DGX H100 rail-optimized pods whose device names
# and device types repeat, one of them cabled cross-connect (rack-top MPO panels, trunks, cords:
# traces run through the panels). NETBOX_PODS=full adds the heavier set (16-node pod and a
# 2-rack GB200 NVL72 with its 2,592 NVLink backplane cables; `make netbox-check`, ~15-25 min).
#
# Everything it starts is private to this run (a throw-away PostgreSQL cluster and Redis on free
# loopback ports, in a temporary folder) and is stopped on exit. The NetBox virtual environment is
# kept in $HALLWRIGHT_NETBOX_HOME (default ~/.cache/hallwright-netbox) so later runs skip the pip
# install, and the migrated empty database as a dump beside it so later runs skip the ~900
# migrations. Usage: tests/netbox_live/run_live_import.sh [DESIGN ...]
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

need_apt=()
[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || need_apt+=(postgresql)
command -v redis-server >/dev/null || need_apt+=(redis-server)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "installing ${need_apt[*]} (Debian packages)"
    # Another apt run (unattended upgrades, a parallel job) holds dpkg's lock: wait for it up
    # to 10 minutes instead of failing at once (a run failed so).
    apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
        "${need_apt[@]}" >/dev/null
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
fi
# The daemons Debian starts with the packages are not used: this run has its own.

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
mkdir -p "$NB_HOME"
if ! "$NB_HOME/venv/bin/python" -c "import importlib.metadata as m, sys; \
sys.exit(m.version('netbox') != '$NETBOX_VERSION')" 2>/dev/null; then
    echo "installing netbox==$NETBOX_VERSION into $NB_HOME/venv"
    rm -rf "$NB_HOME/venv"
    "$(find_python312)" -m venv "$NB_HOME/venv"
    "$NB_HOME/venv/bin/pip" install -q --upgrade pip
    "$NB_HOME/venv/bin/pip" install -q "netbox==$NETBOX_VERSION"
fi

RUN_DIR=$(mktemp -d /tmp/hallwright-netbox.XXXXXX)
chmod 755 "$RUN_DIR"
PG_PID=""
REDIS_PID=""
NB_PID=""
cleanup() {
    if [ -n "$NB_PID" ]; then kill "$NB_PID" 2>/dev/null || true; fi
    if [ -n "$PG_PID" ]; then
        runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$RUN_DIR/pg" -m fast stop >/dev/null 2>&1 || true
    fi
    if [ -n "$REDIS_PID" ]; then kill "$REDIS_PID" 2>/dev/null || true; fi
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

# PostgreSQL refuses to run as root: the cluster belongs to the postgres user Debian creates.
mkdir -p "$RUN_DIR/pg" "$RUN_DIR/pgsock"
chown postgres "$RUN_DIR/pg" "$RUN_DIR/pgsock"
runuser -u postgres -- "$PG_BIN/initdb" -D "$RUN_DIR/pg" -A trust -U postgres -E UTF8 >/dev/null
runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$RUN_DIR/pg" -l "$RUN_DIR/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $RUN_DIR/pgsock -c fsync=off" start >/dev/null
PG_PID=started
runuser -u postgres -- "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres netbox

redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --dir "$RUN_DIR" --logfile "$RUN_DIR/redis.log" &
REDIS_PID=$!

export NETBOX_ROOT=$RUN_DIR/nb
mkdir -p "$NETBOX_ROOT/conf" "$NETBOX_ROOT/media" "$NETBOX_ROOT/reports" "$NETBOX_ROOT/scripts"
touch "$NETBOX_ROOT/conf/__init__.py"
cat >"$NETBOX_ROOT/conf/configuration.py" <<CONF
ALLOWED_HOSTS = ['localhost', '127.0.0.1', 'testserver']
DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': 'netbox',
             'USER': 'postgres', 'PASSWORD': '', 'HOST': '127.0.0.1', 'PORT': '$PG_PORT',
             'CONN_MAX_AGE': 300}}
REDIS = {
    'tasks': {'HOST': '127.0.0.1', 'PORT': $REDIS_PORT, 'DATABASE': 0, 'SSL': False},
    'caching': {'HOST': '127.0.0.1', 'PORT': $REDIS_PORT, 'DATABASE': 1, 'SSL': False},
}
SECRET_KEY = '$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')'
# Loopback only: nothing phones home.
CENSUS_REPORTING_ENABLED = False
ISOLATED_DEPLOYMENT = True
MEDIA_ROOT = '$NETBOX_ROOT/media'
REPORTS_ROOT = '$NETBOX_ROOT/reports'
SCRIPTS_ROOT = '$NETBOX_ROOT/scripts'
CONF

# A fresh database takes NetBox's ~900 migrations (minutes on 2 shared cores); the migrated
# empty database is kept as a dump beside the virtual environment and restored on later runs.
DUMP=$NB_HOME/migrated-$NETBOX_VERSION.dump
start=$(date +%s)
if [ -s "$DUMP" ]; then
    runuser -u postgres -- "$PG_BIN/pg_restore" -h 127.0.0.1 -p "$PG_PORT" -U postgres \
        -d netbox --no-owner <"$DUMP"  # read by root: the postgres user cannot see $HOME
    echo "netbox $NETBOX_VERSION: restored the migrated database in $(($(date +%s) - start)) s"
else
    echo "netbox $NETBOX_VERSION: migrating a fresh database"
    "$NB_HOME/venv/bin/netbox" migrate --no-input >"$RUN_DIR/migrate.log" 2>&1 ||
        { tail -n 30 "$RUN_DIR/migrate.log"; exit 1; }
    echo "migrated in $(($(date +%s) - start)) s"
    runuser -u postgres -- "$PG_BIN/pg_dump" -h 127.0.0.1 -p "$PG_PORT" -U postgres -Fc netbox \
        >"$DUMP.tmp" && mv "$DUMP.tmp" "$DUMP"
fi
# Whatever a restored dump lacks (none when the version matches) is applied here, quickly.
"$NB_HOME/venv/bin/netbox" migrate --no-input >>"$RUN_DIR/migrate.log" 2>&1 ||
    { tail -n 30 "$RUN_DIR/migrate.log"; exit 1; }

# The two designs are exported by this checkout's Hallwright, then imported by NetBox.
EXPORT_DIR=$RUN_DIR/exports
mkdir -p "$EXPORT_DIR"
designs=("$@")
gen() { "$PY_HALL" main.py generate "$@" >/dev/null; }
if [ ${#designs[@]} -eq 0 ]; then
    # Two pods whose device names repeat (su1-node01 ...) and that share the manufacturer, roles
    # and device types: what a second site meets in a shared NetBox. Pod A is structured.
    gen rail-optimized --nodes 8 --node-type dgx-h100 --switch qm9700 --su-nodes 8 \
        --cabling cross-connect --name "Pod A (DGX H100, cross-connect)" -o "$RUN_DIR/pod-a.hall.json"
    gen rail-optimized --nodes 8 --node-type dgx-h100 --switch qm9700 --su-nodes 8 \
        --name "Pod B (DGX H100, direct)" -o "$RUN_DIR/pod-b.hall.json"
    designs=("$RUN_DIR/pod-a.hall.json" "$RUN_DIR/pod-b.hall.json")
    if [ "${NETBOX_PODS:-small}" = full ]; then
        gen rail-optimized --nodes 16 --node-type dgx-h100 --switch qm9700 --su-nodes 16 \
            --name "Pod C (DGX H100)" -o "$RUN_DIR/pod-c.hall.json"
        gen nvl72 --racks 2 --name "Pod D (GB200 NVL72)" -o "$RUN_DIR/pod-d.hall.json"
        designs+=("$RUN_DIR/pod-c.hall.json" "$RUN_DIR/pod-d.hall.json")
    fi
fi
args=()
for i in "${!designs[@]}"; do
    out="$EXPORT_DIR/site$i"
    "$PY_HALL" main.py export-netbox "${designs[$i]}" -o "$out"
    "$PY_HALL" tests/netbox_live/expected.py "${designs[$i]}" "$out.expected.json"
    args+=("$out" "$out.expected.json")
done

status=0
# NETBOX_PUSH_ONLY=1 skips the CSV imports (while developing push-netbox).
if [ -z "${NETBOX_PUSH_ONLY:-}" ]; then
    "$NB_HOME/venv/bin/python" "$REPO/tests/netbox_live/live_import.py" "${args[@]}" || status=$?
fi
# The way back: each site's NetBox lists through import-netbox, compared with its design.
for i in "${!designs[@]}"; do
    lists="$EXPORT_DIR/site$i.netbox-lists"
    [ -d "$lists" ] || continue
    # Exit 1: the design was written, some objects not brought back (listed); round_trip.py
    # says whether what came back is the design. Only 2 (bad input) or worse fails here.
    rc=0
    "$PY_HALL" main.py import-netbox "$lists" -o "$EXPORT_DIR/back$i.hall.json" || rc=$?
    if [ "$rc" -gt 1 ]; then
        echo "FAIL import-netbox of site $i (exit $rc)" >&2; status=1; continue
    fi
    "$PY_HALL" tests/netbox_live/round_trip.py "${designs[$i]}" "$EXPORT_DIR/back$i.hall.json" ||
        status=1
done

# push-netbox through the REST API of NetBox's own server on a free loopback port, with a v1
# token (v2 tokens need API_TOKEN_PEPPERS): a pod pushed, pushed again, one rack moved, traces.
NB_PORT=$(free_port)
"$NB_HOME/venv/bin/netbox" runserver --noreload --skip-checks "127.0.0.1:$NB_PORT" \
    >"$RUN_DIR/runserver.log" 2>&1 &
NB_PID=$!
TOKEN_FILE=$RUN_DIR/token
"$NB_HOME/venv/bin/python" -c "
import os, secrets, django
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'netbox.settings'); django.setup()
from django.contrib.auth import get_user_model
from users.models import Token
user = get_user_model().objects.filter(username='hallwright').first() or \
    get_user_model().objects.create_superuser('hallwright', 'hw@localhost', 'unused-pw')
token = Token(user=user, version=1, write_enabled=True)
token.token = secrets.token_hex(20)
token.save()
print(token.token)" >"$TOKEN_FILE"
for _ in $(seq 120); do
    curl -sf -o /dev/null "http://127.0.0.1:$NB_PORT/api/status/" -H "Authorization: Token $(cat "$TOKEN_FILE")" && break
    sleep 1
done
# 8 nodes by default: REST writes took ~0.4 s per module or cable on the loaded 2-core machine
# (a 32-node pod, 512 modules + 512 cables: 824 s first push, 37 s the unchanged re-push).
PUSH_NODES=8
[ "${NETBOX_PODS:-small}" = full ] && PUSH_NODES=32
gen rail-optimized --nodes "$PUSH_NODES" --su-nodes "$PUSH_NODES" --node-type dgx-h100 --switch qm9700 \
    --name "Pod P (DGX H100, pushed)" -o "$RUN_DIR/pod-p.hall.json"
mkdir -p "$RUN_DIR/push"
"$PY_HALL" tests/netbox_live/live_push.py "http://127.0.0.1:$NB_PORT" "$TOKEN_FILE" \
    "$RUN_DIR/pod-p.hall.json" "$RUN_DIR/push" || { tail -n 20 "$RUN_DIR/runserver.log"; status=1; }
if [ -n "${NETBOX_HOLD:-}" ]; then  # keep NetBox serving for a look (Ctrl-C ends the run)
    echo "NetBox at http://127.0.0.1:$NB_PORT/ (token in $TOKEN_FILE); NETBOX_HOLD set: waiting"
    wait "$NB_PID" || true
fi
trap - ERR
if [ "$status" -ne 0 ]; then
    echo "test-netbox: FAILED (see the FAIL lines above) after $(($(date +%s) - RUN_START)) s" >&2
    exit "$status"
fi
echo "test-netbox: passed in $(($(date +%s) - RUN_START)) s"
