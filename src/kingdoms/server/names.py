"""When two profile names read the same: a comparison key after Unicode TR 39.

Two names are one name when their keys are equal: the key is the name in NFKC
(full-width and other compatibility forms become the plain letters), its letters
that are drawn like Latin letters replaced by them (the *skeleton* of TR 39,
restricted to the letters and digits that are confusable with Latin ones in common
fonts), case folded, and its runs of spaces made one.  So "Ann", "Аnn" (a Cyrillic
А) and "Ａｎｎ" (full width) are one name, and so are "BOB" and "ВОВ" (Cyrillic).
Accents are kept: "Zoë" and "Zoe" are two names.

>>> name_key("Ann") == name_key("\\u0410nn") == name_key("\\uff21\\uff4e\\uff4e")
True
>>> name_key("Zoë") == name_key("Zoe")
False

The table below is a careful subset of the confusables data of TR 39 (the Cyrillic,
Greek and Armenian letters and the symbols that render as a Latin letter or digit);
``tests/server/test_server_ratings.py`` checks that it maps only to plain Latin
letters, capitals to capitals and small letters to small ones.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

UPPER: Final[dict[str, str]] = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ү": "Y",
    "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I", "Ꙅ": "S", "Ԁ": "D",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Armenian, Cherokee and others drawn as Latin capitals
    "Տ": "S", "Օ": "O", "Ꭺ": "A", "Ᏼ": "B", "Ꮯ": "C", "Ꭼ": "E", "Ꮋ": "H", "Ꭻ": "J",
    "Ꮶ": "K", "Ꮇ": "M", "Ꮲ": "P", "Ꮪ": "S", "Ꭲ": "T", "Ꮃ": "W",
}  # fmt: skip
"""Capitals confusable with a Latin capital (mapped before case folding, where they
still differ from the small letters, e.g. Greek Η reads H but η reads n)."""

LOWER: Final[dict[str, str]] = {
    # Cyrillic small letters (after case folding: the capitals' small forms too)
    "а": "a", "в": "b", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ү": "y",
    "ԛ": "q", "ԝ": "w", "ӏ": "l", "ԁ": "d", "һ": "h", "ѵ": "v", "ɡ": "g", "ꙅ": "s",
    # Greek small letters
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u",
    "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j", "ε": "e", "β": "b", "ζ": "z", "η": "n",
    "μ": "u", "ω": "w",
    # Armenian small letters
    "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "զ": "q",
    # Latin look-alikes outside a-z and digits read as letters
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i", "ʏ": "y", "ℓ": "l",
    "0": "o", "1": "l", "|": "l",
}  # fmt: skip
"""Small letters (and digits) confusable with a Latin small letter."""

_UPPER = str.maketrans(UPPER)
_LOWER = str.maketrans(LOWER)
_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """The comparison key of a profile name (see the module docstring)."""
    text = unicodedata.normalize("NFKC", name).translate(_UPPER)
    text = unicodedata.normalize("NFKC", text.casefold()).translate(_LOWER)
    return _SPACES.sub(" ", text).strip()


__all__ = ["LOWER", "UPPER", "name_key"]
