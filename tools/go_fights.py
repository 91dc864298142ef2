#!/usr/bin/env python3
"""How often a Go engine plays the move that decides a big group's life, by GNU Go's reading.

    python3 tools/go_fights.py --records target/go_match --positions target/go_fights.json
    python3 tools/go_fights.py --positions target/go_fights.json \
        --engine "target/release/examples/go_gtp --level hard --time 1.0 --threads 1 --seed 1"

Big losses on 19×19 come from groups that die in fights. This measures that skill directly, in
minutes, where a match needs hundreds of games to see it. It runs in two steps:

1. **Find** (with --records): in every `gameNNN.sgf` that `tools/go_match.py` wrote, each
   position where Parlor (with `--sides both`, either side) was to move and GNU Go's
   `dragon_status` calls a dragon of at least
   --min-stones stones critical: whoever moves first there decides whether it lives. The
   position's target is its biggest critical dragon (ties: all of that size). The positions go
   to --positions as JSON, with the move played in the game.
2. **Judge**: each position's move passes when GNU Go's owl reading says it saves the target
   (`owl_does_defend`, an own dragon) or kills it (`owl_does_attack`, the opponent's). Without
   --engine the moves judged are those of the games (with `--sides both`, the opponent's
   too); with it, the engine (any GTP command) is
   given each position by `play` commands and asked for a move, so two builds can be compared
   on the same positions. `--engine gnugo` judges GNU Go's own choice: the ceiling of a referee
   that agrees with itself.

It prints how many positions passed with a 95 % Wilson interval, split by whose dragon it was.
GNU Go at --gnugo-level does the reading; its owl code is the referee, not the truth, so the
number is for comparing engines on one set of positions. Standard library only.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import sys

from go_match import Gtp, find_gnugo, gnugo_command, read_record, set_up, wilson


def referee(gnugo, level):
    """A GNU Go to read dragons with, at the level that also plays the matches."""
    return Gtp(gnugo_command(gnugo, level))


def critical_dragons(gnugo, min_stones):
    """The biggest critical dragons of at least `min_stones` stones on `gnugo`'s board, as
    (vertex, colour, stones) — all of the biggest size."""
    found = []
    for line in gnugo.send("dragon_stones").splitlines():
        stones = line.split()
        if len(stones) < min_stones:
            continue
        if gnugo.send(f"dragon_status {stones[0]}").split()[0] != "critical":
            continue
        colour = gnugo.send(f"color {stones[0]}")[0]
        found.append((stones[0], colour, len(stones)))
    if not found:
        return []
    biggest = max(s for _, _, s in found)
    return [d for d in found if d[2] == biggest]


def find(args, gnugo_path, path):
    """The positions of one record where Parlor (with --sides both, either side) was to move
    while a big dragon was critical."""
    size, komi, ours_black, moves = read_record(path)
    ours = "b" if ours_black else "w"
    positions = []
    gnugo = referee(gnugo_path, args.gnugo_level)
    try:
        set_up(gnugo, size, komi, [])
        for k, (colour, vertex) in enumerate(moves):
            if (colour == ours or args.sides == "both") and k >= args.skip:
                try:
                    targets = critical_dragons(gnugo, args.min_stones)
                except RuntimeError as crash:
                    # GNU Go dies on the odd position: that one is left out, the rest read on.
                    print(f"{os.path.basename(path)} move {k + 1} left out: {crash}", file=sys.stderr)
                    gnugo.close()
                    gnugo = referee(gnugo_path, args.gnugo_level)
                    set_up(gnugo, size, komi, moves[:k])
                    targets = []
                if targets:
                    positions.append({
                        "record": os.path.basename(path), "size": size, "komi": komi,
                        "moves": moves[:k], "to_move": colour, "played": vertex,
                        "targets": targets,
                    })
            gnugo.send(f"play {colour} {vertex}")
    finally:
        gnugo.close()
    return positions


def decides(gnugo, position, move):
    """Whether `move` saves or kills one of the position's target dragons, by GNU Go's owl."""
    if move.lower() in ("pass", "resign"):
        return False
    for vertex, colour, _ in position["targets"]:
        ask = "owl_does_defend" if colour == position["to_move"] else "owl_does_attack"
        # 0 is a failure; the other answers are a success, outright or by ko.
        if gnugo.send(f"{ask} {move} {vertex}").split()[0] != "0":
            return True
    return False


def judge(args, gnugo_path, position):
    """(the move judged, whether it decides the fight) for one position."""
    gnugo = referee(gnugo_path, args.gnugo_level)
    try:
        set_up(gnugo, position["size"], position["komi"], position["moves"])
        if args.engine is None:
            move = position["played"]
        elif args.engine == "gnugo":
            move = gnugo.send(f"reg_genmove {position['to_move']}")
        else:
            engine = Gtp(args.engine, cwd=args.engine_dir)
            try:
                set_up(engine, position["size"], position["komi"], position["moves"])
                move = engine.send(f"genmove {position['to_move']}")
            finally:
                engine.close()
        return move, decides(gnugo, position, move)
    finally:
        gnugo.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", help="find the positions in these go_match records")
    ap.add_argument("--positions", required=True, help="JSON file of positions, written by a find")
    ap.add_argument("--min-stones", type=int, default=6, help="smallest dragon that counts")
    ap.add_argument("--skip", type=int, default=20, help="opening moves left out")
    ap.add_argument("--sides", choices=["ours", "both"], default="ours",
                    help="positions where Parlor was to move, or the opponent too (more to judge an engine on)")
    ap.add_argument("--engine", help="GTP command to judge instead of the games' moves; 'gnugo' for GNU Go")
    ap.add_argument("--engine-dir", help="working directory for --engine")
    ap.add_argument("--gnugo-level", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=1, help="records read, or positions judged, at the same time")
    args = ap.parse_args()

    gnugo_path = find_gnugo()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    if args.records:
        records = sorted(glob.glob(os.path.join(args.records, "game*.sgf")))
        positions = [p for found in pool.map(lambda r: find(args, gnugo_path, r), records) for p in found]
        with open(args.positions, "w") as f:
            json.dump(positions, f)
        print(f"{len(positions)} positions with a critical dragon of {args.min_stones}+ stones")
    with open(args.positions) as f:
        positions = json.load(f)

    results = list(pool.map(lambda p: judge(args, gnugo_path, p), positions))
    pool.shutdown()
    tally = {"own": [0, 0], "theirs": [0, 0]}
    for position, (move, ok) in zip(positions, results):
        side = "own" if any(c == position["to_move"] for _, c, _ in position["targets"]) else "theirs"
        tally[side][0] += ok
        tally[side][1] += 1
        targets = " ".join(f"{v}({c},{s})" for v, c, s in position["targets"])
        print(f"{position['record']} move {len(position['moves']) + 1}: {move} "
              f"{'decides' if ok else 'misses'} {targets}")
    passed = sum(t[0] for t in tally.values())
    total = sum(t[1] for t in tally.values())
    for side, (ok, n) in tally.items():
        if n:
            lo, hi = wilson(ok, n)
            print(f"{side} dragons: {ok}/{n} decided, {100 * ok / n:.1f} % ({100 * lo:.1f}–{100 * hi:.1f} %)")
    if total:
        lo, hi = wilson(passed, total)
        print(f"all: {passed}/{total} decided, {100 * passed / total:.1f} % ({100 * lo:.1f}–{100 * hi:.1f} %)")


if __name__ == "__main__":
    main()
