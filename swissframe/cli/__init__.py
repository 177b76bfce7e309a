"""The ``swissframe`` command line (``swissframe.cli.main``); commands live in ``commands/``."""

from __future__ import annotations

from swissframe.cli._main import (
    main,
)

__all__ = [
    "main",
]
