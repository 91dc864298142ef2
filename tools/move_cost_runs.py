#!/usr/bin/env python3
"""Runs examples/go_move_cost many times, each run on a fresh database, and gives the verdict the
way docs/PERFORMANCE.md states it: the mean over runs of the server's own paired late − early
difference, with a 95 % t-interval over runs. A single run's interval is too narrow: one fresh
database differs from the next by several microseconds.

    cargo build --release --bin parlor --example go_move_cost
    python3 tools/move_cost_runs.py --seeds 1001-1012
    python3 tools/move_cost_runs.py --database postgres --seeds 941-944
    python3 tools/move_cost_runs.py --parlor old=/tmp/parlor-old --parlor new=target/release/parlor --seeds 1001-1012

Each --parlor (a label=path, default: the release build) is run once a seed, in turn, so a slow
spell of the machine falls on every build alike. SQLite runs get a new file in a temp directory;
PostgreSQL runs get a new database on --postgres (created and dropped with psql). --pin puts the
server on core 0 and the client on core 1 (taskset). --long-games-played in-turn plays the long
games a move each in turn instead of one after another. Prints a line a run, then for each build
the mean with its interval, for moves and reads, and the early move's median.
"""
import argparse, math, os, re, shutil, socket, statistics, subprocess, tempfile

from running_server import wait_until_up

# Two-sided 95 % quantiles of Student's t, by degrees of freedom (1.96 beyond the table).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
       2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
       2.052, 2.048, 2.045, 2.042]


def seeds(text):
    out = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_clock(report):
    """The paired move and read differences (µs) and the early move's median (ms), by the
    server's clock, from go_move_cost's report."""
    own = report[report.index("server's own"):]
    paired = lambda what: 1000 * float(re.search(rf"paired {what}: .*?pairs ([-+\d.]+) ms", own).group(1))
    early = float(re.search(r"\| move \| 1–10 \| \d+ \| ([\d.]+)", own).group(1))
    return paired("move"), paired("read"), early


def mean_interval(xs):
    """The mean of two or more runs with its 95 % t-interval."""
    m = statistics.mean(xs)
    half = (T95[len(xs) - 2] if len(xs) - 2 < len(T95) else 1.96) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def one_run(parlor, client, url, seed, args):
    port = free_port()
    pin = lambda core: ["taskset", "-c", str(core)] if args.pin else []
    # The client makes hundreds of short games a run: no creation quota.
    server = subprocess.Popen(pin(0) + [parlor, "--port", str(port), "--database-url", url,
                                        "--create-rate-per-minute", "0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, server, parlor)
        report = subprocess.run(pin(1) + [client, "--base", base, "--samples", str(args.samples),
                                          "--late-games", str(args.late_games), "--late-at", str(args.late_at),
                                          "--seed", str(seed), "--long-games-played", args.long_games_played],
                                check=True, capture_output=True, text=True).stdout
    finally:
        server.terminate()
        server.wait()
    return server_clock(report)


def main():
    target = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parlor", action="append", help="label=path of a server binary (repeatable)")
    ap.add_argument("--client", default=os.path.join(target, "examples", "go_move_cost"))
    ap.add_argument("--seeds", type=seeds, default=seeds("1001-1012"), help="e.g. 1001-1012 or 5,7,9")
    ap.add_argument("--samples", type=int, default=3000)
    ap.add_argument("--late-games", type=int, default=30)
    ap.add_argument("--late-at", type=int, default=300, help="the long games' moves before timing starts")
    ap.add_argument("--long-games-played", choices=["one-after-another", "in-turn"], default="one-after-another",
                    help="each long game played to --late-at before the next is made, or all a move each in turn")
    ap.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/test",
                    help="where the fresh PostgreSQL databases are made")
    ap.add_argument("--pin", action="store_true", help="server on core 0, client on core 1")
    args = ap.parse_args()
    builds = [p.split("=", 1) if "=" in p else (p, p) for p in args.parlor or [f"release={target}/parlor"]]
    for path in [args.client] + [p for _, p in builds]:
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: cargo build --release --bin parlor --example go_move_cost")
    results = {label: [] for label, _ in builds}
    work = tempfile.mkdtemp(prefix="move_cost_runs_")
    try:
        for seed in args.seeds:
            for label, parlor in builds:
                if args.database == "sqlite":
                    url = f"sqlite://{work}/{label}-{seed}.db"
                else:
                    name = f"move_cost_{os.getpid()}_{seed}"
                    psql = lambda sql: subprocess.run(["psql", "-q", args.postgres, "-c", sql], check=True,
                                                      capture_output=True)
                    psql(f"DROP DATABASE IF EXISTS {name}")
                    psql(f"CREATE DATABASE {name}")
                    url = args.postgres.rsplit("/", 1)[0] + "/" + name
                try:
                    move, read, early = one_run(parlor, args.client, url, seed, args)
                finally:
                    if args.database == "postgres":
                        psql(f"DROP DATABASE IF EXISTS {name}")
                results[label].append((move, read, early))
                print(f"seed {seed} {label}: move {move:+.1f} µs, read {read:+.1f} µs, early move {early:.3f} ms",
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nserver's own late − early, paired; mean over runs (95 % t-interval), {args.database}:")
    for label, runs in results.items():
        for i, what in enumerate(["move", "read"]):
            if len(runs) < 2:
                print(f"{label} {what}: {runs[0][i]:+.1f} µs, one run (an interval needs two or more)")
                continue
            m, low, high = mean_interval([r[i] for r in runs])
            print(f"{label} {what}: {m:+.1f} µs ({low:+.1f} to {high:+.1f}), {len(runs)} runs")
        print(f"{label} early move: median of runs {statistics.median(r[2] for r in runs):.3f} ms")


if __name__ == "__main__":
    main()
