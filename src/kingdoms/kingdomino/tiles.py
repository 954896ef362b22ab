"""The 48 Kingdomino dominoes, loaded from ``data/tiles.csv`` (a copy of the shared table).

A domino is known by its number (1–48, the number on its back; higher numbers
are more valuable).  Each has two squares, *left* and *right*, with a terrain and
0–3 crowns.

>>> TILES[48]
Domino(number=48, left=(0, 0), right=(5, 3))
>>> TERRAINS[5]
'mine'
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources
from typing import Final

TERRAINS: Final = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
"""Terrain ids are indexes in this tuple."""
CASTLE: Final = 6
"""The terrain id of a castle cell (it connects to every terrain, belongs to no property)."""
TERRAIN_ID: Final = {name: i for i, name in enumerate(TERRAINS)}

TERRAIN_NAMES: Final = {
    "en": (*TERRAINS, "castle"),
    "pl": ("pole", "las", "jezioro", "łąka", "bagno", "kopalnia", "zamek"),
    "cs": ("pole", "les", "jezero", "louka", "bažina", "důl", "hrad"),
}


@dataclass(frozen=True, slots=True)
class Domino:
    number: int
    left: tuple[int, int]
    """(terrain id, crowns) of the left square."""
    right: tuple[int, int]

    @property
    def is_double(self) -> bool:
        """Both squares identical: turning it half way round gives the same kingdom."""
        return self.left == self.right

    @property
    def crowns(self) -> int:
        return self.left[1] + self.right[1]

    def describe(self, lang: str = "en") -> str:
        names = TERRAIN_NAMES.get(lang, TERRAIN_NAMES["en"])

        def square(sq: tuple[int, int]) -> str:
            return names[sq[0]] + ("*" * sq[1])

        return f"{self.number} [{square(self.left)}|{square(self.right)}]"


def _load() -> dict[int, Domino]:
    raw = resources.files("kingdoms.kingdomino").joinpath("data", "tiles.csv").read_text("utf-8")
    out: dict[int, Domino] = {}
    for row in csv.DictReader(io.StringIO(raw)):
        n = int(row["number"])
        out[n] = Domino(
            n,
            (TERRAIN_ID[row["left_terrain"]], int(row["left_crowns"])),
            (TERRAIN_ID[row["right_terrain"]], int(row["right_crowns"])),
        )
    if sorted(out) != list(range(1, 49)):
        raise ValueError("tiles.csv must list dominoes 1..48 exactly once")
    return out


TILES: Final[dict[int, Domino]] = _load()
NUMBERS: Final = tuple(range(1, 49))
