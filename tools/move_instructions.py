#!/usr/bin/env python3
"""Instructions a Go move (or read) request costs the server late in a long game and early in a
new one, counted by callgrind: exact counts, which a noisy machine does not move, where timings
(examples/go_move_cost.rs) cannot tell a few microseconds apart.

    python3 tools/move_instructions.py                      # SQLite, moves
    python3 tools/move_instructions.py --database-url postgres://postgres@127.0.0.1:5432/test --what read

Starts target/release/parlor (build it first: cargo build --release) under
`valgrind --tool=callgrind --instr-atstart=no` with one HTTP worker, plays --long-games 19x19 games
to 300 moves and a set of short games, then runs eight phases of --requests requests each (early,
late, late, early, early, late, late, early: the order cancels a drift such as SQLite's write-ahead
log filling up), switching the count on and dumping it around each phase (callgrind_control).
Moves are random points the rules allow (an empty neighbour, an own group with another liberty,
or a capture), so no refused request is counted. Prints the instructions per request of each
kind, and, by function, what a late request costs more than an early one.

Needs valgrind (apt-get install valgrind). The database must be empty (a fresh SQLite file is made
when --database-url is not given).
"""
import argparse, collections, json, os, random, re, subprocess, sys, tempfile, urllib.error, urllib.request

from running_server import wait_until_up

COLS = "ABCDEFGHJKLMNOPQRST"


def request(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class Game:
    def __init__(self, base, rng):
        self.base, self.rng = base, rng
        status, game = request(base, "POST", "/v1/go/games", {"size": 19, "players": [{"name": "b"}, {"name": "w"}]})
        assert status == 201, game
        self.id, self.tokens, self.game, self.moves = game["id"], [t["token"] for t in game["tokens"]], game, 0

    def allowed(self):
        board = self.game["state"]["board"]
        me = "X" if self.game["turn"] == 0 else "O"

        def neighbours(r, c):
            return [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)) if 0 <= r + dr < 19 and 0 <= c + dc < 19]

        def liberties(r, c):
            color, seen, stack, found = board[r][c], {(r, c)}, [(r, c)], set()
            while stack:
                for q in neighbours(*stack.pop()):
                    v = board[q[0]][q[1]]
                    if v == ".":
                        found.add(q)
                    elif v == color and q not in seen:
                        seen.add(q)
                        stack.append(q)
            return len(found)

        def allowed_at(r, c):
            for q in neighbours(r, c):
                v = board[q[0]][q[1]]
                if v == "." or (v == me and liberties(*q) > 1) or (v not in (".", me) and liberties(*q) == 1):
                    return True
            return False

        return [(r, c) for r in range(19) for c in range(19) if board[r][c] == "." and allowed_at(r, c)]

    def play(self):
        points = self.allowed()
        self.rng.shuffle(points)
        for r, c in points:
            status, answer = request(self.base, "POST", f"/v1/go/games/{self.id}/moves",
                                     {"move": f"{COLS[c]}{19 - r}"}, self.tokens[self.game["turn"]])
            if status == 200:
                self.game, self.moves = answer["game"], self.moves + 1
                return
            assert status == 422, answer  # a ko the simple test above lets through
            raise SystemExit(f"a refused move would be counted: {answer}")
        raise SystemExit("no point left")

    def read(self):
        status, answer = request(self.base, "GET", f"/v1/go/games/{self.id}")
        assert status == 200, answer


def annotate(path):
    """Self instructions by function, from callgrind_annotate's summary table."""
    out = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", path],
                         capture_output=True, text=True, check=True).stdout
    table = out.split("file:function", 1)[1].split("\n--------", 2)[1]
    costs = collections.Counter()
    for line in table.splitlines():
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(.*)", line)
        if m and not m.group(2).startswith("=>"):
            costs[re.sub(r"\[.*?\]$", "", m.group(2)).strip()] += int(m.group(1).replace(",", ""))
    return costs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database-url")
    ap.add_argument("--what", choices=["move", "read"], default="move")
    ap.add_argument("--requests", type=int, default=100, help="requests a phase")
    ap.add_argument("--long-games", type=int, default=6)
    ap.add_argument("--port", type=int, default=8390)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="move_instructions_")
    url = args.database_url or f"sqlite://{work}/parlor.db"
    binary = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "parlor")
    if not os.path.exists(binary):
        raise SystemExit(f"{binary} is missing: cargo build --release first (or set CARGO_TARGET_DIR)")
    env = dict(os.environ, PARLOR_WORKERS="1", PARLOR_AI_WORKERS="1")
    server = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                               f"--callgrind-out-file={work}/callgrind.out", binary,
                               "--port", str(args.port), "--database-url", url],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{args.port}"
    try:
        wait_until_up(base, server, "the server under valgrind (is valgrind installed?)", pause=0.2)
        control = lambda *a: subprocess.run(["callgrind_control", *a, str(server.pid)], check=True, capture_output=True)
        rng = random.Random(args.seed)
        long_games = [Game(base, rng) for _ in range(args.long_games)]
        for game in long_games:
            while game.moves < 300:
                game.play()

        def short_games():
            games = [Game(base, rng) for _ in range(args.requests // 5 + 1)]
            for game in games:
                game.play()
            return games

        short = short_games()
        dumps = []
        for phase in ["early", "late", "late", "early"] * 2:
            pick = (lambda i: short[i // 5]) if phase == "early" else (lambda i: long_games[i % len(long_games)])
            control("--instr=on")
            control("--zero")
            for i in range(args.requests):
                game = pick(i)
                game.play() if args.what == "move" else game.read()
            control(f"--dump={phase}")
            control("--instr=off")
            dumps.append((phase, len(dumps) + 1))
            if phase == "early":
                short = short_games()
    finally:
        server.terminate()
        server.wait()
    totals = {"early": collections.Counter(), "late": collections.Counter()}
    for phase, n in dumps:
        totals[phase] += annotate(f"{work}/callgrind.out.{n}")
    per = {k: {f: v / (4 * args.requests) for f, v in c.items()} for k, c in totals.items()}
    early, late = (sum(per[k].values()) for k in ("early", "late"))
    print(f"{args.what} requests, instructions each: early {early:,.0f}, late {late:,.0f}, "
          f"late - early {late - early:+,.0f} ({(late / early - 1) * 100:+.2f} %)")
    rows = sorted(((per["late"].get(f, 0) - per["early"].get(f, 0), f) for f in set(per["early"]) | set(per["late"])), reverse=True)
    print(f"\nby function (self), late - early, the {args.top} largest either way:")
    for d, f in rows[:args.top] + [(None, "...")] + rows[-args.top // 3:]:
        print("      ..." if d is None else f"{d:+9,.0f}  {f[-110:]}")


if __name__ == "__main__":
    main()
