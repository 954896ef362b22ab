"""Fidelity of imported bots: the same matchups here and in Geronimoo's simulator.

Every bot of a ``DomBots.xml`` that ``kingdoms strategy import`` converts plays
against that file's "Big Money Ultimate" on both sides:

* **here**: the converted strategy files, through the simulator (``kingdoms sim``'s
  loop: ``simulate`` with one worker), seats alternating, on a kingdom holding the
  cards both bots name (the rest random, never bought by either bot), with
  Geronimoo's turn cap (a game stops once its first player has taken 60 turns and
  is scored as it stands: ``simulate(max_turns=60)``);
* **Geronimoo**: DominionSimulator itself, driven headless by a small Java program
  this script writes to a temporary directory and compiles against the simulator's
  compiled classes (``--geronimoo PATH``: the directory holding ``classes/`` and
  ``assets/``, or the ``classes`` directory itself) — the same loop as its own
  simulation button: players shuffled into a new seat order every game, its board
  reused and reset between games.

Both columns are the importer's score in percent: wins plus half of the ties (the
figure ``kingdoms sim`` reports), with its 95 % Wilson interval and game count,
the difference (here minus Geronimoo) and whether it is within 2.5 points.  Each
bot's matchup has its own seed, derived from ``--seed`` and the bot's name, so a
bot's figure does not depend on the others.  ``--results FILE`` keeps every
finished matchup (one JSON line each, written as it ends): run again with the same
file and only what is missing is played; ``--table-only`` prints the table of what
the file holds; ``--refused`` lists the bots the import cannot convert, each with
every reason::

    nice -n 10 .venv/bin/python bench/geronimoo_fidelity.py --geronimoo /work/geronimoo \
        -n 20000 --results fidelity.jsonl --format markdown
    nice .venv/bin/python bench/geronimoo_fidelity.py --geronimoo /work/geronimoo -n 2000 \
        --only "Witch,Lab/Militia/Chapel" --format markdown
    .venv/bin/python bench/geronimoo_fidelity.py --geronimoo /work/geronimoo --refused

Nothing of the simulator is copied: the driver only calls its public classes
(``XMLHandler`` to read the bots, ``DomGame`` to play).  Without ``--geronimoo`` the
script says so and exits (status 2).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

DRIVER = r"""
import be.aga.dominionSimulator.DomBoard;
import be.aga.dominionSimulator.DomEngine;
import be.aga.dominionSimulator.DomGame;
import be.aga.dominionSimulator.DomPlayer;
import be.aga.dominionSimulator.XMLHandler;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.xml.sax.InputSource;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.XMLReaderFactory;

/** Reads "seed TAB bot name" lines on stdin; plays each bot against the opponent
 *  with its own random generator; prints name TAB games TAB wins TAB ties (ties:
 *  the bot's share of tied games) as each bot finishes. */
public class FidelityDriver {
    static DomPlayer find(String file, String name) throws Exception {
        XMLHandler handler = new XMLHandler();
        XMLReader reader = XMLReaderFactory.createXMLReader();
        reader.setContentHandler(handler);
        try (FileInputStream in = new FileInputStream(file)) {
            reader.parse(new InputSource(in));
        }
        for (DomPlayer p : handler.getBots()) {
            if (p.getName().equals(name)) return p;
        }
        throw new IllegalArgumentException("no bot named " + name);
    }

    public static void main(String[] args) throws Exception {
        String file = args[0];
        int games = Integer.parseInt(args[1]);
        String opponent = args[2];
        // an engine without its window: the games only ask it to show a status line
        java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
        DomEngine engine = (DomEngine) unsafe.allocateInstance(DomEngine.class);
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.isEmpty()) continue;
            int tab = line.indexOf('\t');
            Random rng = new Random(Long.parseLong(line.substring(0, tab)));
            String name = line.substring(tab + 1);
            DomPlayer bot = find(file, name);
            DomPlayer opp = find(file, opponent);
            List<DomPlayer> seats = new ArrayList<>();
            seats.add(bot);
            seats.add(opp);
            DomBoard board = null;
            for (int i = 0; i < games; i++) {
                Collections.shuffle(seats, rng);
                DomGame game = new DomGame(board, new ArrayList<>(seats), engine);
                game.runSimulation();
                game.determineWinners();
                board = game.getBoard();
                board.reset();
            }
            System.out.println(name + "\t" + games + "\t" + bot.getWins() + "\t" + bot.getTies());
            System.out.flush();
        }
    }
}
"""

OPPONENT = "Big Money Ultimate"
MARGIN = 2.5  # points: the fidelity issue's bound on |here - Geronimoo|


def bot_seed(seed: int, name: str) -> int:
    """The seed of one bot's matchup: the run's seed and the bot's name, nothing
    else, so a bot's figure does not depend on which other bots run, in what order,
    or whether the run was resumed (both sides use it)."""
    return zlib.crc32(f"{seed}\t{name}".encode()) & 0x7FFFFFFF


def _classpath(root: Path) -> str:
    classes = root / "classes" if (root / "classes").is_dir() else root
    assets = root / "assets" if (root / "assets").is_dir() else root.parent / "assets"
    jars = sorted(str(j) for j in assets.glob("*.jar") if "GeronimooDomSim" not in j.name)
    return os.pathsep.join([str(classes), *jars])


Done = Callable[[str, float, float, float], None]  # bot, points, games, CPU seconds


def java_command(root: Path, xml: Path, games: int, tmp: str) -> list[str]:
    """Compiles the driver into ``tmp``; the command that runs it."""
    cp = _classpath(root)
    src = Path(tmp) / "FidelityDriver.java"
    src.write_text(DRIVER, encoding="utf-8")
    subprocess.run(
        ["javac", "-nowarn", "-cp", cp, "-d", tmp, str(src)],
        check=True,
        capture_output=True,
    )
    command = ["java", "-Djava.awt.headless=true", "-cp", os.pathsep.join([tmp, cp])]
    return [*command, "FidelityDriver", str(xml), str(games), OPPONENT]


def geronimoo_scores(command: list[str], names: list[str], seed: int, done: Done) -> None:
    """Plays each bot in DominionSimulator itself (one JVM a bot: each bot's CPU
    time is the child's); ``done`` hears each as it ends."""
    for name in names:
        before = _cpu()
        run = subprocess.run(
            command,
            input=f"{bot_seed(seed, name)}\t{name}\n",
            capture_output=True,
            text=True,
            check=True,
        )
        for line in run.stdout.splitlines():
            parts = line.split("\t")
            if len(parts) == 4 and parts[0] == name:
                _, n, wins, ties = parts
                done(name, float(wins) + float(ties), float(n), _cpu() - before)


def our_scores(files: dict[str, Path], opponent: Path, games: int, seed: int, done: Done) -> None:
    """Plays each converted file here; ``done`` hears each bot as it ends."""
    from kingdoms.bots.dominion.lang import load_strategy
    from kingdoms.sim.runner import simulate

    opp = load_strategy(opponent)
    for name, path in files.items():
        before = _cpu()
        strategy = load_strategy(path)
        named = {r.key for r in (*strategy.buy, *opp.buy) if r.key}
        kingdom = sorted(c for c in named if c not in _BASIC and c in _KINGDOM_IDS) or list(
            strategy.kingdom
        )
        report = simulate(
            "dominion",
            [str(path), str(opponent)],
            games,
            bot_seed(seed, name),
            {"kingdom": kingdom[:10]} if kingdom else {},
            max_turns=60,  # Geronimoo's cap: stopped after the first player's 60th turn
        )
        points = report.points()[0]
        capped = f" ({report.capped} games at the turn cap)" if report.capped else ""
        print(f"  here: {name}: {100 * points / report.games:.1f} %{capped}", file=sys.stderr)
        done(name, points, float(report.games), _cpu() - before)


_BASIC = frozenset({"copper", "silver", "gold", "estate", "duchy", "province", "curse", "potion"})
_KINGDOM_IDS: frozenset[str] = frozenset()


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _wilson(points: float, n: float, z: float = 1.959964) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    p = points / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _cell(points: float, n: float) -> str:
    lo, hi = _wilson(points, n)
    return f"{100 * points / n:.1f} % [{100 * lo:.1f}–{100 * hi:.1f}]"


class Results:
    """Finished matchups, one JSON line each (side, bot, games, seed, points, cpu),
    appended as each ends; a run given the same file skips what it holds for the
    same games and seed, so a stopped run resumes where it stopped."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.rows: dict[tuple[str, str, int, int], dict[str, Any]] = {}
        if path is not None and path.exists():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    key = (str(row["side"]), str(row["bot"]), int(row["games"]), int(row["seed"]))
                    float(row["points"])
                except (ValueError, KeyError, TypeError) as err:
                    raise SystemExit(f"{path}:{number}: not a result line ({err})") from None
                self.rows[key] = row

    def get(self, side: str, bot: str, games: int, seed: int) -> dict[str, Any] | None:
        return self.rows.get((side, bot, games, seed))

    def add(self, side: str, bot: str, games: int, seed: int, points: float, cpu: float) -> None:
        row = {"side": side, "bot": bot, "games": games, "seed": seed, "points": points}
        row["cpu"] = round(cpu, 1)
        self.rows[(side, bot, games, seed)] = row
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")


def refused_lines(bots: list[Any]) -> list[str]:
    """One line per bot the import refuses, with every reason."""
    return [
        f"{b.name}: {'; '.join(b.reasons or [b.reason or '?'])}" for b in bots if b.toml is None
    ]


def main(argv: list[str] | None = None) -> int:
    global _KINGDOM_IDS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--geronimoo", type=Path, help="DominionSimulator's directory (classes/)")
    ap.add_argument("--bots", type=Path, help="the DomBots.xml (default: the one in --geronimoo)")
    ap.add_argument("-n", "--games", type=int, default=20000, help="games per matchup and side")
    ap.add_argument("--seed", type=int, default=2024, help="run seed (each bot's is derived)")
    ap.add_argument("--only", default="", help="comma-separated bot names (default: all)")
    ap.add_argument("--side", choices=("both", "here", "geronimoo"), default="both")
    ap.add_argument("--format", choices=("plain", "markdown", "csv", "json"), default="plain")
    ap.add_argument(
        "--results",
        type=Path,
        help="JSON-lines file of finished matchups: appended as each ends, and a "
        "matchup it already holds (same games and seed) is not played again",
    )
    ap.add_argument(
        "--table-only",
        action="store_true",
        help="play nothing: print the table of what --results holds",
    )
    ap.add_argument(
        "--refused",
        action="store_true",
        help="list the bots the import refuses, each with every reason, and stop",
    )
    args = ap.parse_args(argv)
    if args.games < 1:
        print(f"--games must be at least 1, not {args.games}", file=sys.stderr)
        return 2
    if args.table_only and args.results is None:
        print("--table-only needs --results FILE", file=sys.stderr)
        return 2
    needs_java = args.side != "here" and not args.table_only and not args.refused
    if args.geronimoo is None and (needs_java or args.bots is None):
        print(
            "--geronimoo PATH (DominionSimulator's compiled classes) is needed "
            "(or --side here with --bots DomBots.xml)",
            file=sys.stderr,
        )
        return 2
    xml = args.bots or (args.geronimoo / "src/main/java/be/aga/dominionSimulator/DomBots.xml")
    from kingdoms.bots.dominion.geronimoo import convert
    from kingdoms.dominion.data import CARDS

    _KINGDOM_IDS = frozenset(c.id for c in CARDS if c.is_kingdom)
    every = convert(xml.read_text(encoding="utf-8"))
    if args.refused:
        lines = refused_lines(every)
        for line in lines:
            print(f"- {line}" if args.format == "markdown" else line)
        print(f"# {len(lines)} of {len(every)} bots refused", file=sys.stderr)
        return 0
    bots = [b for b in every if b.toml is not None]
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = sorted(only - {b.name for b in bots})
    if unknown:
        print(f"--only names no importable bot: {', '.join(unknown)}", file=sys.stderr)
        return 2
    chosen = [b for b in bots if not only or b.name in only]
    names = [b.name for b in chosen]
    results = Results(args.results)
    n, seed = args.games, args.seed
    start = _cpu()

    def todo(side: str) -> list[str]:
        if args.table_only or args.side not in (side, "both"):
            return []
        return [b for b in names if results.get(side, b, n, seed) is None]

    def saver(side: str) -> Done:
        return lambda bot, points, games, cpu: results.add(side, bot, int(games), seed, points, cpu)

    with tempfile.TemporaryDirectory() as tmp:
        files: dict[str, Path] = {}
        opponent: Path | None = None
        for i, b in enumerate(bots):
            path = Path(tmp) / f"{i:03d}-{b.slug}.toml"
            path.write_text(b.toml or "", encoding="utf-8")
            if b.name == OPPONENT:
                opponent = path
            if b in chosen:
                files[b.name] = path
        if opponent is None:
            print(f"{xml} has no bot named {OPPONENT!r}", file=sys.stderr)
            return 2
        java = todo("geronimoo") if args.geronimoo is not None else []
        command = java_command(args.geronimoo, xml, n, tmp) if java else []
        here = todo("here")
        # bot by bot, both sides: a stopped run keeps whole rows
        for name in names:
            if name in java:
                geronimoo_scores(command, [name], seed, saver("geronimoo"))
            if name in here:
                our_scores({name: files[name]}, opponent, n, seed, saver("here"))
    rows = table_rows(results, names, n, seed)
    _print(rows, args.format)
    build = "pure Python" if os.environ.get("KINGDOMS_PURE") else "the installed build"
    print(
        f"# {n} games per matchup and side vs {OPPONENT!r}, run seed {seed} (each bot's "
        f"seed derived from it and the bot's name); here: kingdoms sim (one worker, "
        f"{build}); Geronimoo: its DomGame loop, one JVM a bot; CPU {_cpu() - start:.0f} s "
        f"(this process and its children); {len(every) - len(bots)} of {len(every)} bots "
        "refused by the import (--refused lists them)",
        file=sys.stderr,
    )
    return 0


def table_rows(results: Results, names: list[str], games: int, seed: int) -> list[dict[str, Any]]:
    """One row per bot: each side's games, score (%) and interval, the difference
    and whether it is within the margin (when both sides are measured)."""
    rows: list[dict[str, Any]] = []
    for name in names:
        row: dict[str, Any] = {"bot": name}
        for side in ("here", "geronimoo"):
            got = results.get(side, name, games, seed)
            if got is None:
                continue
            points, n = float(got["points"]), float(got["games"])
            row[f"{side}_games"] = int(n)
            row[side] = round(100 * points / n, 2)
            lo, hi = _wilson(points, n)
            row[f"{side}_interval"] = [round(100 * lo, 2), round(100 * hi, 2)]
            row[f"{side}_cell"] = _cell(points, n)
        if "here" in row and "geronimoo" in row:
            row["difference"] = round(row["here"] - row["geronimoo"], 2)
            row["within"] = abs(row["difference"]) <= MARGIN
        rows.append(row)
    return rows


def _print(rows: list[dict[str, Any]], fmt: str) -> None:
    head = [
        "bot", "games here", "here", "games Geronimoo", "Geronimoo", "difference",
        f"within {MARGIN}",
    ]  # fmt: skip

    def mark(r: dict[str, Any]) -> str:
        if "within" not in r:
            return "—"
        return "yes" if r["within"] else ("**no**" if fmt == "markdown" else "NO")

    cells = [
        [
            str(r["bot"]),
            f"{r['here_games']:,}" if "here_games" in r else "—",
            str(r.get("here_cell", "—")),
            f"{r['geronimoo_games']:,}" if "geronimoo_games" in r else "—",
            str(r.get("geronimoo_cell", "—")),
            f"{r['difference']:+.1f}" if "difference" in r else "—",
            mark(r),
        ]
        for r in rows
    ]
    if fmt == "json":
        print(
            json.dumps(
                [{k: v for k, v in r.items() if not k.endswith("_cell")} for r in rows],
                indent=1,
                ensure_ascii=False,
            )
        )
    elif fmt == "csv":
        w = csv.writer(sys.stdout)
        keys = ["bot", "here_games", "here", "geronimoo_games", "geronimoo", "difference", "within"]
        w.writerow(keys)
        for r in rows:
            w.writerow([r.get(k, "") for k in keys])
    elif fmt == "markdown":
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for c in cells:
            print("| " + " | ".join(c) + " |")
    else:
        widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
        for c in cells:
            print("  ".join(x.ljust(w) for x, w in zip(c, widths, strict=True)))


if __name__ == "__main__":
    raise SystemExit(main())
