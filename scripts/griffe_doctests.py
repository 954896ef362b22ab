"""A griffe extension for the API reference: the ``>>>`` examples of a docstring are
shown as Python console code blocks (Markdown would read ``>>>`` as quotes and
``x[0]["key"]`` as a link). Used by ``mkdocs.yml``; the examples themselves run in
``tests/test_doctests.py``."""

from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    r"""Wrap each run of unindented ``>>>`` lines and their output in a ``pycon`` fence.

    >>> fence_examples("Adds.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
    ['Adds.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
    """
    out: list[str] = []
    fenced = in_example = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if in_example and not line.strip():
            out.append("```")
            in_example = False
        elif not fenced and not in_example and line.startswith(">>>"):
            out.append("```pycon")
            in_example = True
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_examples(obj.docstring.value)
