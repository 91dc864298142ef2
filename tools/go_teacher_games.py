#!/usr/bin/env python3
"""Self-play games of a GTP engine as SGF: the training data of the Go move-pattern weights.

Usage (from the repo root):
    python3 tools/go_teacher_games.py --games 200 --size 19 --level 6 --jobs 2 --out target/go_teacher
    python3 tools/go_teacher_games.py --games 400 --size 9 --komi 7 --jobs 2 --out target/go_teacher9 \
        --engine "./pachi --nodcnn -t =1500 threads=1 -s {seed}" --engine-dir "$PACHI_DIR"
    cargo run --release -p parlor-games --example go_pattern_train -- target/go_teacher/*.sgf

The engine (GNU Go at --level by default, or any GTP command line given with --engine, run in
--engine-dir, `{seed}` replaced by the game's number plus one) plays both colours. Each game
starts from a few random stones on the third to fifth lines (seeded by the game's number) before
the engine takes over: GNU Go is nearly deterministic and would otherwise play the same game every
time. Games end with two passes, a resignation or 2 × size² moves. Standard library only.
"""

import argparse
import concurrent.futures
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_match import Gtp, find_gnugo, sgf_point  # noqa: E402

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def opening(size, rng):
    """One to four distinct random vertices, each coordinate on the third to fifth line from an
    edge."""
    band = sorted({v for d in range(2, min(5, (size + 1) // 2)) for v in (d, size - 1 - d)})
    count = rng.randint(1, 4)
    points = []
    while len(points) < count:
        point = (rng.choice(band), rng.choice(band))
        if point not in points:
            points.append(point)
    return [f"{COLUMNS[c]}{r + 1}" for c, r in points]


def one_game(args, command, game):
    rng = random.Random(args.seed * 100_003 + game)
    engine = Gtp(command.replace("{seed}", str(game + 1)), cwd=args.engine_dir)
    try:
        engine.send(f"boardsize {args.size}")
        engine.send("clear_board")
        engine.send(f"komi {args.komi}")
        moves = []
        colour = "b"
        for vertex in opening(args.size, rng):
            engine.send(f"play {colour} {vertex}")
            moves.append((colour, vertex))
            colour = "w" if colour == "b" else "b"
        passes = 0
        result = ""
        while len(moves) < 2 * args.size * args.size:
            vertex = engine.send(f"genmove {colour}").strip()
            if vertex.lower() == "resign":
                result = "W+R" if colour == "b" else "B+R"
                break
            moves.append((colour, vertex))
            passes = passes + 1 if vertex.lower() == "pass" else 0
            if passes >= 2:
                result = engine.send("final_score")
                break
            colour = "w" if colour == "b" else "b"
    finally:
        engine.close()
    sgf = f"(;GM[1]FF[4]SZ[{args.size}]KM[{args.komi}]RU[Chinese]PB[{args.name}]PW[{args.name}]RE[{result}]"
    sgf += "".join(f";{c.upper()}[{sgf_point(v, args.size)}]" for c, v in moves) + ")\n"
    path = os.path.join(args.out, f"{args.size}-{args.seed}-{game:04}.sgf")
    with open(path, "w") as f:
        f.write(sgf)
    return len(moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default="target/go_teacher")
    parser.add_argument("--engine", help="GTP command line of the teacher (default: GNU Go)")
    parser.add_argument("--engine-dir", help="working directory for --engine")
    parser.add_argument("--name", help="the teacher's name in the SGF (default: from --engine)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.engine:
        command = args.engine
        args.name = args.name or os.path.basename(args.engine.split()[0])
    else:
        command = f"{find_gnugo()} --mode gtp --level {args.level} --chinese-rules --seed {{seed}}"
        args.name = args.name or "GNU Go"
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = 0
        for length in pool.map(lambda g: one_game(args, command, g), range(args.games)):
            done += 1
            print(f"{done}/{args.games} games, last {length} moves", flush=True)


if __name__ == "__main__":
    main()
