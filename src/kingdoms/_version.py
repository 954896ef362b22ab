"""The version of kingdoms, in one place: ``pyproject.toml`` reads it from here
(``[tool.setuptools.dynamic]``), :data:`kingdoms.__version__` re-exports it, and
``CHANGELOG.md`` names each release by it (semantic versioning).

>>> import re
>>> bool(re.fullmatch(r"\\d+\\.\\d+\\.\\d+([ab]|rc)?\\d*", __version__))
True
"""

__version__ = "0.1.0"
