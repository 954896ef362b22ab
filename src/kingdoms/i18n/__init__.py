"""Message catalogs (gettext ``.po`` files read with Babel) for en, pl and cs.

>>> from kingdoms.i18n import translator
>>> translator("en")("Buy phase")
'Buy phase'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources

from babel.messages.pofile import read_po

from kingdoms.core.errors import InvalidConfig

LANGUAGES = ("en", "pl", "cs")
DEFAULT_LANGUAGE = "en"


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InvalidConfig(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    return lang


@cache
def catalog(lang: str) -> dict[str, str]:
    """msgid -> translation for ``lang`` (English is the identity)."""
    check_language(lang)
    if lang == DEFAULT_LANGUAGE:
        return {}
    path = resources.files("kingdoms.i18n").joinpath("locale", f"{lang}.po")
    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out: dict[str, str] = {}
    for msg in cat:
        if msg.id and isinstance(msg.id, str) and isinstance(msg.string, str) and msg.string:
            out[msg.id] = msg.string
    return out


@cache
def plurals(lang: str) -> dict[str, list[str]]:
    """Messages with plural forms: singular msgid -> the forms in the catalog's order
    (English: ``[singular, plural]``; Polish and Czech: 1 / 2–4 / 5+).

    >>> plurals("pl")["{n} card"]
    ['{n} karta', '{n} karty', '{n} kart']
    """
    check_language(lang)
    path = resources.files("kingdoms.i18n").joinpath(
        "locale", f"{'pl' if lang == 'en' else lang}.po"
    )
    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out: dict[str, list[str]] = {}
    for msg in cat:
        if isinstance(msg.id, tuple) and isinstance(msg.string, tuple):
            singular, plural = str(msg.id[0]), str(msg.id[1])
            if lang == DEFAULT_LANGUAGE:
                out[singular] = [singular, plural]
            elif all(msg.string):
                out[singular] = [str(f) for f in msg.string]
    return out


@cache
def plural_rule(lang: str) -> Callable[[int], int]:
    """The catalog's ``Plural-Forms`` rule for ``lang``: a count -> the index of its form.

    >>> [plural_rule("pl")(n) for n in (0, 1, 2, 5, 22)]
    [2, 0, 1, 2, 1]
    >>> [plural_rule("cs")(n) for n in (0, 1, 2, 5, 22)]
    [2, 0, 1, 2, 2]
    """
    import gettext

    check_language(lang)
    if lang == DEFAULT_LANGUAGE:
        return lambda n: 0 if n == 1 else 1
    path = resources.files("kingdoms.i18n").joinpath("locale", f"{lang}.po")
    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    rule: Callable[[int], int] = gettext.c2py(cat.plural_expr)
    return rule


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in ``lang``, by the catalog's plural
    rule (untranslated: English's singular / plural).

    >>> ngettext("pl", "{n} card", "{n} cards", 22).format(n=22)
    '22 karty'
    """
    forms = plurals(lang).get(singular)
    if not forms:
        return singular if n == 1 else plural
    index = plural_rule(lang)(n)
    return forms[min(index, len(forms) - 1)]


def translator(lang: str) -> Callable[[str], str]:
    """A gettext-style function for ``lang``: ``_("Buy phase")``; unknown ids pass through."""
    table = catalog(lang)
    return lambda msgid: table.get(msgid, msgid)
