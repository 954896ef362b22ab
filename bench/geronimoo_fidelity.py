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
figure ``kingdoms sim`` reports), with its 95 % Wilson interval, and the
difference (here minus Geronimoo)::

    nice .venv/bin/python bench/geronimoo_fidelity.py --geronimoo /work/geronimoo -n 20000
    nice .venv/bin/python bench/geronimoo_fidelity.py --geronimoo /work/geronimoo -n 2000 \\
        --only "Witch,Lab/Militia/Chapel" --format markdown

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
from pathlib import Path

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

/** Reads "bot name" lines on stdin; plays each against the opponent; prints
 *  name TAB games TAB wins TAB ties (ties: the bot's share of tied games). */
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
        Random rng = new Random(Long.parseLong(args[3]));
        // an engine without its window: the games only ask it to show a status line
        java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
        DomEngine engine = (DomEngine) unsafe.allocateInstance(DomEngine.class);
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String name;
        while ((name = lines.readLine()) != null) {
            if (name.isEmpty()) continue;
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


def _classpath(root: Path) -> str:
    classes = root / "classes" if (root / "classes").is_dir() else root
    assets = root / "assets" if (root / "assets").is_dir() else root.parent / "assets"
    jars = sorted(str(j) for j in assets.glob("*.jar") if "GeronimooDomSim" not in j.name)
    return os.pathsep.join([str(classes), *jars])


def geronimoo_scores(
    root: Path, xml: Path, names: list[str], games: int, seed: int
) -> dict[str, tuple[float, float]]:
    """Bot name -> (points, games) from DominionSimulator itself."""
    cp = _classpath(root)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "FidelityDriver.java"
        src.write_text(DRIVER, encoding="utf-8")
        subprocess.run(
            ["javac", "-nowarn", "-cp", cp, "-d", tmp, str(src)],
            check=True,
            capture_output=True,
        )
        command = ["java", "-Djava.awt.headless=true", "-cp", os.pathsep.join([tmp, cp])]
        command += ["FidelityDriver", str(xml), str(games), OPPONENT, str(seed)]
        done = subprocess.run(
            command,
            input="\n".join(names) + "\n",
            capture_output=True,
            text=True,
            check=True,
        )
    out: dict[str, tuple[float, float]] = {}
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 4:
            name, n, wins, ties = parts
            out[name] = (float(wins) + float(ties), float(n))
    return out


def our_scores(
    files: dict[str, Path], opponent: Path, games: int, seed: int
) -> dict[str, tuple[float, float]]:
    """Bot name -> (points, games) from the converted files, here."""
    from kingdoms.bots.dominion.lang import load_strategy
    from kingdoms.sim.runner import simulate

    opp = load_strategy(opponent)
    out: dict[str, tuple[float, float]] = {}
    for name, path in files.items():
        strategy = load_strategy(path)
        named = {r.key for r in (*strategy.buy, *opp.buy) if r.key}
        kingdom = sorted(c for c in named if c not in _BASIC and c in _KINGDOM_IDS) or list(
            strategy.kingdom
        )
        report = simulate(
            "dominion",
            [str(path), str(opponent)],
            games,
            seed,
            {"kingdom": kingdom[:10]} if kingdom else {},
            max_turns=60,  # Geronimoo's cap: stopped after the first player's 60th turn
        )
        out[name] = (report.points()[0], float(report.games))
        capped = f" ({report.capped} games at the turn cap)" if report.capped else ""
        print(f"  here: {name}: {100 * out[name][0] / out[name][1]:.1f} %{capped}", file=sys.stderr)
    return out


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


def main(argv: list[str] | None = None) -> int:
    global _KINGDOM_IDS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--geronimoo", type=Path, help="DominionSimulator's directory (classes/)")
    ap.add_argument("--bots", type=Path, help="the DomBots.xml (default: the one in --geronimoo)")
    ap.add_argument("-n", "--games", type=int, default=20000, help="games per matchup and side")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--only", default="", help="comma-separated bot names (default: all)")
    ap.add_argument("--side", choices=("both", "here", "geronimoo"), default="both")
    ap.add_argument("--format", choices=("plain", "markdown", "csv", "json"), default="plain")
    args = ap.parse_args(argv)
    if args.geronimoo is None and (args.side != "here" or args.bots is None):
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
    bots = [b for b in convert(xml.read_text(encoding="utf-8")) if b.toml is not None]
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    chosen = [b for b in bots if not only or b.name in only]
    start = _cpu()
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
        names = list(files)
        ref = {}
        if args.side != "here" and args.geronimoo is not None:
            ref = geronimoo_scores(args.geronimoo, xml, names, args.games, args.seed)
        ours = (
            our_scores(files, opponent, args.games, args.seed) if args.side != "geronimoo" else {}
        )
    rows = []
    for name in names:
        row: dict[str, object] = {"bot": name}
        if name in ours:
            row["here"] = round(100 * ours[name][0] / ours[name][1], 2)
            row["here_cell"] = _cell(*ours[name])
        if name in ref:
            row["geronimoo"] = round(100 * ref[name][0] / ref[name][1], 2)
            row["geronimoo_cell"] = _cell(*ref[name])
        if name in ours and name in ref:
            row["difference"] = round(float(row["here"]) - float(row["geronimoo"]), 2)  # type: ignore[arg-type]
        rows.append(row)
    _print(rows, args.format, args.games)
    build = "pure Python" if os.environ.get("KINGDOMS_PURE") else "the installed build"
    print(
        f"# {args.games} games per matchup and side vs {OPPONENT!r}, seed {args.seed}; "
        f"here: kingdoms sim (one worker, {build}); Geronimoo: its DomGame loop in one "
        f"JVM; CPU {_cpu() - start:.0f} s (this process and its children)",
        file=sys.stderr,
    )
    return 0


def _print(rows: list[dict[str, object]], fmt: str, games: int) -> None:
    head = ["bot", "here", "Geronimoo", "difference"]
    cells = [
        [
            str(r["bot"]),
            str(r.get("here_cell", "—")),
            str(r.get("geronimoo_cell", "—")),
            f"{r['difference']:+.1f}" if "difference" in r else "—",
        ]
        for r in rows
    ]
    if fmt == "json":
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    elif fmt == "csv":
        w = csv.writer(sys.stdout)
        w.writerow(["bot", "here", "geronimoo", "difference"])
        for r in rows:
            w.writerow(
                [r["bot"], r.get("here", ""), r.get("geronimoo", ""), r.get("difference", "")]
            )
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
