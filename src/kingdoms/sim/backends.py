"""Where batches of games run: this process, local worker processes, or Ray.

Every backend runs the same batches (:func:`kingdoms.sim.runner.batches`) with
the same per-game seeds and yields their results in batch order, so a run's
results do not depend on the backend or the number of workers.  Stopping early
(closing the generator) cancels the batches not started yet.

Ray is an optional extra (``pip install 'kingdoms[ray]'``).  Without an address
a local Ray instance with ``workers`` CPUs is started; with ``--address
ray://head:10001`` (or ``auto`` on a cluster node) the batches run on the
cluster, whose nodes need ``kingdoms`` installed.  Strategy files named by a
local path are sent along with the tasks, so a cluster needs no copy of them.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Generator, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kingdoms.bots.base import STRATEGY_SUFFIXES
from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.runner import DEFAULT_MAX_TURNS, GameResult, play_batch

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Job:
    """What every batch of a run shares: the game, the bots, the run's seed, the game
    options and whether per-turn series are recorded."""

    game: str
    specs: list[str]
    seed: int
    options: Mapping[str, Any]
    curves: bool = False
    max_turns: int = DEFAULT_MAX_TURNS

    def play(self, indices: Sequence[int], specs: Sequence[str] | None = None) -> list[GameResult]:
        """Games ``indices`` of the run (``specs``: the bots, where their files lie here)."""
        return play_batch(
            self.game, self.specs if specs is None else specs, indices, self.seed,
            self.options, self.curves, self.max_turns,
        )  # fmt: skip


def run_batches(
    game: str,
    specs: list[str],
    chunks: Sequence[Sequence[int]],
    seed: int,
    options: Mapping[str, Any],
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    curves: bool = False,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Generator[list[GameResult], None, None]:
    """The results of every batch, in batch order (``curves``: with per-turn series;
    ``max_turns``: the turn cap, 0: none)."""
    job = Job(game, specs, seed, dict(options), curves, max_turns)
    if backend == "ray":
        yield from _ray(job, chunks, workers, address)
    elif backend != "local":
        raise InvalidConfig(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    elif workers <= 1:
        for chunk in chunks:
            yield job.play(chunk)
    else:
        yield from _processes(job, chunks, workers)


def _processes(
    job: Job, chunks: Sequence[Sequence[int]], workers: int
) -> Iterator[list[GameResult]]:
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures: list[Future[list[GameResult]]] = [pool.submit(job.play, c) for c in chunks]
        for fut in futures:
            yield fut.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _strategy_files(specs: Sequence[str]) -> dict[str, tuple[str, str]]:
    """spec -> (file name, text) for the specs that are local strategy files."""
    out = {}
    for spec in specs:
        if spec.endswith(STRATEGY_SUFFIXES) and os.path.isfile(spec):
            out[spec] = (Path(spec).name, Path(spec).read_text(encoding="utf-8"))
    return out


def ray_batch(
    job: Job, files: Mapping[str, tuple[str, str]], indices: Sequence[int]
) -> list[GameResult]:
    """A Ray task: write the shipped strategy files, then play the batch."""
    if not files:
        return job.play(indices)
    with tempfile.TemporaryDirectory(prefix="kingdoms-") as tmp:
        local = []
        for i, spec in enumerate(job.specs):
            if spec in files:
                name, text = files[spec]
                folder = Path(tmp) / str(i)
                folder.mkdir()
                (folder / name).write_text(text, encoding="utf-8")
                local.append(str(folder / name))
            else:
                local.append(spec)
        return job.play(indices, local)


def _ray(
    job: Job, chunks: Sequence[Sequence[int]], workers: int, address: str | None
) -> Iterator[list[GameResult]]:
    try:
        import ray
    except ImportError as err:
        raise InvalidConfig("the ray backend needs Ray: pip install 'kingdoms[ray]'") from err
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as err:
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise InvalidConfig(f"cannot start or reach {where}: {err}") from err
        started = True
    task = ray.remote(ray_batch)
    files = _strategy_files(job.specs)
    refs = [task.remote(job, files, list(c)) for c in chunks]
    done = 0
    try:
        for ref in refs:
            result = ray.get(ref)
            done += 1
            yield result
    finally:
        # only the batches not fetched (an early stop): cancelling a finished task can
        # abort the driver inside Ray ("Tried to complete task that was not pending")
        for ref in refs[done:]:
            ray.cancel(ref)
        if started:
            ray.shutdown()
