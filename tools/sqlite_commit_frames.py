#!/usr/bin/env python3
"""Which pages a Go move's commit writes on SQLite, for a move early in a game and one late in it.

Takes a copy of a database that `examples/go_move_cost` has filled (its long games at 300 moves,
its short ones at up to 10), and commits moves on it the way the store commits one: an `UPDATE
games` of the row with its version check and the state one move longer (the status, which a move
keeps, left out), and an `INSERT INTO moves` (the statements of `commit` in src/store/sql.rs;
keep the two alike). It alternates a short and a long game, one pair after another, each kind
first in every other pair, as go_move_cost does. After each commit it reads the frames the
write-ahead log gained and names the table or index each page belongs to (SQLite's `dbstat`).

Prints the median commit time of each kind, the median of the paired differences, and the frames
per commit by table and index. Frames are what the commit's `fsync` has to write: 4 KiB each.

    target/release/parlor --port 8104 --database-url sqlite:///tmp/movecost.db &
    target/release/examples/go_move_cost --base http://127.0.0.1:8104 --samples 3000 --late-games 30 --seed 5
    kill %1
    python3 tools/sqlite_commit_frames.py /tmp/movecost.db --synchronous FULL --pairs 3000

The copy is made in a temporary directory; the database given is not changed. Checkpoints are
off during the run (`wal_autocheckpoint=0`), so every frame a commit writes stays readable.
"""

import argparse
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections import Counter

WAL_HEADER = 32
FRAME_HEADER = 24


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("database", help="a SQLite file go_move_cost has filled (the server stopped)")
    ap.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL",
                    help="FULL is what the server uses: an fsync of the log on every commit")
    ap.add_argument("--pairs", type=int, default=3000)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        db = os.path.join(scratch, "copy.sqlite")
        shutil.copy(args.database, db)
        # The log too: a server stopped without a checkpoint leaves committed pages only there.
        if os.path.exists(args.database + "-wal"):
            shutil.copy(args.database + "-wal", db + "-wal")
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={args.synchronous}")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        frame = FRAME_HEADER + page_size
        owner = {page: name for name, page in conn.execute("SELECT name, pageno FROM dbstat")}
        games = conn.execute(
            "SELECT g.id, g.version, g.state, (SELECT count(*) FROM moves m WHERE m.game_id = g.id) "
            "FROM games g WHERE g.game = 'go' AND g.status = 'active'").fetchall()
        kinds = {
            "early": [[id, version, state] for id, version, state, moves in games if moves <= 10],
            "late": [[id, version, state] for id, version, state, moves in games if moves >= 300],
        }
        if not kinds["early"] or not kinds["late"]:
            raise SystemExit("no short (≤ 10 moves) or no long (≥ 300 moves) Go games in the database")
        wal = db + "-wal"
        times = {"early": [], "late": []}
        pages = {"early": Counter(), "late": Counter()}
        turn = {"early": 0, "late": 0}

        def commit(kind):
            game = kinds[kind][turn[kind] % len(kinds[kind])]
            turn[kind] += 1
            id, version, state = game
            # One more move at the end of the packed move list, as a Go move makes the state grow.
            assert state.endswith('"}}'), "a Go state ends with its packed move list"
            state = state[:-3] + 'Bdd"}}'
            before = os.path.getsize(wal)
            start = time.perf_counter_ns()
            conn.execute("BEGIN")
            swapped = conn.execute(
                "UPDATE games SET turn = ?, state = ?, result = NULL, "
                "updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
                (version % 2, state, "2026-01-01T00:00:00+00:00", id, version))
            assert swapped.rowcount == 1, "the version moved: is the server still running?"
            conn.execute(
                "INSERT INTO moves (game_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (id, version + 1, version % 2, '{"move":"D10"}', "2026-01-01T00:00:00+00:00"))
            conn.execute("COMMIT")
            times[kind].append((time.perf_counter_ns() - start) / 1000)
            game[1], game[2] = version + 1, state
            with open(wal, "rb") as log:
                log.seek(max(before, WAL_HEADER))
                written = log.read()
            for at in range(0, len(written) - frame + 1, frame):
                page = int.from_bytes(written[at:at + 4], "big")
                pages[kind][owner.get(page, "a page new since the start")] += 1

        for pair in range(args.pairs):
            for kind in (("early", "late") if pair % 2 == 0 else ("late", "early")):
                commit(kind)

    differences = [late - early for early, late in zip(times["early"], times["late"])]
    print(f"synchronous={args.synchronous}, {args.pairs} pairs; commit, median: "
          f"early {statistics.median(times['early']):.1f} µs, late {statistics.median(times['late']):.1f} µs; "
          f"late − early, paired median {statistics.median(differences):+.1f} µs")
    for kind in ("early", "late"):
        total = sum(pages[kind].values()) / args.pairs
        parts = ", ".join(f"{name} {count / args.pairs:.3f}" for name, count in sorted(pages[kind].items()))
        print(f"{kind}: {total:.3f} frames a commit: {parts}")


if __name__ == "__main__":
    main()
