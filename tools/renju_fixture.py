#!/usr/bin/env python3
"""Generate the renju reference fixture with Rapfi: random renju games on 15x15, and for every
position with black to move, the points Rapfi says are forbidden for black. The Rust test
`rapfi_fixture` in crates/parlor-games/src/gomoku/renju.rs checks that our forbidden points
equal Rapfi's on every position.

    python3 tools/renju_fixture.py --rapfi /path/to/rapfi-folder          # 300 games, seed 2026
    python3 tools/renju_fixture.py --rapfi DIR --games 20 --seed 7 --out /tmp/x.json

Python 3 standard library only. RAPFI (or --rapfi) is the folder holding `pbrain-rapfi` and its
`config.toml` (Rapfi reads them from its working directory); its config must keep
`coord_conversion_mode = "none"`.

The protocol (Piskvork/Gomocup with Yixin's extensions): `START 15`, `INFO rule 4` (renju), then
for each position `YXBOARD`, one `x,y,c` line per stone, `DONE` (sets the position without
thinking) and `YXSHOWFORBID`, answered by `FORBID xxyy...` (two digits of x, then two of y, per
point, ending with `.`; `FORBID .` when none). x is the column from the left and y the row from
the TOP, both from 0, so Parlor's point `h8` (column h, row 8 from the bottom) is x = 7,
y = 15 - 8 = 7, and `a1` is x = 0, y = 14. Rapfi takes the colours from the order of the list:
the first stone listed is black's (checked by `check_protocol` at start, together with the
orientation), so stones are sent in game order, c = 1 for black (the side to move) and c = 2 for
white.

How games are played, so that forbidden shapes come up often: each move is a point near the
stones already played (within two points), weighted so that black mostly extends its own lines
(the weight grows with the black stones in line within four points) and white plays more at
random, and blocks black's five points now and then (BLOCK_P); black never plays a point Rapfi
calls forbidden. Either side takes a five only with probability FIVE_P, so games run long. A
game ends with a five (black's exactly five, white's five or more), at MAX_MOVES, or when black
has no allowed point.

Rapfi differs from the renju rule in one corner (it does not count a three whose extension point
would also make a five on another line); the Rust test knows it, see there.

The generator classifies each forbidden point itself (overline, else double four, else double
three: a point Rapfi forbids that is neither of the first two must be a double three), prints
the counts, and stores them so the Rust test also checks the shape we name.

Fixture format: {"generator", "engine", "size": 15, "games": [{"moves": "h8 i9 ...",
"forbidden": ["", "d4:3 e5:4", ...]}]}. moves are in Parlor notation; forbidden[i] lists the
points forbidden for black after the first 2*i moves (black to move), each with its shape:
`:3` double three, `:4` double four, `:6` overline.
"""

import argparse
import json
import os
import random
import subprocess
import sys

SIZE = 15
MAX_MOVES = 120
# How often a side takes a five it has (else the game goes on, and longer games hold more
# shapes), and how often white blocks black's five point.
FIVE_P = 0.15
BLOCK_P = 0.6
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]
BLACK, WHITE = 1, 2
SHAPES = {"3": "double three", "4": "double four", "6": "overline"}


def name(x, row):
    """Parlor notation for column x and row `row` (0 = bottom)."""
    return "abcdefghijklmnopqrstuvwxyz"[x] + str(row + 1)


class Rapfi:
    def __init__(self, folder):
        self.proc = subprocess.Popen(
            ["./pbrain-rapfi"], cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("START %d" % SIZE)
        self.expect("OK")
        self.send("INFO rule 4")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("rapfi exited")
            line = line.strip()
            if line.startswith(prefix):
                return line
            if line.startswith("ERROR"):
                sys.exit("rapfi: " + line)

    def forbidden(self, moves):
        """Rapfi's forbidden points for black after `moves` [(x, row)], black to move, as a
        set of (x, row)."""
        assert len(moves) % 2 == 0
        self.send("YXBOARD")
        for i, (x, row) in enumerate(moves):
            self.send("%d,%d,%d" % (x, SIZE - 1 - row, 1 if i % 2 == 0 else 2))
        self.send("DONE")
        self.send("YXSHOWFORBID")
        line = self.expect("FORBID")
        digits = line[len("FORBID"):].strip()
        if not digits.endswith("."):
            sys.exit("unexpected answer: " + line)
        digits = digits[:-1]
        if len(digits) % 4:
            sys.exit("unexpected answer: " + line)
        points = set()
        for i in range(0, len(digits), 4):
            x, y = int(digits[i:i + 2]), int(digits[i + 2:i + 4])
            points.add((x, SIZE - 1 - y))
        return points

    def close(self):
        self.send("END")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def check_protocol(rapfi):
    """A black double three at h12 (asymmetric top to bottom) must come back as h12 and only
    when the shape's stones are listed as black's."""
    black = [(7, 12), (7, 13), (8, 11), (9, 11)]  # h13 h14 i12 j12: h12 makes two threes
    white = [(0, 0), (14, 0), (0, 2), (14, 2)]
    moves = [m for pair in zip(black, white) for m in pair]
    got = rapfi.forbidden(moves)
    if got != {(7, 11)}:
        sys.exit("protocol check failed: expected h12, got %s" % sorted(name(*p) for p in got))
    swapped = [m for pair in zip(white, black) for m in pair]
    if rapfi.forbidden(swapped):
        sys.exit("protocol check failed: white's stones were read as black's")


class Board:
    def __init__(self):
        self.cells = [[0] * SIZE for _ in range(SIZE)]

    def at(self, x, row):
        if 0 <= x < SIZE and 0 <= row < SIZE:
            return self.cells[x][row]
        return -1

    def run(self, x, row, d, colour):
        """Length of `colour`'s run through (x, row) along d, counting (x, row) as `colour`."""
        n = 1
        for sign in (1, -1):
            k = 1
            while self.at(x + sign * k * d[0], row + sign * k * d[1]) == colour:
                n += 1
                k += 1
        return n

    def wins(self, x, row, colour):
        runs = [self.run(x, row, d, colour) for d in DIRS]
        return 5 in runs if colour == BLACK else max(runs) >= 5

    def fours(self, x, row, d):
        """Fours black makes along d with a stone on (x, row): five points, a straight four
        (two points five apart) counting once."""
        self.cells[x][row] = BLACK
        points = []
        for k in range(-4, 5):
            qx, qy = x + k * d[0], row + k * d[1]
            if k == 0 or self.at(qx, qy) != 0:
                continue
            between = all(self.at(x + j * d[0], row + j * d[1]) == BLACK
                          for j in range(min(0, k) + 1, max(0, k)))
            if between and self.run(qx, qy, d, BLACK) == 5:
                points.append(k)
        self.cells[x][row] = 0
        if len(points) == 2 and points[1] - points[0] == 5:
            return 1
        return len(points)

    def shape(self, x, row):
        """The shape of a point Rapfi forbids: "6", "4" or "3"."""
        if any(self.run(x, row, d, BLACK) >= 6 for d in DIRS):
            return "6"
        if sum(self.fours(x, row, d) for d in DIRS) >= 2:
            return "4"
        return "3"

    def candidates(self):
        near = set()
        for x in range(SIZE):
            for row in range(SIZE):
                if self.cells[x][row]:
                    for dx in range(-2, 3):
                        for dy in range(-2, 3):
                            if self.at(x + dx, row + dy) == 0:
                                near.add((x + dx, row + dy))
        return sorted(near)

    def weight(self, x, row, colour):
        """How much `colour` likes (x, row): its stones in line within four points, squared."""
        total = 1
        for d in DIRS:
            own = 0
            for sign in (1, -1):
                for k in range(1, 5):
                    c = self.at(x + sign * k * d[0], row + sign * k * d[1])
                    if c == colour:
                        own += 1
                    elif c != 0:
                        break
            total += own * own
        return total


def play_game(rapfi, rng, counts):
    board = Board()
    moves = []
    forbidden_lists = []
    while len(moves) < MAX_MOVES:
        colour = BLACK if len(moves) % 2 == 0 else WHITE
        if colour == BLACK:
            forbidden = rapfi.forbidden(moves)
            tagged = []
            for (x, row) in sorted(forbidden):
                shape = board.shape(x, row)
                counts[shape] += 1
                tagged.append("%s:%s" % (name(x, row), shape))
            counts["positions"] += 1
            counts["with_forbidden"] += bool(forbidden)
            forbidden_lists.append(" ".join(tagged))
        else:
            forbidden = set()
        if not moves:
            choice = (7, 7)
        else:
            options = [p for p in board.candidates() if p not in forbidden]
            if not options:
                break
            if colour == BLACK:
                weights = [board.weight(x, row, BLACK) ** 2 for (x, row) in options]
            else:
                weights = [board.weight(x, row, WHITE) + board.weight(x, row, BLACK) // 2
                           for (x, row) in options]
            fives = [p for p in options if board.wins(p[0], p[1], colour)]
            blocks = [p for p in options if colour == WHITE and board.wins(p[0], p[1], BLACK)]
            rest = [i for i, p in enumerate(options) if p not in fives]
            if blocks and rng.random() < BLOCK_P:
                choice = rng.choice(blocks)
            elif fives and (not rest or rng.random() < FIVE_P):
                choice = rng.choice(fives)
            else:
                choice = options[rng.choices(rest, [weights[i] for i in rest])[0]]
        x, row = choice
        won = board.wins(x, row, colour)
        board.cells[x][row] = colour
        moves.append(choice)
        if won:
            break
    return {"moves": " ".join(name(*m) for m in moves), "forbidden": forbidden_lists}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rapfi", default=os.environ.get("RAPFI"),
                        help="the folder holding pbrain-rapfi (or set RAPFI)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..",
        "crates/parlor-games/tests/fixtures/renju_rapfi.json"))
    args = parser.parse_args()
    if not args.rapfi:
        sys.exit("give the Rapfi folder with --rapfi or RAPFI")
    rng = random.Random(args.seed)
    rapfi = Rapfi(args.rapfi)
    check_protocol(rapfi)
    counts = {"positions": 0, "with_forbidden": 0, "3": 0, "4": 0, "6": 0}
    games = [play_game(rapfi, rng, counts) for _ in range(args.games)]
    rapfi.close()
    fixture = {
        "generator": "tools/renju_fixture.py --games %d --seed %d" % (args.games, args.seed),
        "engine": "Rapfi (dhbloo/rapfi), renju (INFO rule 4), YXSHOWFORBID",
        "size": SIZE,
        "games": games,
    }
    with open(args.out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    print("%d games, %d black-to-move positions, %d with forbidden points" % (
        len(games), counts["positions"], counts["with_forbidden"]))
    for key, label in SHAPES.items():
        print("  %s: %d" % (label, counts[key]))
    print("wrote", os.path.normpath(args.out))


if __name__ == "__main__":
    main()
