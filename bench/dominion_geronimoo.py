"""Benchmark: kingdoms against Geronimoo's DominionSimulator (Java 17), games per CPU second.

The peer is not part of this project: pass the directory of a compiled copy of it
(``classes/`` with its compiled classes and ``DomBots.xml``, ``assets/`` with its
jars)::

    .venv/bin/python bench/dominion_geronimoo.py --geronimoo /path/to/DominionSim
    .venv/bin/python bench/dominion_geronimoo.py --geronimoo DIR --games 5000 --rounds 3

Without ``--geronimoo`` (or the ``KINGDOMS_GERONIMOO`` environment variable), or
without ``java``/``javac``, it says so and plays only our side.

The Java side: ``bench/GeronimooDriver.java`` (ours), compiled here with ``javac``
into a temporary directory against the given classpath, loads the simulator's own
bots from its ``DomBots.xml`` and runs the loop of its ``DomEngine.startSimulation``
(the GUI's Start button) without the GUI, its in-game log off as in the GUI's
simulations; after ``--warmup`` games (a warm JIT, as a GUI session has after its
first run) it times ``--games`` games: CPU time of the simulating thread
(``ThreadMXBean``) and of the whole JVM (its garbage-collector and JIT threads
included).

Our side: the equivalent bundled bots through the simulator's game loop
(``kingdoms.sim.runner.play_one``, the way ``kingdoms sim`` plays: logging off),
the same number of games, CPU time of one process (``time.process_time`` around the
games, after warm-up games), in a child process per build: compiled, and pure
(``KINGDOMS_PURE=1``).  Rounds alternate the peers so that a change in machine
load hits all alike.  Each matchup prints games per CPU second and the ratio
ours/Java, against the Java thread's CPU time and against the JVM's.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "GeronimooDriver.java"
ENV = "KINGDOMS_GERONIMOO"

WITCH = ["witch", "moat", "village", "smithy", "market", "militia", "cellar", "chapel",
         "laboratory", "festival"]  # fmt: skip


@dataclass(frozen=True)
class Matchup:
    name: str
    java_bot: str  # a bot of DomBots.xml, copied into every seat
    ours: str  # a bundled kingdoms bot, in every seat
    seats: int
    kingdom: str | list[str]


MATCHUPS = (
    Matchup("Big Money mirror", "Basic Big Money", "big-money", 2, "First Game"),
    Matchup("BMU mirror", "Big Money Ultimate", "big-money-ultimate", 2, "First Game"),
    Matchup("Smithy mirror", "Smithy", "smithy", 2, "First Game"),
    Matchup("Witch mirror", "Witch", "witch", 2, WITCH),
    Matchup("4-player Big Money", "Basic Big Money", "big-money", 4, "First Game"),
)


@dataclass
class Tally:
    games: int = 0
    cpu: float = 0.0
    process_cpu: float = 0.0

    def add(self, games: int, cpu: float, process_cpu: float | None = None) -> None:
        self.games += games
        self.cpu += cpu
        self.process_cpu += cpu if process_cpu is None else process_cpu

    def rate(self, process: bool = False) -> float:
        spent = self.process_cpu if process else self.cpu
        return self.games / spent if spent > 0 else float("nan")


# -- our side ------------------------------------------------------------------------
def ours(matchup: Matchup, games: int, warmup: int, seed: int = 1) -> tuple[int, float]:
    """(games, CPU seconds) for ``games`` games of ``matchup`` through ``play_one``."""
    from kingdoms.sim.runner import play_one

    specs = [matchup.ours] * matchup.seats
    options = {"kingdom": matchup.kingdom}
    for i in range(warmup):
        play_one("dominion", specs, i, seed + 10_000_000, options)
    start = time.process_time()
    for i in range(games):
        play_one("dominion", specs, i, seed, options)
    return games, time.process_time() - start


def ours_in_child(matchup: Matchup, games: int, pure: bool) -> tuple[int, float]:
    """:func:`ours` in a fresh process of the build asked for (its own warm-up games
    first: imports, caches)."""
    env = dict(os.environ)
    env.pop("KINGDOMS_PURE", None)
    if pure:
        env["KINGDOMS_PURE"] = "1"
    args = [sys.executable, str(Path(__file__).resolve()), "--child", matchup.name]
    args += ["--games", str(games)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    build, n, cpu = out.split()
    if build != ("pure" if pure else "compiled"):
        raise RuntimeError(f"asked for the {'pure' if pure else 'compiled'} build, ran {build}")
    return int(n), float(cpu)


def compiled_available() -> bool:
    env = {k: v for k, v in os.environ.items() if k != "KINGDOMS_PURE"}
    code = "import kingdoms; print(kingdoms.build_kind())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return out.stdout.strip() == "compiled"


# -- the Java side -------------------------------------------------------------------
def java_tools() -> tuple[str, str] | None:
    java, javac = shutil.which("java"), shutil.which("javac")
    return (java, javac) if java and javac else None


def classpath(root: Path) -> str:
    classes, assets = root / "classes", root / "assets"
    if not (classes / "be" / "aga" / "dominionSimulator" / "DomBots.xml").is_file():
        raise SystemExit(f"{classes} holds no compiled DominionSimulator (DomBots.xml missing)")
    return os.pathsep.join([str(classes), str(assets / "*")])


def compile_driver(javac: str, cp: str, into: Path) -> None:
    subprocess.run(
        [javac, "-nowarn", "-cp", cp, "-d", str(into), str(DRIVER)],
        check=True,
        capture_output=True,
        text=True,
    )


def java_version(java: str) -> str:
    out = subprocess.run([java, "-version"], capture_output=True, text=True)
    return (out.stderr or out.stdout).splitlines()[0]


LINE = re.compile(r"games=(\d+) cpu_s=([\d.eE-]+) process_cpu_s=([\d.eE-]+)")


def java_games(java: str, cp: str, m: Matchup, games: int, warmup: int) -> tuple[int, float, float]:
    """(games, thread CPU s, JVM CPU s) of ``games`` games of ``m`` in Geronimoo's engine."""
    args = [java, "-cp", cp, "GeronimooDriver", m.java_bot, str(m.seats), str(games), str(warmup)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    found = LINE.search(done.stdout)
    if found is None:
        raise RuntimeError(f"unexpected output of the Java driver: {done.stdout!r}")
    return int(found[1]), float(found[2]), float(found[3])


# -- main ----------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    given = os.environ.get(ENV) or None
    helps = f"a compiled DominionSimulator (classes/, assets/); or ${ENV}"
    parser.add_argument("--geronimoo", type=Path, default=given, help=helps)
    parser.add_argument("--games", type=int, default=3000, help="timed games per round")
    parser.add_argument("--warmup", type=int, default=2000, help="Java warm-up games")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", action="append", help="matchup names to run (default: all)")
    parser.add_argument("--builds", default="compiled,pure", help="our builds to run")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    by_name = {m.name: m for m in MATCHUPS}

    if args.child:  # one build of ours, in this process
        import kingdoms

        n, cpu = ours(by_name[args.child], args.games, max(5, args.games // 50))
        print(kingdoms.build_kind(), n, cpu)
        return 0

    matchups = [by_name[n] for n in args.only] if args.only else list(MATCHUPS)
    builds = [b.strip() for b in args.builds.split(",") if b.strip()]
    if "compiled" in builds and not compiled_available():
        print("no compiled build in this install: only the pure path runs")
        builds = [b for b in builds if b != "compiled"]
    tools = java_tools()
    java_cp: str | None = None
    java_exe = ""
    tmp = tempfile.TemporaryDirectory(prefix="geronimoo-driver-")
    if args.geronimoo is None:
        print(f"Geronimoo's DominionSimulator not given (--geronimoo DIR or ${ENV}): "
              "only our side runs")  # fmt: skip
    elif tools is None:
        print("java/javac not found: only our side runs")
    else:
        cp = classpath(Path(args.geronimoo))
        compile_driver(tools[1], cp, Path(tmp.name))
        java_cp = os.pathsep.join([tmp.name, cp])
        java_exe = tools[0]
        print(f"peer: Geronimoo's DominionSimulator at {args.geronimoo}, {java_version(tools[0])}, "
              f"default JVM options; its bots from DomBots.xml, the loop of "
              f"DomEngine.startSimulation without the GUI, in-game log off "
              f"(DomEngine.haveToLog = false, as its GUI simulates); {args.warmup} warm-up "
              f"games, then CPU time of the simulating thread and of the whole JVM")  # fmt: skip
    print(f"ours: bundled bots through kingdoms.sim.runner.play_one (as `kingdoms sim` "
          f"plays, logging off), CPU time of one process per build ({', '.join(builds)}); "
          f"{args.games} games x {args.rounds} rounds per side")  # fmt: skip

    for m in matchups:
        java = Tally()
        mine = {b: Tally() for b in builds}
        for _ in range(args.rounds):
            if java_cp is not None:
                java.add(*java_games(java_exe, java_cp, m, args.games, args.warmup))
            for b in builds:
                mine[b].add(*ours_in_child(m, args.games, pure=b == "pure"))
        head = f"{m.name} ({m.java_bot!r} / {m.ours!r} x{m.seats}): "
        parts = []
        for b in builds:
            parts.append(f"ours {b} {mine[b].rate():.0f} games/CPU-s")
        if java_cp is not None:
            parts.append(
                f"Java {java.rate():.0f} (thread) / {java.rate(True):.0f} (JVM) games/CPU-s"
            )
            for b in builds:
                parts.append(f"ratio {b}/Java {mine[b].rate() / java.rate():.2f} (thread), "
                             f"{mine[b].rate() / java.rate(True):.2f} (JVM)")  # fmt: skip
        print(head + "; ".join(parts))
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
