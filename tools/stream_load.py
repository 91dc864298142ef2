"""Many open event streams while moves arrive: delivery latency and the server's memory.

Starts the release server on a fresh SQLite file (or a fresh PostgreSQL schema with --postgres URL),
creates `--games` two-human 9x9 Go games, opens `--watchers` spectator streams on each, then plays
`--rate` moves a second for `--seconds` seconds across the games. For every event a watcher gets it
takes the delay from the change's `updated_at` (stamped by the server just before its commit, so the
delay counts the commit too) to the moment the event arrived, and checks that each watcher saw every
version of its game once, in order. The server's resident memory is read before the streams open
and once they are all open.

    cargo build --release --bin parlor
    python3 tools/stream_load.py --games 1000 --watchers 2 --rate 200 --seconds 20
    python3 tools/stream_load.py --postgres URL --processes 2 --games 200 --watchers 2 --seconds 25
"""
import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime

from running_server import wait_until_up

COLUMNS = "ABCDEFGHJ"


def moves_of_a_game():
    """Black fills rows 1-4, white rows 6-9: nothing is captured, no game ends."""
    moves = []
    for row in range(1, 5):
        for column in COLUMNS:
            moves.append(f"{column}{row}")
            moves.append(f"{column}{10 - row}")
    return moves


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def post(base, path, body, token=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


class Watcher:
    """One spectator stream, read line by line."""

    def __init__(self, host, port, game):
        self.host, self.port, self.game = host, port, game
        self.versions = []
        self.delays = []

    async def run(self, opened):
        reader, writer = await asyncio.open_connection(self.host, self.port)
        writer.write(
            f"GET /v1/go/games/{self.game}/events HTTP/1.1\r\nHost: {self.host}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        opened.release()
        event, data = None, None
        while True:
            line = await reader.readline()
            if not line:
                return
            line = line.decode().rstrip("\r\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
                if event == "change":
                    arrived = time.time()
                    game = json.loads(data)["game"]
                    stamped = datetime.fromisoformat(game["updated_at"].replace("Z", "+00:00"))
                    self.delays.append(arrived - stamped.timestamp())
                    self.versions.append(game["version"])


async def mover(bases, games, rate, seconds, played):
    """Plays `rate` moves a second, round-robin over the games and the servers, from a thread
    pool."""
    loop = asyncio.get_running_loop()
    plan = moves_of_a_game()
    interval = 1.0 / rate
    start = time.monotonic()
    n = 0
    pending = set()
    while time.monotonic() - start < seconds:
        game = games[n % len(games)]
        index = game["played"]
        if index < len(plan):
            game["played"] += 1
            token = game["tokens"][index % 2]
            path = f"/v1/go/games/{game['id']}/moves"
            base = bases[n % len(bases)]
            pending.add(loop.run_in_executor(None, post, base, path, {"move": plan[index]}, token))
            played[game["id"]] = index + 1
        n += 1
        next_at = start + n * interval
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        done = {p for p in pending if p.done()}
        for p in done:
            p.result()
        pending -= done
    for p in pending:
        await p


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def measure(args, bases, pid):
    base = bases[0]
    games = []
    for _ in range(args.games):
        created = post(base, "/v1/go/games", {"size": 9, "players": [{"name": "a"}, {"name": "b"}]})
        games.append({"id": created["id"], "tokens": [t["token"] for t in created["tokens"]], "played": 0})
    idle = rss_kib(pid)
    watchers = []
    for g in games:
        for i in range(args.watchers):
            host, port = bases[(len(watchers)) % len(bases)][len("http://"):].split(":")
            watchers.append(Watcher(host, int(port), g["id"]))
    opened = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(w.run(opened)) for w in watchers]
    for _ in watchers:
        await opened.acquire()
    await asyncio.sleep(2)
    streaming = rss_kib(pid)
    played = {}
    await mover(bases, games, args.rate, args.seconds, played)
    await asyncio.sleep(2)
    for t in tasks:
        t.cancel()
    delays = [d for w in watchers for d in w.delays]
    exact = sum(1 for w in watchers if w.versions == list(range(1, played.get(w.game, 0) + 1)))
    moves = sum(played.values())
    print(f"streams: {len(watchers)} on {args.games} games and {len(bases)} server(s); "
          f"moves: {moves} in {args.seconds} s")
    print(f"events: {len(delays)} (expected {moves * args.watchers}); "
          f"watchers with every version once, in order: {exact} of {len(watchers)}")
    print(f"delay from commit to event: p50 {percentile(delays, 0.5) * 1e3:.1f} ms, "
          f"p99 {percentile(delays, 0.99) * 1e3:.1f} ms, max {max(delays) * 1e3:.1f} ms")
    print(f"first server's memory: {idle / 1024:.1f} MiB idle, {streaming / 1024:.1f} MiB with the streams open: "
          f"{(streaming - idle) / len(watchers):.1f} KiB a stream")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/parlor")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--watchers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--postgres", help="a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--processes", type=int, default=1,
                        help="servers on the one database (more than one needs --postgres); "
                             "watchers and moves are spread over them")
    args = parser.parse_args()
    if args.processes > 1 and not args.postgres:
        raise SystemExit("--processes above 1 needs --postgres")
    with tempfile.TemporaryDirectory() as tmp:
        servers, bases = [], []
        try:
            for _ in range(args.processes):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", 0))
                    port = s.getsockname()[1]
                env = dict(os.environ, PORT=str(port), RUST_LOG="warn",
                           PARLOR_MAX_STREAMS=str(args.games * args.watchers + 100),
                           PARLOR_CREATE_RATE_PER_MINUTE="0",
                           DATABASE_URL=args.postgres or f"sqlite://{tmp}/bench.db")
                servers.append(subprocess.Popen([args.bin], env=env, stdout=subprocess.DEVNULL,
                                                stderr=sys.stderr))
                bases.append(f"http://127.0.0.1:{port}")
                wait_until_up(bases[-1], servers[-1], "parlor")
            asyncio.run(measure(args, bases, servers[0].pid))
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=20)


if __name__ == "__main__":
    random.seed(1)
    main()
