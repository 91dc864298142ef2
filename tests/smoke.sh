#!/usr/bin/env bash
# Smoke test: curl against the server binary, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
# Create, move, AI move, finish, and the score survives a restart. The binary is the release build,
# or PARLOR_BIN (CI passes the one `cargo test` built, which saves a whole release build).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PARLOR_BIN:-}
if [ -z "$BIN" ]; then
  cargo build --release --quiet
  BIN="${CARGO_TARGET_DIR:-target}/release/parlor"
fi
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

fail() { echo "smoke: FAIL: $*" >&2; exit 1; }

start() { # $1 = DATABASE_URL
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  DATABASE_URL="$1" PORT=$PORT RUST_LOG=warn "$BIN" >"$WORK/server.log" 2>&1 &
  PID=$!
  BASE="http://127.0.0.1:$PORT"
  # Polls /health for up to 30 s (a busy 2-core machine can be slow to start the binary).
  for _ in $(seq 1 300); do curl -fs "$BASE/health" >/dev/null 2>&1 && return 0; sleep 0.1; done
  cat "$WORK/server.log"; fail "server did not start on $1"
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""; }

call() { # method path [json] [token] -> body on stdout, status in $WORK/status
  local args=(-s -o "$WORK/body" -w '%{http_code}' -X "$1" "$BASE$2" -H 'content-type: application/json')
  [ -n "${3:-}" ] && args+=(-d "$3")
  [ -n "${4:-}" ] && args+=(-H "authorization: Bearer $4")
  curl "${args[@]}" >"$WORK/status"
  cat "$WORK/body"
}
expect() { [ "$(cat "$WORK/status")" = "$1" ] || fail "expected HTTP $1, got $(cat "$WORK/status"): $(cat "$WORK/body")"; }

run() { # $1 = DATABASE_URL
  local url=$1 name="smoke$RANDOM$RANDOM"
  start "$url"
  curl -fs "$BASE/ready" >/dev/null || fail "not ready"
  curl -fs "$BASE/docs/" | grep -qi swagger || fail "no Swagger UI"

  # A game against the AI: one human move, one AI move.
  local g; g=$(call POST /v1/gomoku/games '{"players":[{"name":"'"$name"'"},{"ai":"hard"}]}'); expect 201
  local id tok; id=$(jq -r .id <<<"$g"); tok=$(jq -r '.tokens[0].token' <<<"$g")
  call POST "/v1/gomoku/games/$id/moves" '{"move":"h8"}' "$tok" >/dev/null; expect 200
  local ai; ai=$(call POST "/v1/gomoku/games/$id/ai-move" '{"time_ms":100}'); expect 200
  [ "$(jq -r .applied <<<"$ai")" = true ] || fail "AI move not applied"
  [ "$(jq -r .game.version <<<"$ai")" = 2 ] || fail "AI move did not bump the version"
  # Resigning against the AI costs the seed's 100 points (a hot-seat game moves no score).
  call POST "/v1/gomoku/games/$id/moves" '{"move":"resign"}' "$tok" >/dev/null; expect 200

  # A human game played to five in a row.
  g=$(call POST /v1/gomoku/games '{"players":[{"name":"'"$name"'"},{"name":"rival"}]}'); expect 201
  id=$(jq -r .id <<<"$g")
  local b w; b=$(jq -r '.tokens[0].token' <<<"$g"); w=$(jq -r '.tokens[1].token' <<<"$g")
  for pair in "h8 a1" "i8 a2" "j8 a3" "k8 a4"; do
    set -- $pair
    call POST "/v1/gomoku/games/$id/moves" '{"move":"'"$1"'"}' "$b" >/dev/null; expect 200
    call POST "/v1/gomoku/games/$id/moves" '{"move":"'"$2"'"}' "$w" >/dev/null; expect 200
  done
  local last; last=$(call POST "/v1/gomoku/games/$id/moves" '{"move":"l8"}' "$b"); expect 200
  [ "$(jq -r .game.status <<<"$last")" = finished ] || fail "game did not finish"
  call POST "/v1/gomoku/games/$id/moves" '{"move":"m8"}' "$w" >/dev/null; expect 409
  [ "$(call GET "/v1/players/$name" | jq -r .scores.gomoku.score)" = 900 ] || fail "score not 900"

  # The score survives a restart.
  stop
  start "$url"
  [ "$(call GET "/v1/players/$name" | jq -r .gomoku.score)" = 900 ] || fail "score lost on restart"
  stop
  echo "smoke: ok on ${url%%:*}"
}

run "sqlite://$WORK/parlor.db"
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  schema="parlor_smoke_$$"
  psql "$TEST_DATABASE_URL" -qc "SET client_min_messages = warning; DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema"
  run "$TEST_DATABASE_URL?options=-c%20search_path%3D$schema"
  psql "$TEST_DATABASE_URL" -qc "SET client_min_messages = warning; DROP SCHEMA $schema CASCADE"
elif [ -n "${CI:-}" ] || [ "${PARLOR_REQUIRE_PG:-0}" = 1 ]; then
  fail "TEST_DATABASE_URL is not set, and CI skips nothing: start PostgreSQL and set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test, as .ci/run does"
else
  echo "smoke: SKIPPED the PostgreSQL run: TEST_DATABASE_URL is not set"
fi
