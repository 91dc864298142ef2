#!/usr/bin/env python3
"""Generate Go fixtures with GNU Go: games full of random moves (so captures, kos and suicides come up),
each move recorded with GNU Go's board and capture counts, and at the end GNU Go's dead stones and
its final score. The Rust test crates/parlor-games/src/go/tests/gnugo.rs replays every game with our engine.

    python3 tools/gnugo_fixtures.py                      # writes crates/parlor-games/fixtures/go/gnugo_games.json
    python3 tools/gnugo_fixtures.py --seed 7 --out /tmp/x.json --games 9:4,13:2

No pip dependencies. Installs the Debian package `gnugo` with apt-get when it is missing.

How a game is played: for the first part of the game (RANDOM_SHARE of the move cap) each move is, with
probability RANDOM_P, a uniformly random legal point (candidates drawn at random and checked with GNU Go's
`is_legal`; every empty candidate it refuses is recorded as `illegal`, which our engine must refuse too),
otherwise GNU Go's own move (`reg_genmove` then `play`). Right after a single-stone capture the opponent first tries to retake
at once (a ko, or a snapback's legal recapture). After that GNU Go plays both sides until two passes in a
row (or the cap); where GNU Go would pass, the side to move first fills a dame point, then closes
its own territory where it touches a living enemy stone (see `settle`), so that GNU Go's count and the
seed's count (a region touching both colours is shared) mean the same thing at the end. GNU Go then gives `final_status_list dead` and `final_score`, under its
default rules: Japanese, territory + prisoners + komi, dead stones counted as prisoners.

Fixture format (short keys keep the file small):
{"gnugo": version, "rules": ..., "games": [{"size", "komi", "seed",
  "moves": [{"c": "B"|"W", "v": "D4"|"pass", "board": size*size chars "X"/"O"/"." top row first,
             "cap": [stones captured by black, by white], "illegal"?: ["C3", ...]}],
  "dead": ["D4", ...], "score": "B+3.5" | "W+7.5" | "0"}]}
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
RANDOM_SHARE = 0.75
RANDOM_P = 0.85
PASS_P = 0.02
DEFAULT_GAMES = "5:2,7:2,9:10,13:4,19:2"
MOVE_CAP = {5: 60, 7: 110, 9: 180, 13: 260, 19: 340}


# Debian installs games in /usr/games, which is not always on PATH.
DEBIAN_GNUGO = "/usr/games/gnugo"


def find_gnugo():
    return shutil.which("gnugo") or (DEBIAN_GNUGO if os.access(DEBIAN_GNUGO, os.X_OK) else None)


def ensure_gnugo():
    path = find_gnugo()
    if path:
        return path
    print("gnugo is missing; installing it with apt-get", file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "install", "-y", "gnugo"], check=True)
    path = find_gnugo()
    if not path:
        sys.exit("apt-get installed gnugo but it is neither on PATH nor at " + DEBIAN_GNUGO)
    return path


class Gtp:
    """A GNU Go process in GTP mode."""

    def __init__(self, gnugo, level):
        self.proc = subprocess.Popen(
            [gnugo, "--mode", "gtp", "--level", str(level)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError("gnugo exited during %r" % command)
            if line.strip() == "" and lines:
                break
            if line.strip() == "":
                continue
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise RuntimeError("gnugo refused %r: %s" % (command, answer))
        return answer[1:].strip()

    def close(self):
        try:
            self("quit")
        except RuntimeError:
            pass
        self.proc.wait()


def vertex(col, row):
    return "%s%d" % (COLUMNS[col], row + 1)


def stones(gtp, color):
    return set(gtp("list_stones " + color).split())


def board_string(gtp, size):
    black, white = stones(gtp, "black"), stones(gtp, "white")
    cells = []
    for row in range(size - 1, -1, -1):
        for col in range(size):
            v = vertex(col, row)
            cells.append("X" if v in black else "O" if v in white else ".")
    return "".join(cells)


def captures(gtp):
    # GNU Go's `captures <color>` is the number of stones that colour has captured.
    return [int(gtp("captures black")), int(gtp("captures white"))]


def random_legal(gtp, name, board, size, rng, illegal):
    """A uniformly random point GNU Go says `name` may play, or "pass"; every empty point it
    refuses on the way is added to `illegal`."""
    empties = [vertex(i % size, size - 1 - i // size) for i, c in enumerate(board) if c == "."]
    rng.shuffle(empties)
    for v in empties:
        if v in illegal:
            continue
        if gtp("is_legal %s %s" % (name, v)) == "1":
            return v
        illegal.append(v)
    return "pass"


def neighbours(v, size):
    col, row = COLUMNS.index(v[0]), int(v[1:]) - 1
    around = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
    return [vertex(c, r) for c, r in around if 0 <= c < size and 0 <= r < size]


def safe_point(gtp, name, candidates):
    """The first candidate `name` may play without leaving its chain in atari, or None."""
    for v in candidates:
        if gtp("is_legal %s %s" % (name, v)) != "1":
            continue
        gtp("play %s %s" % (name, v))
        safe = int(gtp("countlib " + v)) >= 2
        gtp("undo")
        if safe:
            return v
    return None


def settle(gtp, name, size):
    """What `name` plays where GNU Go would pass: a dame point, else a point of its own territory
    that touches a living enemy stone, else "pass".

    The seed's count gives an empty region to a colour only when no other colour touches it, and
    splits it otherwise; GNU Go's territory is looser. Played out this way, the final position is
    one where both counts mean the same thing."""
    dame = gtp("final_status_list dame").split()
    other = "white" if name == "black" else "black"
    dead = set(gtp("final_status_list dead").split())
    living = stones(gtp, other) - dead
    own = gtp("final_status_list %s_territory" % name).split()
    open_border = [t for t in own if any(n in living for n in neighbours(t, size))]
    return safe_point(gtp, name, dame) or safe_point(gtp, name, open_border) or "pass"


def play_game(gtp, size, komi, rng, fill=True):
    gtp("boardsize %d" % size)
    gtp("clear_board")
    gtp("komi %s" % komi)
    cap = MOVE_CAP[size]
    random_moves = int(cap * RANDOM_SHARE)
    moves = []
    color = "B"
    passes = 0
    retake = None  # the point of a single stone just captured
    board = "." * (size * size)
    while len(moves) < cap and passes < 2:
        name = "black" if color == "B" else "white"
        illegal = []
        move = None
        if len(moves) < random_moves:
            if rng.random() < PASS_P and passes == 0:
                move = "pass"
            elif retake is not None and rng.random() < 0.7:
                if gtp("is_legal %s %s" % (name, retake)) == "1":
                    move = retake
                else:
                    illegal.append(retake)
            if move is None and rng.random() < RANDOM_P:
                move = random_legal(gtp, name, board, size, rng, illegal)
        in_random_phase = len(moves) < random_moves
        if move is None:
            move = gtp("reg_genmove " + name)
            if move.lower() in ("pass", "resign"):
                if in_random_phase:
                    # Keep the board busy: GNU Go's pass would end a game that is still random.
                    move = random_legal(gtp, name, board, size, rng, illegal)
                else:
                    move = settle(gtp, name, size) if fill else "pass"
        if gtp("play %s %s" % (name, move)) != "":
            raise RuntimeError("unexpected answer to play")
        move = move.upper() if move.lower() != "pass" else "pass"
        before = board
        board = board_string(gtp, size)
        entry = {"c": color, "v": move, "board": board, "cap": captures(gtp)}
        if illegal:
            entry["illegal"] = illegal
        moves.append(entry)
        passes = passes + 1 if move == "pass" else 0
        # A single stone taken off: the point the opponent may want to retake (ko or not).
        removed = [i for i, (a, b) in enumerate(zip(before, board)) if a != "." and b == "."]
        retake = None
        if len(removed) == 1:
            i = removed[0]
            retake = vertex(i % size, size - 1 - i // size)
        color = "W" if color == "B" else "B"
    dead = sorted(gtp("final_status_list dead").split())
    score = gtp("final_score")
    return {"size": size, "komi": komi, "moves": moves, "dead": dead, "score": score}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument(
        "--out",
        default=os.path.join(here, "..", "crates", "parlor-games", "fixtures", "go", "gnugo_games.json"),
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", default=DEFAULT_GAMES, help="size:count,...")
    parser.add_argument("--level", type=int, default=1, help="GNU Go level for its moves")
    parser.add_argument(
        "--keep-dame",
        action="store_true",
        help="pass when GNU Go passes instead of settling dame and open borders first",
    )
    args = parser.parse_args()

    gtp = Gtp(ensure_gnugo(), args.level)
    version = gtp("version")
    rng = random.Random(args.seed)
    games = []
    for spec in args.games.split(","):
        size, count = (int(x) for x in spec.split(":"))
        for _ in range(count):
            seed = rng.randrange(2**32)
            komi = rng.choice([0.5, 5.5, 6.5, 7.5])
            game = play_game(gtp, size, komi, random.Random(seed), not args.keep_dame)
            game["seed"] = seed
            games.append(game)
            print(
                "size %d: %d moves, %s, %d dead"
                % (size, len(game["moves"]), game["score"], len(game["dead"])),
                file=sys.stderr,
            )
    gtp.close()

    fixture = {
        "generator": "tools/gnugo_fixtures.py --seed %d --games %s --level %d"
        % (args.seed, args.games, args.level)
        + (" --keep-dame" if args.keep_dame else ""),
        "gnugo": version,
        "rules": "GNU Go defaults: Japanese (territory + prisoners + komi), simple ko, no suicide",
        "games": games,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    print("wrote %s (%d bytes)" % (args.out, os.path.getsize(args.out)), file=sys.stderr)


if __name__ == "__main__":
    main()
