"""Notebook display: the page in a sandboxed-by-construction iframe (``srcdoc``), so its
styles and scripts neither leak into the notebook nor need a network."""

from __future__ import annotations

from html import escape

__all__ = ["iframe"]


def iframe(document: str, height: int = 900) -> str:
    """An ``<iframe srcdoc=…>`` holding ``document`` (a whole HTML page)."""
    return (f'<iframe srcdoc="{escape(document, quote=True)}" '
            f'style="width:100%;height:{height}px;border:1px solid #ddd" '
            'title="swissframe report"></iframe>')
