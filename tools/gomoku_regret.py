#!/usr/bin/env python3
"""How much worse than Rapfi's own choice a Gomoku engine's early moves are, by Rapfi's judgement.

    python3 tools/gomoku_regret.py --records target/gomoku_versus/free \
        --engine "target/release/examples/gomoku_pbrain --level hard --threads 1" \
        --rapfi-dir path/to/rapfi

The positions are those before Parlor's first `--moves` (3) moves in every `game-NNN.json` that
`gomoku_versus --records` wrote. For each, Rapfi (in its folder, one thread, `--judge-ms` a move)
evaluates the position, and the position after the engine's move (the engine thinks `--time-ms`
over the Piskvork protocol). The regret of a move is Rapfi's value of its own best move less its
value of ours, never below 0; a forced win counts as 3000. Rapfi's answers are cached in `--cache`,
so engines compared over the same records share one judgement of every position and move.

It prints the mean and median regret, how often the engine chose Rapfi's move, and how many moves
cost over 300: a quick check of a change to the evaluation before it plays a match.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import threading

RULES = {"freestyle": 0, "standard": 1, "renju": 4}
MATE = 3000


def protocol(size, rule, moves, ms):
    """Piskvork commands that ask for the side to move's answer after `moves` ("x,y" strings)."""
    lines = [f"START {size}", f"INFO rule {rule}", "INFO thread_num 1",
             f"INFO timeout_turn {ms}", "INFO timeout_match 100000000", "BOARD"]
    for i, xy in enumerate(moves):
        # 1 marks the side to move's stones, 2 the opponent's.
        lines.append(f"{xy},{1 if i % 2 == len(moves) % 2 else 2}")
    lines.append("DONE")
    return lines


def is_move(line):
    """Whether a stripped Piskvork output line is a move ("x,y")."""
    return re.fullmatch(r"\d+,\d+", line) is not None


def value(text):
    if text.startswith("+M"):
        return MATE
    if text.startswith("-M"):
        return -MATE
    return int(text)


def rapfi(rapfi_dir, size, rule, moves, ms):
    """Rapfi's move and its last evaluation (for the side to move) of the position."""
    proc = subprocess.Popen(["./pbrain-rapfi"], cwd=rapfi_dir, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    proc.stdin.write("\n".join(protocol(size, rule, moves, ms)) + "\n")
    proc.stdin.flush()
    evaluation = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("Rapfi stopped without a move")
        line = line.strip()
        found = re.search(r"Eval (\S+)", line)
        if found:
            evaluation = value(found.group(1))
        if is_move(line):
            break
    proc.stdin.write("END\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    return line, evaluation


def engine_move(command, size, rule, moves, ms):
    lines = protocol(size, rule, moves, ms) + ["END"]
    out = subprocess.run(shlex.split(command), input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    answers = [l for l in map(str.strip, out.splitlines()) if is_move(l)]
    if not answers:
        raise RuntimeError(f"the engine gave no move: {out[-200:]}")
    return answers[-1]


def positions(record_dirs, own_moves):
    """(size, rule, moves) before each of Parlor's first `own_moves` moves, once each."""
    seen, found = set(), []
    for folder in record_dirs:
        for path in sorted(glob.glob(os.path.join(folder, "game-*.json"))):
            game = json.load(open(path))
            moves = game["opening"]["xy"] + [m["xy"] for m in game["moves"]]
            # Black moves when an even number of stones is on the board.
            first = len(game["opening"]["xy"])
            if (first % 2 == 0) != (game["parlor"]["colour"] == "black"):
                first += 1
            for n in range(first, min(first + 2 * own_moves, len(moves)), 2):
                key = (game["size"], RULES[game["rule"]], tuple(moves[:n]))
                if key not in seen:
                    seen.add(key)
                    found.append(key)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", action="append", required=True, help="a gomoku_versus records folder")
    ap.add_argument("--engine", required=True, help="Piskvork engine command to judge")
    ap.add_argument("--rapfi-dir", required=True, help="Rapfi's folder (pbrain-rapfi, config, model)")
    ap.add_argument("--moves", type=int, default=3, help="Parlor's first moves of each game")
    ap.add_argument("--time-ms", type=int, default=1000, help="the engine's time a move")
    ap.add_argument("--judge-ms", type=int, default=1500, help="Rapfi's time a position")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", default="target/gomoku_regret_cache.json")
    args = ap.parse_args()

    cache = json.load(open(args.cache)) if os.path.exists(args.cache) else {}
    lock = threading.Lock()

    def judged(size, rule, moves):
        key = f"{size} {rule} {args.judge_ms} " + " ".join(moves)
        with lock:
            if key in cache:
                return cache[key]
        answer = rapfi(args.rapfi_dir, size, rule, list(moves), args.judge_ms)
        with lock:
            cache[key] = answer
        return answer

    def regret(position):
        size, rule, moves = position
        best_move, best = judged(size, rule, moves)
        ours = engine_move(args.engine, size, rule, list(moves), args.time_ms)
        _, after = judged(size, rule, moves + (ours,))
        return ours == best_move, max(0, best + after)

    todo = positions(args.records, args.moves)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(regret, todo))
    os.makedirs(os.path.dirname(args.cache) or ".", exist_ok=True)
    json.dump(cache, open(args.cache, "w"))
    regrets = [r for _, r in results]
    print(f"{args.engine}: {len(results)} positions, mean regret {statistics.mean(regrets):.0f}, "
          f"median {statistics.median(regrets):.0f}, Rapfi's move {sum(s for s, _ in results)}, "
          f"over 300: {sum(r > 300 for r in regrets)}")


if __name__ == "__main__":
    main()
