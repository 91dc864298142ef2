#!/usr/bin/env python3
"""Match Parlor's Go AI against any GTP engine and report the score with a 95 % Wilson interval.

Usage (from the repo root):
    cargo build --release --example go_gtp
    python3 tools/go_match.py --games 40 --size 9 --komi 7 --time 1.0
    python3 tools/go_match.py --games 40 --size 9 --komi 7 --jobs 2 \
        --opponent "./pachi --nodcnn -t 3 threads=1" --opponent-dir ../pachi

Our side is `target/release/examples/go_gtp` (under $CARGO_TARGET_DIR when set; override with
--ours "command ..."); the opponent is any GTP command line (--opponent, run in --opponent-dir),
by default `gnugo --mode gtp --level 10 --chinese-rules` (installed with apt-get when missing).
Colours alternate (game 0: we are Black). Games end with two passes, a resignation or a move cap;
a fresh GNU Go replays the moves and its `final_score` under Chinese (area) rules is the result.
A game an engine dies in is not counted: the summary names it with its seed. To play it again,
give a --first-seed that puts that seed on a game of the same colour (game k gets the first
seed + k, and we are Black in the even games).
Every game is written as SGF to --records (default target/go_match); each of our moves carries
what our engine said of it (`go_gtp`'s stderr line: playouts, win rate, principal variation) as
a comment, and the whole stderr is kept beside it as gameNNN.log. Standard library only.

`--start RECORD.sgf:N` (repeatable) continues games from the first N moves of such a record
instead of the empty board, Parlor keeping its side in it; game k takes start k modulo their
number. With it, one position can be played out many times: how far a lost position falls,
say. The summary gives our mean and worst margin over the games counted to the end.
"""

import argparse
import concurrent.futures
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time


class Gtp:
    """One GTP engine in a subprocess."""

    def __init__(self, command, log=None, cwd=None):
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command),
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log if log is not None else subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            reply = self.proc.stdout.readline()
            if reply == "":
                raise RuntimeError(f"engine '{self.command}' closed its output after '{line}'")
            reply = reply.rstrip("\r\n")
            if reply == "" and lines:
                break
            if reply != "" or lines:
                lines.append(reply)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(f"engine '{self.command}' refused '{line}': {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.send("quit")
        except (RuntimeError, BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def find_gnugo():
    """The gnugo binary (Debian puts it in /usr/games, often not on PATH); installs it if missing."""
    for attempt in range(2):
        found = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
        if found:
            return found
        if attempt == 0:
            print("gnugo not found: installing with apt-get", file=sys.stderr)
            sudo = [] if os.geteuid() == 0 else ["sudo"]
            subprocess.run(sudo + ["apt-get", "install", "-y", "gnugo"], check=True)
    sys.exit("gnugo is still missing after apt-get install")


def wilson(wins, n, z=1.96):
    """95 % Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I
SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"


def sgf_point(vertex, size):
    """A GTP vertex ("D4", "pass") as an SGF point ("" for a pass)."""
    if vertex.lower() == "pass":
        return ""
    col = GTP_COLUMNS.index(vertex[0].upper())
    row = int(vertex[1:])
    return SGF_LETTERS[col] + SGF_LETTERS[size - row]


def gtp_vertex(point, size):
    """An SGF point as a GTP vertex: the inverse of `sgf_point`."""
    if not point:
        return "pass"
    return GTP_COLUMNS[SGF_LETTERS.index(point[0])] + str(size - SGF_LETTERS.index(point[1]))


def gnugo_command(gnugo, level):
    """GNU Go's GTP command line at `level`, counting by Chinese (area) rules."""
    return f"{gnugo} --mode gtp --level {level} --chinese-rules"


def set_up(engine, size, komi, moves):
    """The position after `moves` (colour, vertex) on a fresh board of the GTP `engine`."""
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi}")
    for c, v in moves:
        engine.send(f"play {c} {v}")


def play_game(ours, opponent, size, komi, ours_black, max_moves, scorer_cmd, opening=()):
    """Plays one game after the moves of `opening` (colour, vertex), which both engines replay."""
    for engine in (ours, opponent):
        set_up(engine, size, komi, opening)
    black, white = (ours, opponent) if ours_black else (opponent, ours)
    moves = list(opening)
    passes = 0
    colour = "w" if moves and moves[-1][0] == "b" else "b"
    winner = None
    reason = "score"
    while len(moves) < max_moves:
        mover, other = (black, white) if colour == "b" else (white, black)
        vertex = mover.send(f"genmove {colour}").strip()
        if vertex.lower() == "resign":
            winner = "w" if colour == "b" else "b"
            reason = "resign"
            break
        other.send(f"play {colour} {vertex}")
        moves.append((colour, vertex))
        passes = passes + 1 if vertex.lower() == "pass" else 0
        if passes >= 2:
            break
        colour = "w" if colour == "b" else "b"
    score = ""
    if winner is None:
        # Score with a fresh GNU Go that replays the game (the opponent may be mid-thought).
        scorer = Gtp(scorer_cmd)
        try:
            set_up(scorer, size, komi, moves)
            score = scorer.send("final_score")
        finally:
            scorer.close()
        if score.upper().startswith("B+"):
            winner = "b"
        elif score.upper().startswith("W+"):
            winner = "w"
        else:
            winner = "draw"
        if len(moves) >= max_moves:
            reason = "move cap"
    return winner, reason, score, moves


def read_record(path):
    """A record this runner wrote: (size, komi, parlor plays black, moves as (colour, vertex))."""
    with open(path) as f:
        sgf = f.read()
    prop = lambda name: re.search(name + r"\[([^\]]*)\]", sgf).group(1)
    size = int(prop("SZ"))
    moves = [(c.lower(), gtp_vertex(p, size)) for c, p in re.findall(r";([BW])\[([a-z]*)\]", sgf)]
    return size, float(prop("KM")), prop("PB") == "parlor", moves


def read_start(spec):
    """`RECORD.sgf:N` as (size, komi, parlor plays black, the first N moves as (colour, vertex))."""
    path, n = spec.rsplit(":", 1)
    size, komi, ours_black, moves = read_record(path)
    return size, komi, ours_black, moves[: int(n)]


def our_margin(score, ours_black):
    """Our margin from GNU Go's `final_score` ("B+3.5", "W+12.0", "0"), None for a resignation."""
    if not score:
        return None
    if score[0] not in "BWbw":
        return 0.0
    points = float(score[2:])
    return points if (score[0].lower() == "b") == ours_black else -points


def sgf_text(text):
    """`text` escaped for an SGF property value."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def sgf_record(size, komi, names, ours_black, winner, score, moves, notes, replayed=0):
    """The game as SGF; `notes` (our engine's lines, one per move it chose) become the comments of
    our moves after the first `replayed` moves, in order."""
    sgf = "(;GM[1]FF[4]SZ[{}]KM[{}]RU[Chinese]PB[{}]PW[{}]RE[{}]".format(
        size,
        komi,
        names[0] if ours_black else names[1],
        names[1] if ours_black else names[0],
        score or ("B+R" if winner == "b" else "W+R"),
    )
    ours = "b" if ours_black else "w"
    notes = iter(notes)
    for k, (c, v) in enumerate(moves):
        sgf += ";{}[{}]".format(c.upper(), sgf_point(v, size))
        note = next(notes, None) if c == ours and k >= replayed else None
        if note:
            sgf += "C[{}]".format(sgf_text(note))
    return sgf + ")\n"


def engine_notes(path):
    """What `go_gtp` wrote to stderr about each move it chose (its `go_gtp: ` lines), in order."""
    prefix = "go_gtp: "
    with open(path) as f:
        return [line[len(prefix):].strip() for line in f if line.startswith(prefix)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--time", type=float, default=1.0, help="our seconds per move")
    ap.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--resign", action="store_true", help="let our engine resign lost games")
    ap.add_argument("--gnugo-level", type=int, default=10)
    ap.add_argument("--ours", default=None, help="GTP command for our engine; {seed}, {time}, {level}, {threads} are filled in")
    ap.add_argument("--opponent", default=None, help="GTP command line of the opponent (default: GNU Go)")
    ap.add_argument("--opponent-dir", default=None, help="working directory for the opponent's command")
    ap.add_argument("--jobs", type=int, default=1, help="games played at the same time")
    ap.add_argument("--first-seed", type=int, default=1, help="our seed in game 0 (game k gets this + k)")
    ap.add_argument("--records", default="target/go_match", help="write every game as SGF here")
    ap.add_argument("--max-moves", type=int, default=0, help="default: 3 x size x size")
    ap.add_argument("--start", action="append", default=[], metavar="RECORD.sgf:N",
                    help="continue from the first N moves of this record (size, komi and our side from it)")
    args = ap.parse_args()
    starts = [read_start(spec) for spec in args.start]

    gnugo = find_gnugo()
    # The example as `cargo build --release --example go_gtp` leaves it (CARGO_TARGET_DIR honoured).
    go_gtp = os.path.abspath(os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "examples", "go_gtp"))
    opponent_cmd = args.opponent or gnugo_command(gnugo, args.gnugo_level)
    scorer_cmd = gnugo_command(gnugo, 1)
    os.makedirs(args.records, exist_ok=True)

    def one_game(game):
        ours_black = game % 2 == 0
        size, komi, opening = args.size, args.komi, ()
        if starts:
            size, komi, ours_black, opening = starts[game % len(starts)]
        max_moves = args.max_moves or 3 * size * size
        ours_cmd = (args.ours or (
            shlex.quote(go_gtp) + " --level {level} --time {time} --threads {threads} --seed {seed}"
            + (" --resign" if args.resign else "")
        )).format(level=args.level, time=args.time, threads=args.threads, seed=args.first_seed + game)
        log_path = os.path.join(args.records, f"game{game:03d}.log")
        with open(log_path, "w") as log:
            ours = Gtp(ours_cmd, log=log)
            opponent = Gtp(opponent_cmd, cwd=args.opponent_dir)
            try:
                names = ("parlor", opponent.send("name") or "opponent")
                winner, reason, score, moves = play_game(
                    ours, opponent, size, komi, ours_black, max_moves, scorer_cmd, opening
                )
            except RuntimeError as failure:
                # An engine that dies ends its game, not the match: the game is left out of
                # the count and named, so its seed can be played again.
                return game, ours_black, (None, str(failure), "", 0, None)
            finally:
                ours.close()
                opponent.close()
        notes = engine_notes(log_path)
        sgf = sgf_record(size, komi, names, ours_black, winner, score, moves, notes, len(opening))
        return game, ours_black, (winner, reason, score, len(moves), sgf)

    wins = losses = draws = 0
    as_black = [0, 0, 0]  # wins, losses, draws
    as_white = [0, 0, 0]
    margins = []  # ours, in the games counted to the end
    failed = []  # games an engine failure ended
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for game, ours_black, (winner, reason, score, n_moves, sgf) in pool.map(one_game, range(args.games)):
            if winner is None:
                failed.append(game)
                print(f"game {game + 1:3d}: parlor {'B' if ours_black else 'W'} not counted: {reason} "
                      f"(seed {args.first_seed + game})", flush=True)
                continue
            our_colour = "b" if ours_black else "w"
            won = winner == our_colour
            if winner == "draw":
                draws += 1
            elif won:
                wins += 1
            else:
                losses += 1
            outcome = "draw" if winner == "draw" else ("won" if won else "lost")
            tally = as_black if ours_black else as_white
            tally[["won", "lost", "draw"].index(outcome)] += 1
            margin = our_margin(score, ours_black)
            if margin is not None:
                margins.append(margin)
            with open(os.path.join(args.records, f"game{game:03d}.sgf"), "w") as f:
                f.write(sgf)
            print(
                f"game {game + 1:3d}: parlor {'B' if ours_black else 'W'} "
                f"{outcome:4s} {reason:8s} {score:8s} {n_moves:3d} moves "
                f"[{wins}-{losses}{'-' + str(draws) if draws else ''}]",
                flush=True,
            )
    n = wins + losses + draws
    low, high = wilson(wins + 0.5 * draws, n)
    print()
    ours_desc = args.ours or f"parlor {args.level} {args.time}s/move, {args.threads} thread(s)"
    theirs_desc = args.opponent or f"gnugo level {args.gnugo_level}"
    board = f"{len(starts)} recorded position(s)" if starts else f"{args.size}x{args.size} komi {args.komi}"
    print(f"{board}, {ours_desc} vs {theirs_desc}: "
          f"{n} games in {time.time() - started:.0f}s, records in {args.records}")
    print(f"parlor wins {wins}, losses {losses}, draws {draws}: "
          f"{100 * (wins + 0.5 * draws) / max(n, 1):.1f} % (95 % Wilson CI {100 * low:.1f}-{100 * high:.1f} %)")
    print("as Black {}-{}-{}, as White {}-{}-{} (wins-losses-draws)".format(*as_black, *as_white))
    if failed:
        print(f"not counted, an engine failed: game(s) {', '.join(str(g + 1) for g in failed)}")
    if margins:
        print(f"our margin over the {len(margins)} counted games: mean {sum(margins) / len(margins):+.1f}, "
              f"worst {min(margins):+.1f}")


if __name__ == "__main__":
    main()
