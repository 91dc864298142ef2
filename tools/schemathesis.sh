#!/usr/bin/env bash
# Schema-driven fuzzing: schemathesis (PyPI) against our own /openapi.json, every operation, all
# phases (examples, coverage, fuzzing, stateful): no 5xx, every response matches its documented
# status, headers, content type and schema, undocumented methods get 405, schema-violating
# requests are refused. Runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
#
# A fresh seed each run, printed; replay a run with SCHEMATHESIS_SEED=<seed>. More examples per
# operation: SCHEMATHESIS_EXAMPLES (default 100). Settings in tools/schemathesis.toml (stateful
# links declared by the hooks; fail when an operation never gets past auth, or never past
# validation); tools/schemathesis_hooks.py gives the seat-token routes real games and
# their tokens.
# Event streams (`…/events`) are left out: a stream stays open until its game ends, and a
# request-and-answer fuzzer would only time out on it; tests/api/streams.rs covers them.
# One worker: with two, schemathesis once died of an internal Python error ("AST constructor
# recursion depth mismatch") on a run where every request had passed. The two databases are
# fuzzed at once instead, by two schemathesis processes, each on a core.
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-100}
SEED=${SCHEMATHESIS_SEED:-$(python3 -c 'import secrets; print(secrets.randbelow(2**31))')}
export SCHEMATHESIS_SEED=$SEED SCHEMATHESIS_HOOKS=schemathesis_hooks
export PYTHONPATH="$PWD/tools${PYTHONPATH:+:$PYTHONPATH}"
echo "schemathesis: seed $SEED (replay: SCHEMATHESIS_SEED=$SEED bash tools/schemathesis.sh)"
command -v st >/dev/null || python3 -m pip install --quiet 'schemathesis>=4,<5'
BIN=${PARLOR_BIN:-}
if [ -z "$BIN" ]; then
  cargo build --release --quiet
  BIN="${CARGO_TARGET_DIR:-target}/release/parlor"
fi
WORK=$(mktemp -d)
# The fuzz runs and their servers (each writes its server's pid), killed on exit.
cleanup() {
  jobs -p | xargs -r kill 2>/dev/null || true
  cat "$WORK"/*/server.pid 2>/dev/null | xargs -r kill 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Two two-human games of every turn game the document lists, and two decks, for the hooks:
# "game/id:token:token,…" and "id,…".
# The create bodies come from the games' examples in the document (tools/fuzz_games.py).
seed_games() { # $1 = base URL
  local games="" body kind doc open
  doc=$(curl -fsS "$1/openapi.json")
  for kind in $(python3 tools/fuzz_games.py kinds <<<"$doc"); do
    # Two full games, and one with an open seat for `join`.
    for open in 0 0 1; do
      body=$(curl -fsS -X POST "$1/v1/$kind/games" -H 'content-type: application/json' \
        -d "$(python3 tools/fuzz_games.py body "$kind" "$open" <<<"$doc")")
      games+=$(python3 -c 'import json,sys; k=sys.argv[1]; b=json.load(sys.stdin); print(k + "/" + b["id"] + "".join(":" + t["token"] for t in b["tokens"]), end=",")' "$kind" <<<"$body")
    done
  done
  echo "$games"
}
seed_decks() { # $1 = base URL
  local decks="" body
  for _ in 1 2; do
    body=$(curl -fsS -X POST "$1/v1/poker/decks" -H 'content-type: application/json' -d '{}')
    decks+=$(python3 -c 'import json,sys; b=json.load(sys.stdin); print(b["id"] + ":" + b["token"], end=",")' <<<"$body")
  done
  echo "$decks"
}

seed_players() { # $1 = base URL: two registered players, "name:key,…"
  local players="" body name
  for name in fuzz-player-1 fuzz-player-2; do
    body=$(curl -fsS -X POST "$1/v1/players" -H 'content-type: application/json' -d "{\"name\": \"$name\"}")
    players+=$(python3 -c 'import json,sys; b=json.load(sys.stdin); print(b["name"] + ":" + b["key"], end=",")' <<<"$body")
  done
  echo "$players"
}

fuzz() { # $1 = DATABASE_URL, $2 = a name for its files
  local port pid dir="$WORK/$2"
  mkdir -p "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  # A creation quota ten times the default: the fuzzer creates far faster than a client, and its
  # creations should reach the logic behind the quota (whose 429 it still meets).
  DATABASE_URL="$1" PORT=$port RUST_LOG=warn PARLOR_CREATE_RATE_PER_MINUTE=6000 "$BIN" >"$dir/server.log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/server.pid"
  for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
  PARLOR_FUZZ_BASE="http://127.0.0.1:$port" PARLOR_FUZZ_GAMES=$(seed_games "http://127.0.0.1:$port") \
  PARLOR_FUZZ_DECKS=$(seed_decks "http://127.0.0.1:$port") \
  PARLOR_FUZZ_KEYS=$(seed_players "http://127.0.0.1:$port") \
  st --config-file tools/schemathesis.toml run "http://127.0.0.1:$port/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,negative_data_rejection \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "$EXAMPLES" --workers 1 --seed "$SEED" --no-color \
    --exclude-path-regex '/events$' \
    || { tail -n 50 "$dir/server.log"; echo "schemathesis ($2): FAILED with seed $SEED (replay: SCHEMATHESIS_SEED=$SEED bash tools/schemathesis.sh)" >&2; kill "$pid"; return 1; }
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

# Both databases at once, each fuzzer on its own core; their output follows, one after the other.
run_fuzz() { # $1 = DATABASE_URL, $2 = name
  fuzz "$1" "$2" >"$WORK/$2.out" 2>&1
}

mkdir -p "$WORK/sqlite"
run_fuzz "sqlite://$WORK/sqlite/fuzz.db" sqlite &
SQLITE_RUN=$!
PG_RUN=""
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  schema="parlor_fuzz_$$"
  psql "$TEST_DATABASE_URL" -qc "SET client_min_messages = warning; DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema"
  run_fuzz "$TEST_DATABASE_URL?options=-c%20search_path%3D$schema" postgres &
  PG_RUN=$!
elif [ -n "${CI:-}" ] || [ "${PARLOR_REQUIRE_PG:-0}" = 1 ]; then
  echo "schemathesis: TEST_DATABASE_URL is not set, and CI skips nothing" >&2; exit 1
else
  echo "schemathesis: SKIPPED the PostgreSQL run: TEST_DATABASE_URL is not set"
fi
failed=0
wait "$SQLITE_RUN" || failed=1
echo "schemathesis on SQLite:"; cat "$WORK/sqlite.out"
if [ -n "$PG_RUN" ]; then
  wait "$PG_RUN" || failed=1
  echo "schemathesis on PostgreSQL:"; cat "$WORK/postgres.out"
  psql "$TEST_DATABASE_URL" -qc "SET client_min_messages = warning; DROP SCHEMA $schema CASCADE"
fi
[ "$failed" = 0 ] || exit 1
echo "schemathesis: no failures (seed $SEED)"
