"""Games as offline-RL datasets: Minari's format, Parquet and JSON Lines.

A dataset is made of *games* and *steps*.  A game is what replays it — the game, the
number of players, the seed, the options and the actions — with where it came from
(``source``: ``server``, ``simulator`` or ``self-play``), its seats (bots by their
spec; people anonymised as ``player-1``, ``player-2``… in the order they first
appear in the export, with their profile, name and tokens left out), whether it was
rated and its outcome.  A step is one decision: the game and the step number (how
many actions came before it), the acting seat, that seat's observation (the vector of
:mod:`kingdoms.rl`, int16), its legal-action mask, the action taken, the seat's
return at the end of the game (``outcome``: +1 outright win, 0 shared win, −1 loss)
and whether it was the seat's last decision (``last``).

:func:`export` writes a directory::

    games.jsonl   games.parquet     one row per game
    steps.jsonl   steps.parquet     one row per decision (JSON Lines: the legal
                                    actions as a list; Parquet: the mask too)
    minari/       a Minari dataset  one episode per seat of each game
    README.md     what is in it, and how it was made

In the Minari dataset (``minari.load_dataset(id)`` with ``MINARI_DATASETS_PATH`` set
to the ``minari`` folder, or :func:`load_minari`) an episode is one seat of one game:
its observations (a ``Dict`` of ``observation`` and ``action_mask``, one more than its
actions: the last one is the seat's observation at the end of the game), its actions,
rewards 0 but the last (its return), ``terminations`` (the game ended by its rules) or
``truncations`` (resigned, or cut short), and ``infos`` ``game`` (the game's row
in ``games``) and ``step`` (the step number of that observation).

:class:`Dataset` reads a directory back; :meth:`Dataset.state` rebuilds the state of
any step — the game's configuration and its actions up to that step, replayed and
checked — so a row of ``steps`` or an episode step gives back the full state it was
taken from.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import secrets
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kingdoms.core.errors import IllegalAction, InvalidArgument, KingdomsError
from kingdoms.core.registry import get_game, state_from_config
from kingdoms.core.state import TERMINAL, GameConfig, State

SOURCES = ("server", "simulator", "self-play")


@dataclass
class GameRow:
    """One game of a dataset (see the module docstring)."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: list[int]
    source: str
    seats: list[dict[str, Any]] = field(default_factory=list)
    rated: bool = False
    returns: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    finished: bool = True
    """The game ended by its rules (not by a resignation or a cut)."""

    def config(self) -> GameConfig:
        return GameConfig(self.game, self.players, self.seed, self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "actions": self.actions,
            "source": self.source,
            "seats": self.seats,
            "rated": self.rated,
            "returns": self.returns,
            "scores": self.scores,
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRow:
        return cls(
            id=str(data["id"]),
            game=str(data["game"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            options=dict(data["options"]),
            actions=[int(a) for a in data["actions"]],
            source=str(data["source"]),
            seats=[dict(s) for s in data.get("seats", [])],
            rated=bool(data.get("rated", False)),
            returns=[float(r) for r in data.get("returns", [])],
            scores=[float(s) for s in data.get("scores", [])],
            finished=bool(data.get("finished", True)),
        )


def replay(row: GameRow, upto: int | None = None) -> State:
    """The state of ``row`` after its first ``upto`` actions (all by default), every
    action checked."""
    try:
        state = state_from_config(row.config())
    except (KingdomsError, KeyError, TypeError, ValueError) as err:
        raise InvalidArgument(f"game {row.id}: its settings make no game: {err}") from err
    state.logging = False
    actions = row.actions if upto is None else row.actions[:upto]
    for index, action in enumerate(actions):
        try:
            state.apply_checked(action)
        except IllegalAction as err:
            raise InvalidArgument(f"game {row.id}, step {index}: {err}") from err
    return state


def _returns_of(outcome: Mapping[str, Any] | None, players: int) -> list[float]:
    """+1 outright win, 0 shared win, −1 loss, from an outcome's winners."""
    winners = list((outcome or {}).get("winners", []))
    if len(winners) == 1:
        return [1.0 if p in winners else -1.0 for p in range(players)]
    return [0.0 if p in winners else -1.0 for p in range(players)]


# -- where games come from -----------------------------------------------------------------
class _Anonymiser:
    """People's seats as ``player-1``, ``player-2``… in the order first met; a person
    is known by their profile (or, without one, by the seat's own name and game), and
    nothing of it is written out."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}

    def seat(self, seat: Mapping[str, Any], game_id: str, index: int) -> dict[str, Any]:
        if seat.get("kind") == "bot":
            return {"kind": "bot", "bot": str(seat.get("bot") or seat.get("name") or "")}
        profile = seat.get("profile")
        key = f"profile:{profile}" if profile else f"seat:{game_id}:{index}"
        digest = hashlib.sha256(key.encode()).hexdigest()
        if digest not in self.known:
            self.known[digest] = f"player-{len(self.known) + 1}"
        return {"kind": "human", "player": self.known[digest]}


def _salt_key(salt: str | None) -> bytes:
    """The key game ids are hashed with: ``salt``'s bytes, or 32 random bytes."""
    if salt is None:
        return secrets.token_bytes(32)
    if not salt:
        raise InvalidArgument(
            "the salt is empty: an empty salt is known to everyone, so the game ids "
            "could be matched to the server's (leave it out for a random one)"
        )
    return salt.encode()


def server_game_id(server_id: str, key: bytes) -> str:
    """The id a server game gets in a dataset: ``server-`` and 16 hex digits of the
    HMAC-SHA-256 of its server id under ``key`` (see :func:`from_server`)."""
    return "server-" + hmac.new(key, server_id.encode(), hashlib.sha256).hexdigest()[:16]


def from_server(
    url: str,
    rated_only: bool = False,
    limit: int = 1_000_000,
    game: str | None = None,
    players: int | None = None,
    salt: str | None = None,
) -> Iterator[GameRow]:
    """The finished public games of the server database at ``url`` (private games and
    unfinished ones left out; with ``rated_only``, rated games only; with ``game`` /
    ``players``, games of that game / number of players only), seats anonymised:
    people are numbered in the order met among the games exported, so an export
    tells nothing of the games it leaves out.

    A game's id is ``server-`` and a keyed hash (HMAC-SHA-256) of the server's id
    under ``salt``: by default a fresh random salt each call, so the ids of one export
    are stable within it but cannot be matched to the server's games (whose ids its
    public pages show) nor to another export's.  Give the same ``salt`` to get the
    same ids again; whoever knows the salt can link the ids to the server's, so it is
    never written into the export."""
    from kingdoms.server.storage import STATUS_FINISHED, Storage

    key = _salt_key(salt)
    store = Storage(url)
    try:
        names = _Anonymiser()
        listed = store.list_games(STATUS_FINISHED, limit=limit)
        for listing in sorted(listed, key=lambda g: (g.created, g.id)):
            if listing.meta.get("private"):
                continue
            rated = bool(listing.meta.get("rated"))
            if rated_only and not rated:
                continue
            stored = store.load_game(listing.id)
            if stored is None:
                continue
            if (game is not None and stored.game != game) or (
                players is not None and stored.players != players
            ):
                continue
            row = GameRow(
                id=server_game_id(stored.id, key),
                game=stored.game,
                players=stored.players,
                seed=stored.seed,
                options=dict(stored.options),
                actions=list(stored.actions),
                source="server",
                seats=[names.seat(s, stored.id, i) for i, s in enumerate(stored.seats)],
                rated=rated,
            )
            end = replay(row)
            outcome = end.outcome()
            row.finished = outcome is not None
            if outcome is not None:
                row.returns = outcome.returns()
                row.scores = [float(s) for s in outcome.scores]
            else:  # resigned: the stored outcome names the winners
                row.returns = _returns_of(stored.outcome, stored.players)
                row.scores = [float(s) for s in (stored.outcome or {}).get("scores", [])]
            yield row
    finally:
        store.close()


Chooser = Callable[[State, int, random.Random], int]


def _finish(row: GameRow, state: State) -> GameRow:
    outcome = state.outcome()
    row.actions = list(state.history)
    row.finished = outcome is not None
    if outcome is not None:
        row.returns = outcome.returns()
        row.scores = [float(s) for s in outcome.scores]
    else:
        row.returns = [0.0] * row.players
    return row


def _play(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    choose: Sequence[Chooser],
    max_steps: int,
) -> State:
    g = get_game(game)
    state = g.create(g.config(players, seed, dict(options)))
    state.logging = False
    rng = random.Random(seed)
    while state.current_player != TERMINAL and state.step < max_steps:
        p = state.current_player
        state.apply(choose[p](state, p, rng))
    return state


def from_simulator(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 10_000,
) -> Iterator[GameRow]:
    """``games`` games between the bots named by ``bots`` (one spec per seat; seats
    turn round from game to game), seeds ``seed``, ``seed + 1``…; each bot sees only
    its seat's view."""
    from kingdoms.bots import make_bot

    players = len(bots)
    for i in range(games):
        turn = i % players
        specs = [bots[(p + turn) % players] for p in range(players)]
        made = [make_bot(game, spec) for spec in specs]

        def bot_choice(bot: Any) -> Chooser:
            def choose(st: State, seat: int, rng: random.Random) -> int:
                return int(bot.act(st.view(seat), st.legal_actions(), rng))

            return choose

        state = _play(
            game, players, seed + i, options or {}, [bot_choice(b) for b in made], max_steps
        )
        row = GameRow(
            id=f"simulator-{seed + i}",
            game=game,
            players=players,
            seed=seed + i,
            options=dict(options or {}),
            actions=[],
            source="simulator",
            seats=[{"kind": "bot", "bot": s} for s in specs],
        )
        yield _finish(row, state)


Policy = Callable[[np.ndarray, np.ndarray], int]
"""A policy on a seat's observation (float32) and boolean mask (as :mod:`kingdoms.rl`)."""


def random_policy(seed: int = 0) -> Policy:
    """Uniform over the legal actions."""
    rng = random.Random(seed)

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.randrange(len(legal))])

    return act


def from_self_play(
    game: str,
    players: int,
    policy: Policy,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    name: str = "policy",
    max_steps: int = 10_000,
) -> Iterator[GameRow]:
    """``games`` games in which ``policy`` plays every seat, from each seat's
    observation and mask (what a learner gets from the environments)."""
    encoder = encoder_for(game, players)
    size = num_actions(game, players, options or {})

    def choose(state: State, p: int, rng: random.Random) -> int:
        obs = encoder.encode(state, p).astype(np.float32)
        mask = np.frombuffer(state.legal_actions_mask(size), np.int8).astype(bool)
        return int(policy(obs, mask))

    for i in range(games):
        state = _play(game, players, seed + i, options or {}, [choose] * players, max_steps)
        row = GameRow(
            id=f"self-play-{seed + i}",
            game=game,
            players=players,
            seed=seed + i,
            options=dict(options or {}),
            actions=[],
            source="self-play",
            seats=[{"kind": "policy", "policy": name}] * players,
        )
        yield _finish(row, state)


# -- steps -----------------------------------------------------------------------------------
def encoder_for(game: str, players: int) -> Any:
    """The observation encoder of ``game`` (:mod:`kingdoms.rl`)."""
    if game == "dominion":
        from kingdoms.rl.dominion_obs import DominionEncoder

        return DominionEncoder(players)
    if game == "kingdomino":
        from kingdoms.rl.kingdomino_obs import KingdominoEncoder

        return KingdominoEncoder(players)
    raise InvalidArgument(f"no observation encoder for game {game!r}")


def num_actions(game: str, players: int, options: Mapping[str, Any]) -> int:
    g = get_game(game)
    return int(g.num_distinct_actions(g.config(players, 0, dict(options))))


@dataclass
class Step:
    """One decision of a game (see the module docstring)."""

    game: int
    """The game's row in ``games``."""
    step: int
    seat: int
    observation: np.ndarray
    mask: np.ndarray
    action: int
    outcome: float
    last: bool


def steps_of(row: GameRow, index: int, encoder: Any = None) -> Iterator[Step]:
    """The decisions of ``row`` (the ``index``-th game), replayed."""
    encoder = encoder or encoder_for(row.game, row.players)
    size = num_actions(row.game, row.players, row.options)
    state = state_from_config(row.config())
    state.logging = False
    seats = []
    out: list[Step] = []
    for i, action in enumerate(row.actions):
        seat = state.current_player
        obs = encoder.encode(state, seat).copy()
        mask = np.frombuffer(state.legal_actions_mask(size), np.int8).copy()
        out.append(Step(index, i, seat, obs, mask, action, row.returns[seat], False))
        seats.append(seat)
        state.apply_checked(action)
    ends: dict[int, int] = {}
    for i, seat in enumerate(seats):
        ends[seat] = i
    for i in ends.values():
        out[i].last = True
    yield from out


# -- writing -----------------------------------------------------------------------------------
def _jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def export(
    rows: Iterable[GameRow],
    out: str | Path,
    formats: Sequence[str] = ("jsonl", "parquet", "minari"),
    dataset_id: str | None = None,
    description: str = "",
) -> dict[str, Any]:
    """Write ``rows`` (games of one game and one number of players) into the directory
    ``out`` in ``formats``; the summary (games, steps, files, Minari id)."""
    unknown = set(formats) - {"jsonl", "parquet", "minari"}
    if unknown:
        raise InvalidArgument(f"unknown format(s) {sorted(unknown)}; known: jsonl, parquet, minari")
    games = list(rows)
    if not games:
        raise InvalidArgument("no games to export")
    kinds = {(g.game, g.players) for g in games}
    if len(kinds) > 1:
        raise InvalidArgument(
            f"a dataset holds games of one game and one number of players, not {sorted(kinds)}"
        )
    game, players = games[0].game, games[0].players
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    encoder = encoder_for(game, players)
    steps = [s for i, g in enumerate(games) for s in steps_of(g, i, encoder)]
    summary: dict[str, Any] = {
        "game": game,
        "players": players,
        "games": len(games),
        "steps": len(steps),
        "observation_size": int(encoder.size),
        "actions": num_actions(game, players, games[0].options),
        "files": [],
    }
    if "jsonl" in formats:
        _jsonl(target / "games.jsonl", (g.to_json() for g in games))
        _jsonl(
            target / "steps.jsonl",
            (
                {
                    "game": s.game,
                    "game_id": games[s.game].id,
                    "step": s.step,
                    "seat": s.seat,
                    "observation": s.observation.tolist(),
                    "legal_actions": np.flatnonzero(s.mask).tolist(),
                    "action": s.action,
                    "outcome": s.outcome,
                    "last": s.last,
                }
                for s in steps
            ),
        )
        summary["files"] += ["games.jsonl", "steps.jsonl"]
    if "parquet" in formats:
        _parquet(target, games, steps)
        summary["files"] += ["games.parquet", "steps.parquet"]
    if "minari" in formats:
        ident = dataset_id or f"kingdoms/{game}-{players}p-v0"
        _minari(target / "minari", ident, games, steps, summary, description)
        summary["minari_id"] = ident
        summary["files"].append("minari/")
    (target / "README.md").write_text(_readme(summary, games, description), encoding="utf-8")
    (target / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def _parquet(target: Path, games: list[GameRow], steps: list[Step]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "id": [g.id for g in games],
            "game": [g.game for g in games],
            "players": pa.array([g.players for g in games], pa.int16()),
            "seed": pa.array([g.seed for g in games], pa.int64()),
            "options": [json.dumps(g.options, sort_keys=True) for g in games],
            "actions": pa.array([g.actions for g in games], pa.list_(pa.int32())),
            "source": [g.source for g in games],
            "seats": [json.dumps(g.seats) for g in games],
            "rated": [g.rated for g in games],
            "returns": pa.array([g.returns for g in games], pa.list_(pa.float32())),
            "scores": pa.array([g.scores for g in games], pa.list_(pa.float32())),
            "finished": [g.finished for g in games],
        }
    )
    pq.write_table(table, target / "games.parquet")
    size = len(steps[0].observation) if steps else 0
    width = len(steps[0].mask) if steps else 0
    obs = np.stack([s.observation for s in steps]) if steps else np.zeros((0, size), np.int16)
    masks = np.stack([s.mask for s in steps]) if steps else np.zeros((0, width), np.int8)
    table = pa.table(
        {
            "game": pa.array([s.game for s in steps], pa.int32()),
            "game_id": [games[s.game].id for s in steps],
            "step": pa.array([s.step for s in steps], pa.int32()),
            "seat": pa.array([s.seat for s in steps], pa.int8()),
            "observation": pa.FixedSizeListArray.from_arrays(
                pa.array(obs.reshape(-1), pa.int16()), size
            ),
            "action_mask": pa.FixedSizeListArray.from_arrays(
                pa.array(masks.reshape(-1), pa.int8()), width
            ),
            "action": pa.array([s.action for s in steps], pa.int32()),
            "outcome": pa.array([s.outcome for s in steps], pa.float32()),
            "last": [s.last for s in steps],
        }
    )
    pq.write_table(table, target / "steps.parquet")


def _minari(
    folder: Path,
    ident: str,
    games: list[GameRow],
    steps: list[Step],
    summary: Mapping[str, Any],
    description: str,
) -> None:
    import gymnasium as gym
    import minari
    from minari.data_collector.episode_buffer import EpisodeBuffer

    size, width = int(summary["observation_size"]), int(summary["actions"])
    game, players = str(summary["game"]), int(summary["players"])
    observation_space = gym.spaces.Dict(
        {
            "observation": gym.spaces.Box(-32768, 32767, (size,), np.int16),
            "action_mask": gym.spaces.Box(0, 1, (width,), np.int8),
        }
    )
    by_game: dict[int, list[Step]] = {}
    for s in steps:
        by_game.setdefault(s.game, []).append(s)
    encoder = encoder_for(game, players)
    episodes: list[Any] = []
    for index, row in enumerate(games):
        end = replay(row)
        for seat in range(row.players):
            mine = [s for s in by_game.get(index, []) if s.seat == seat]
            if not mine:
                continue
            final_obs = encoder.encode(end, seat).copy()
            obs = np.stack([s.observation for s in mine] + [final_obs])
            masks = np.stack([s.mask for s in mine] + [np.zeros(width, np.int8)])
            rewards = np.zeros(len(mine), np.float64)
            rewards[-1] = row.returns[seat]
            ended = np.zeros(len(mine), bool)
            cut = np.zeros(len(mine), bool)
            (ended if row.finished else cut)[-1] = True
            episodes.append(
                EpisodeBuffer(
                    id=len(episodes),
                    observations={"observation": obs, "action_mask": masks},
                    actions=np.array([s.action for s in mine], np.int64),
                    rewards=rewards,
                    terminations=ended,
                    truncations=cut,
                    infos={
                        "game": np.full((len(mine) + 1, 1), index, np.int64),
                        "seat": np.full((len(mine) + 1, 1), seat, np.int64),
                        "step": np.array(
                            [s.step for s in mine] + [len(row.actions)], np.int64
                        ).reshape(-1, 1),
                    },
                )
            )
    previous = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(folder.resolve())
    try:
        with warnings.catch_warnings():
            # Minari's notes that no environment, author or evaluation environment is
            # named: the dataset is of games, not of a Gymnasium environment's runs
            warnings.filterwarnings("ignore", category=UserWarning, module="minari")
            minari.create_dataset_from_buffers(
                ident,
                episodes,
                observation_space=observation_space,
                action_space=gym.spaces.Discrete(width),
                algorithm_name=",".join(sorted({g.source for g in games})),
                description=description or f"{game}, {players} players: {len(games)} games",
                data_format="arrow",
            )
    finally:
        if previous is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = previous


def _readme(summary: Mapping[str, Any], games: list[GameRow], description: str) -> str:
    sources = sorted({g.source for g in games})
    return (
        f"# kingdoms dataset: {summary['game']}, {summary['players']} players\n\n"
        + (f"{description}\n\n" if description else "")
        + f"- games: {summary['games']} ({', '.join(sources)}); decisions: {summary['steps']}\n"
        f"- observation: {summary['observation_size']} int16 (the seat's view, as "
        "kingdoms.rl encodes it); actions: "
        f"{summary['actions']} (the engine's integer actions)\n"
        "- files: games.* (configuration, seed, actions, anonymised seats, outcome), "
        "steps.* (game, step, seat, observation, legal actions / mask, action, outcome, "
        "last), minari/ (one episode per seat of each game)\n"
        "- rebuild a state: `kingdoms.rl.dataset.Dataset(folder).state(game, step)`\n"
    )


# -- reading -----------------------------------------------------------------------------------
class Dataset:
    """A directory written by :func:`export`."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        jsonl = self.folder / "games.jsonl"
        parquet = self.folder / "games.parquet"
        if jsonl.exists():
            lines = jsonl.read_text(encoding="utf-8", errors="replace").splitlines()
            self.games = [
                _game_row(jsonl, number, line)
                for number, line in enumerate(lines, 1)
                if line.strip()
            ]
        elif parquet.exists():
            import pyarrow as pa
            import pyarrow.parquet as pq

            try:
                table = pq.read_table(parquet).to_pylist()
            except (pa.ArrowException, OSError) as err:
                raise InvalidArgument(f"{parquet}: not a readable Parquet file: {err}") from err
            self.games = [
                _game_row(parquet, number, record) for number, record in enumerate(table, 1)
            ]
        else:
            raise InvalidArgument(f"{folder} holds no kingdoms dataset (no games.jsonl/parquet)")
        self.by_id = {g.id: i for i, g in enumerate(self.games)}
        if len(self.by_id) != len(self.games):
            raise InvalidArgument(f"{folder}: two games share an id")

    def state(self, game: int | str, step: int) -> State:
        """The state before decision ``step`` of ``game`` (its row, or its id)."""
        if isinstance(game, str):
            if game not in self.by_id:
                raise InvalidArgument(f"no game {game!r} in {self.folder}")
            index = self.by_id[game]
        elif not 0 <= game < len(self.games):
            raise InvalidArgument(
                f"no game {game} in {self.folder} (it holds {len(self.games)} games)"
            )
        else:
            index = game
        row = self.games[index]
        if not 0 <= step <= len(row.actions):
            raise InvalidArgument(f"game {row.id} has no step {step} (0–{len(row.actions)})")
        return replay(row, step)

    def state_of(self, step_row: Mapping[str, Any]) -> State:
        """The state a row of ``steps`` (or an episode step's infos) was taken from."""
        return self.state(int(step_row["game"]), int(step_row["step"]))

    def steps(self) -> Iterator[dict[str, Any]]:
        """The rows of ``steps.jsonl``."""
        path = self.folder / "steps.jsonl"
        if not path.exists():
            raise InvalidArgument(f"{self.folder} holds no steps.jsonl (export it with jsonl)")
        with path.open(encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    try:
                        row = json.loads(line)
                    except json.JSONDecodeError as err:
                        raise InvalidArgument(f"{path}, line {number}: not JSON: {err}") from err
                    if not isinstance(row, dict) or not {"game", "step", "seat"} <= row.keys():
                        raise InvalidArgument(f"{path}, line {number}: not a step row")
                    yield row


def _game_row(path: Path, number: int, line: str | Mapping[str, Any]) -> GameRow:
    """Row ``number`` of ``path`` (a JSON line, or a Parquet record), or an error naming
    the file, the row and what is wrong with it."""
    where = f"{path}, {'line' if isinstance(line, str) else 'row'} {number}"
    try:
        data = json.loads(line) if isinstance(line, str) else dict(line)
        if not isinstance(data, dict):
            raise InvalidArgument("not a JSON object")
        for key in ("options", "seats"):
            if isinstance(data.get(key), str):  # Parquet keeps them as JSON text
                data[key] = json.loads(data[key])
        return GameRow.from_json(data)
    except json.JSONDecodeError as err:
        raise InvalidArgument(f"{where}: not JSON: {err}") from err
    except KeyError as err:
        raise InvalidArgument(f"{where}: not a game row (no {err.args[0]!r})") from err
    except (InvalidArgument, TypeError, ValueError) as err:
        raise InvalidArgument(f"{where}: not a game row: {err}") from err


def load_minari(folder: str | Path, dataset_id: str) -> Any:
    """The Minari dataset of an export (``folder`` the export's directory)."""
    import minari

    os.environ["MINARI_DATASETS_PATH"] = str((Path(folder) / "minari").resolve())
    return minari.load_dataset(dataset_id)
