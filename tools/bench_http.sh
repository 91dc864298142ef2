#!/usr/bin/env bash
# HTTP throughput of the release binary on SQLite and PostgreSQL (examples/load.rs) and, right after
# Parlor's PostgreSQL moves, a pgbench baseline of the same move transaction on the same PostgreSQL
# (tools/pgbench/), in one run, with the ratio Parlor moves/s ÷ pgbench TPS. See tools/README.md.
#
#   bash tools/bench_http.sh                 # everything, 10 s per measurement
#   DURATION=5 BACKENDS=postgres bash tools/bench_http.sh
#
# Knobs (environment): DURATION (s per mode, 10), CLIENTS (16), THINK_CLIENTS (64), THINK_MS (200),
# AI_CLIENTS (4), AI_TIME_MS (100), BACKENDS ("sqlite postgres"), PG_URL
# (postgres://postgres@127.0.0.1:5432/test), OUT (target/bench_http/<time>), PARLOR_WORKERS and
# PARLOR_AI_WORKERS pass through to the server.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
CLIENTS=${CLIENTS:-16}
THINK_CLIENTS=${THINK_CLIENTS:-64}
THINK_MS=${THINK_MS:-200}
AI_CLIENTS=${AI_CLIENTS:-4}
AI_TIME_MS=${AI_TIME_MS:-100}
BACKENDS=${BACKENDS:-sqlite postgres}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432/test}
OUT=${OUT:-target/bench_http/$(date +%Y%m%d-%H%M%S)}

BIN="${CARGO_TARGET_DIR:-target}/release/parlor"
LOAD="${CARGO_TARGET_DIR:-target}/release/examples/load"
WORK=$(mktemp -d)
SERVER_PID=""
SCHEMAS=()

say() { echo "bench_http: $*" >&2; }
fail() { say "FAIL: $*"; exit 1; }

psql_q() { psql "$PG_URL" -qAt -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning; $1"; }

stop_server() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

cleanup() {
  stop_server
  for s in "${SCHEMAS[@]}"; do psql_q "DROP SCHEMA IF EXISTS $s CASCADE" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_server() { # $1 = DATABASE_URL, $2 = log file
  local port; port=$(free_port)
  DATABASE_URL="$1" PORT=$port RUST_LOG=${RUST_LOG:-warn} "$BIN" >"$2" 2>&1 &
  SERVER_PID=$!
  BASE="http://127.0.0.1:$port"
  for _ in $(seq 1 200); do
    curl -fs "$BASE/ready" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$2" >&2
  fail "server did not become ready on ${1%%\?*}"
}

# --- preconditions --------------------------------------------------------------------------------
for tool in curl python3; do command -v "$tool" >/dev/null || fail "$tool is needed"; done
case " $BACKENDS " in *" postgres "*)
  command -v psql >/dev/null || fail "psql is needed for the PostgreSQL run"
  PGBENCH=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n1 || true)
  [ -n "$PGBENCH" ] || fail "pgbench not found (PATH or /usr/lib/postgresql/*/bin)"
  psql_q "SELECT 1" >/dev/null || fail "PostgreSQL is not reachable at $PG_URL"
  ;;
esac

say "building release (parlor + examples/load)"
cargo build --release --quiet --bin parlor --example load

mkdir -p "$OUT"
CSV="$OUT/results.csv"
TABLE="$OUT/table.md"
: >"$CSV"
{
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
    "git $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' + uncommitted changes')," \
    "${DURATION} s per mode"
  echo
  echo "| backend | mode | clients | requests | req/s | p50 ms | p99 ms | max ms | errors | notes |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
} | tee "$TABLE"

load() { # label, then load arguments
  local label=$1; shift
  "$LOAD" --base "$BASE" --label "$label" --duration-secs "$DURATION" --csv "$CSV" "$@" \
    2>>"$OUT/load-$label.log" | tee -a "$TABLE"
}

# pgbench: the bare move transaction, same clients and duration, each script in a fresh schema.
pgbench_tps() { # $1 = script; sets TPS_OUT
  local schema="parlor_pgbench_$$" log="$OUT/pgbench-$(basename "$1" .sql).log"
  SCHEMAS+=("$schema")
  psql_q "DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema"
  PGOPTIONS="-c search_path=$schema" psql "$PG_URL" -q -v clients="$CLIENTS" -v filler=5000 \
    -f tools/pgbench/init.sql >/dev/null
  PGOPTIONS="-c search_path=$schema" "$PGBENCH" -n -M prepared -c "$CLIENTS" -j 2 -T "$DURATION" \
    -D v=0 -f "$1" "$PG_URL" >"$log" 2>&1 || { cat "$log" >&2; fail "pgbench $1 failed"; }
  psql_q "DROP SCHEMA $schema CASCADE"
  grep -q 'failed transactions: 0 ' "$log" || { cat "$log" >&2; fail "pgbench $1 had failed transactions"; }
  TPS_OUT=$(sed -nE 's/^tps = ([0-9.]+) \(without initial connection time\)/\1/p' "$log")
  [ -n "$TPS_OUT" ] || fail "no tps line in $log"
}

run_backend() { # $1 = label, $2 = DATABASE_URL
  local label=$1 url=$2
  say "$label: starting the server"
  start_server "$url" "$OUT/server-$label.log"
  load "$label" --mode moves --clients "$CLIENTS"
  if [ "$label" = postgres ]; then
    # Right after Parlor's moves, so that the ratio's two sides see the same machine (the server
    # sits idle meanwhile).
    say "pgbench: $CLIENTS clients, $DURATION s"
    pgbench_tps tools/pgbench/move.sql; TPS=$TPS_OUT
    pgbench_tps tools/pgbench/move_with_load.sql; TPS_LOAD=$TPS_OUT
  fi
  load "$label" --mode moves --clients "$THINK_CLIENTS" --think-ms "$THINK_MS"
  load "$label" --mode reads,reads-304 --clients "$CLIENTS"
  load "$label" --mode ai --ai-clients "$AI_CLIENTS" --time-ms "$AI_TIME_MS" --levels easy,normal,hard
  stop_server
  # 5xx would be server bugs: count what the server logged at error level.
  local errors; errors=$(grep -ciE '\b(error|panic)' "$OUT/server-$label.log" || true)
  [ "$errors" = 0 ] || say "$label: the server log has $errors error/panic lines: $OUT/server-$label.log"
}

for backend in $BACKENDS; do
  case $backend in
    sqlite) run_backend sqlite "sqlite://$WORK/parlor.db" ;;
    postgres)
      schema="parlor_bench_$$"
      SCHEMAS+=("$schema")
      psql_q "DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema"
      sep='?'; case $PG_URL in *\?*) sep='&' ;; esac
      run_backend postgres "$PG_URL${sep}options=-c%20search_path%3D$schema"
      psql_q "SELECT 'stored state of a 30-move game: ' || pg_column_size(state) || ' bytes (jsonb)' FROM $schema.games WHERE version = 30 LIMIT 1" >&2 || true
      psql_q "DROP SCHEMA $schema CASCADE"
      ;;
    *) fail "unknown backend $backend (sqlite, postgres)" ;;
  esac
done

# --- the ratio ---------------------------------------------------------------------------------
case " $BACKENDS " in *" postgres "*)
  MOVES=$(awk -F, '$1 == "postgres" && $2 == "moves" { print $6 }' "$CSV")
  {
    echo
    echo "| PostgreSQL, $CLIENTS clients | per second |"
    echo "| --- | ---: |"
    echo "| Parlor moves over HTTP | $MOVES |"
    echo "| pgbench move.sql (BEGIN; UPDATE … version CAS; INSERT move; COMMIT) | $TPS |"
    echo "| pgbench move_with_load.sql (+ SELECT game, SELECT seats) | $TPS_LOAD |"
    awk -v m="$MOVES" -v t="$TPS" -v l="$TPS_LOAD" 'BEGIN {
      printf "\nratio: Parlor moves/s ÷ pgbench TPS = %.2f (÷ with-load TPS = %.2f)\n", m / t, m / l }'
  } | tee -a "$TABLE"
  ;;
esac

say "results in $OUT (table.md, results.csv, server and pgbench logs)"
