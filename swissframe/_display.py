"""Short text and notebook summaries of the result objects (one helper for all of them).

``DecklistEvents``, ``ValidationReport``, ``Simulation`` and ``IdReport`` hold several
frames; printing one used to dump them all. Each now has a one-paragraph ``__repr__`` built by
:func:`summary_text` and a ``_repr_html_`` built by :func:`summary_html` (the facts, then each
frame's first rows behind a ``<details>`` toggle, rendered by Polars itself).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Final

import polars as pl

__all__ = ["MAX_RUN", "bounded", "count", "count_expr", "escaped", "noun_expr", "number_text",
           "plural", "quoted", "shown_as_is", "summary_html", "summary_text", "told_apart"]

#: The longest run of characters without a space a message or a text report shows whole:
#: a file's path (kept whole, class 69) is shorter; an id of a million characters is not.
MAX_RUN: Final = 1000
_LONG_RUN: Final = re.compile(rf"\S{{{MAX_RUN + 1},}}")


def plural(one: str) -> str:
    """The plural of a message's noun: ``-es`` after s, sh, ch and x, else ``-s`` (a noun
    of another plural is given whole where it is counted: ``count(n, "player is", "players
    are")``). The one rule of :func:`count`, :func:`noun_expr` and the progress bars'
    units.

    >>> plural("file"), plural("batch"), plural("box")
    ('files', 'batches', 'boxes')
    """
    return one + ("es" if one.endswith(("s", "sh", "ch", "x")) else "s")


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the noun in the right number (:func:`plural`), thousands separated.

    >>> count(1, "event"), count(2249, "file")
    ('1 event', '2,249 files')
    """
    return f"{n:,} {one if n == 1 else (many or plural(one))}"


def noun_expr(n: pl.Expr, one: str, many: str | None = None) -> pl.Expr:
    """The noun of :func:`count` alone, for a count column: ``one`` where ``n`` is 1, else
    ``many`` (:func:`plural`) — a message built per row by a Polars expression ("no row in
    rounds 3, 4"), where :func:`count` cannot run.

    >>> pl.select(noun_expr(pl.lit(1), "round"), noun_expr(pl.lit(2), "round").alias("b")).row(0)
    ('round', 'rounds')
    """
    return pl.when(n == 1).then(pl.lit(one)).otherwise(pl.lit(many or plural(one)))


def count_expr(n: pl.Expr, one: str, many: str | None = None) -> pl.Expr:
    """:func:`count` of a count ``n`` (≥ 0) as a Polars expression, for messages built per
    row ("3 playoff rows", "1 round", "1,234 rows"; tested equal to :func:`count`); null
    where ``n`` is; named as ``n``.

    >>> pl.DataFrame({"n": [1, 3, 1234]}).select(count_expr(pl.col("n"), "row"))["n"].to_list()
    ['1 row', '3 rows', '1,234 rows']
    """
    # (thousands separated as f"{n:,}" does: the digits' groups of three counted from the
    # right, on the reversed text)
    grouped = (n.cast(pl.String).str.reverse().str.extract_all(r"\d{1,3}").list.join(",")
               .str.reverse())
    return pl.concat_str([grouped, pl.lit(" "), noun_expr(n, one, many)])


def number_text(value: object, *, percent: bool, decimals: int, null: str) -> str:
    """A value as a person reads it, the one rule of every table a person reads (the
    terminal's :func:`~swissframe.cli._common.format_cell`, the reports'
    :func:`~swissframe.compare.format_value`): a fraction shown as a percentage with
    ``decimals`` places (``percent``), a whole number without a decimal point, another
    number with up to ``decimals`` places, ``yes``/``no`` for a flag, ``null`` for none,
    ``NaN`` for a float that is not a number, a list's items joined.

    >>> number_text(2 / 3, percent=True, decimals=2, null=""), number_text(
    ...     8.5, percent=False, decimals=4, null=""), number_text(36, percent=True,
    ...     decimals=2, null="–")
    ('66.67%', '8.5', '3600.00%')

    A negative number too small for ``decimals`` reads as zero, not "-0":

    >>> number_text(-1e-9, percent=False, decimals=4, null=""), number_text(
    ...     -1e-9, percent=True, decimals=2, null="")
    ('0', '0.00%')

    A value near a whole number, 0% or 100% but not on it is shown with the places that
    say so (a Kendall τ below 1, a chance short of certain):

    >>> number_text(0.9999927, percent=False, decimals=4, null=""), number_text(
    ...     0.99996, percent=True, decimals=2, null=""), number_text(
    ...     2 / 3 - 1e-12, percent=True, decimals=2, null="")
    ('0.99999', '99.996%', '66.67%')
    """
    if value is None:
        return null
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) and not percent:
        return str(value)
    number = float(value)
    if math.isnan(number):
        return "NaN"
    if not percent and number.is_integer():
        return str(int(number))
    shown = 100 * number if percent else number
    places = decimals
    text = f"{shown:.{places}f}"
    # (a value short of a bound rounded onto it read as the bound: a Kendall τ of 0.999996,
    # one swapped pair of 1,000 players, read "1" beside "1 = identical order", and a
    # chance of 0.99996 "100.00%", certain; more places show it is not, past float noise)
    while (places < _MAX_PLACES and abs(number - float(text) / (100 if percent else 1))
           > _NOISE and _reads_as_bound(float(text), percent=percent)):
        places += 1
        text = f"{shown:.{places}f}"
    if not percent:
        text = text.rstrip("0").rstrip(".")
    text += "%" if percent else ""
    # (a negative number rounded to zero: no sign before a zero)
    return text[1:] if text.startswith("-") and not text.strip("-0.%") else text


#: How far a value may be from the bound it is shown as before :func:`number_text` shows it
#: with more places (float noise is far smaller), and the places it may add up to.
_NOISE: Final = 1e-8
_MAX_PLACES: Final = 9


def _reads_as_bound(shown: float, *, percent: bool) -> bool:
    """Whether ``shown`` (a rounded value) reads as more than a number: a whole number (a
    count, Kendall τ's 1), or 0% or 100% (never, certain)."""
    return shown in (0.0, 100.0) if percent else shown.is_integer()


def escaped(text: str) -> str:
    """``text`` in Python's escapes for every character outside printable ASCII: the one
    spelling of a character a reader cannot see or a writer cannot draw (an id's look-alike
    letters, a terminal's control sequence, a NUL in a chart).

    >>> escaped("El\\u00e9na\\x00")
    'El\\\\xe9na\\\\x00'
    """
    return ascii(text)[1:-1]


#: The characters Python's ``repr`` escapes though they move no cursor, recolour nothing
#: and reorder nothing: the spaces other than ASCII's (Zs: the ideographic space of Japanese
#: names, the no-break space) and the zero-width non-joiner and joiner (Persian and Indic
#: names, emoji sequences). Readable output shows them as they are (bad data 154, 155).
_SPACES_JOINERS: Final = re.compile(r"[\u00a0\u1680\u2000-\u200a\u200c\u200d\u202f\u205f\u3000]")


def shown_as_is(c: str) -> bool:
    """Whether the character ``c`` is written as it is in readable output, not as its
    escape: what Python's ``isprintable`` accepts, the spaces (Zs) and the zero-width
    joiners (:func:`swissframe.cli._common.printable`'s rule, one character).

    >>> [shown_as_is(c) for c in ("a", "\u3000", "\u200d", "\x1b", "\u202e", "\u200b")]
    [True, True, True, False, False, False]
    """
    return c.isprintable() or _SPACES_JOINERS.fullmatch(c) is not None


def quoted(text: object) -> str:
    """``text`` quoted as Python's ``repr`` quotes it, with the characters
    :func:`shown_as_is` keeps as they are: how a message names an event, a player or a
    value read from a file (``repr`` wrote the ideographic space of a Japanese event's name
    ``\\u3000`` and a Persian name's non-joiner ``\\u200c``; bad data 155). Control,
    format and bidi characters keep their escapes.

    >>> print(quoted("第181回\u3000大会"), quoted("O'Neil"), quoted("A\x1bB\u200bC"))
    '第181回　大会' "O'Neil" 'A\\x1bB\\u200bC'
    """
    shown = repr(text)
    if not isinstance(text, str) or _SPACES_JOINERS.search(text) is None:
        return shown
    q = shown[0]
    return q + "".join(c if _SPACES_JOINERS.fullmatch(c) else _repr_char(c, q)
                       for c in text) + q


def _repr_char(c: str, q: str) -> str:
    """One character as ``repr`` writes it inside a text quoted with ``q``."""
    if c in (q, "\\"):
        return "\\" + c
    return c if c in "'\"" else repr(c)[1:-1]


def text_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide character (Chinese,
    Japanese, Korean, the ideographic space, most emoji), none for a joiner or a
    combining mark (``wcwidth``: ``len`` counted 東京 as 2 and shifted the columns after it).

    >>> text_width("東京 Cup"), text_width("Ali\u200cReza"), text_width("Zoë")
    (8, 7, 3)
    """
    import wcwidth  # (only where a table is laid out: not on import)

    return int(wcwidth.width(text))


def wrap(text: str, width: int, **options: Any) -> list[str]:
    """``textwrap.wrap`` in terminal columns (wcwidth's, with textwrap's ``options``): a
    Japanese name's characters take two columns each, a combining mark none, and a run of
    ideographs breaks between characters as Japanese text does. By characters, a Japanese
    event's heading ran past a 40-column terminal, which broke it mid-line. The one wrap of
    every line the command line writes (:func:`fill`).

    Text without a wide character breaks where textwrap breaks (a path, ``docs/x.md``,
    stays whole: Unicode's rules break after its ``/``).

    >>> wrap("ジャパンスタンダードカップ Japan Standard Cup", 20)
    ['ジャパンスタンダード', 'カップ Japan', 'Standard Cup']
    >>> wrap("Jean-Pierre O'Neil won", 11) == __import__("textwrap").wrap(
    ...     "Jean-Pierre O'Neil won", 11)
    True
    >>> wrap("TOM's behaviour: docs/fidelity-tom-trf.md", 30)
    ["TOM's behaviour:", 'docs/fidelity-tom-trf.md']
    """
    import unicodedata

    import wcwidth

    wide = any(unicodedata.east_asian_width(c) in "WF" for c in text)
    return wcwidth.wrap(text, width=width, line_break="unicode" if wide else "ascii",
                        **options)


def fill(text: str, width: int, **options: Any) -> str:
    """:func:`wrap`'s lines joined (``textwrap.fill`` in terminal columns)."""
    return "\n".join(wrap(text, width, **options))


def fitted(text: str, width: int, *, right: bool = False) -> str:
    """``text`` in ``width`` terminal columns (:func:`text_width`): padded with spaces
    (before it when ``right``), or cut to ``width - 1`` columns and "…".

    >>> fitted("東京", 6) + "|", fitted("東京太郎", 6) + "|", fitted("7", 3, right=True)
    ('東京  |', '東京… |', '  7')
    """
    import wcwidth

    if text_width(text) > width:
        # (a wide character cut in two leaves its half as a space: dropped before "…")
        text = wcwidth.clip(text, 0, max(width - 1, 0)).rstrip(" ") + "…"
    padded: str = (wcwidth.rjust if right else wcwidth.ljust)(text, width)
    return padded


def bounded(text: str) -> str:
    """``text`` with each run of more than :data:`MAX_RUN` characters without a space (an
    id or a cell of a million characters, quoted in a warning, an error or a report) cut
    to its first and last characters around their count: such an id made every
    command's warning one line of a megabyte. The one limit of the readable messages
    and text reports (the data — CSV, JSON, Parquet, ``report.problems`` — keep it whole).

    >>> text = bounded("player " + "Z" * 5000 + " not found")
    >>> len(text), text[-64:]
    (152, '(4,890 more characters)…ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ not found')
    """
    if len(text) <= MAX_RUN:
        return text
    return _LONG_RUN.sub(lambda m: f"{m[0][:80]}…({len(m[0]) - 110:,} more characters)…"
                         f"{m[0][-30:]}", text)


def told_apart(shown: str, player: str, *over: str) -> pl.Expr:
    """The ``shown`` name, with the ``player`` id beside it where several rows of the same
    ``over`` groups show that name (two players called Sam: ``Sam (12)``, ``Sam (40)``),
    so that every player reads differently.

    >>> df = pl.DataFrame({"name": ["Sam", "Sam", "Ann"], "player_id": ["12", "40", "7"]})
    >>> df.select(told_apart("name", "player_id"))["name"].to_list()
    ['Sam (12)', 'Sam (40)', 'Ann']
    """
    return (pl.when(pl.len().over(shown, *over) > 1)
            .then(pl.format("{} ({})", pl.col(shown), pl.col(player)))
            .otherwise(pl.col(shown)).alias(shown))


def summary_text(name: str, facts: Sequence[str], frames: Sequence[str]) -> str:
    """``Name: fact, fact — .frame, .frame``.

    >>> summary_text("Simulation", ["2 events", "64 players"], ["results", "players"])
    'Simulation: 2 events, 64 players — .results, .players'
    """
    where = ", ".join(f".{f}" for f in frames)
    return f"{name}: {', '.join(facts)}" + (f" — {where}" if where else "")


def summary_html(name: str, facts: Sequence[str], frames: Mapping[str, pl.DataFrame],
                 *, rows: int = 5) -> str:
    """The facts as a heading line and each frame's first ``rows`` rows behind a toggle.

    >>> html = summary_html("X", ["1 event"], {"results": pl.DataFrame({"a": [1]})})
    >>> html.startswith("<div><strong>X</strong>: 1 event"), "<details>" in html
    (True, True)
    """
    parts = [f"<div><strong>{escape(name)}</strong>: {escape(', '.join(facts))}"]
    for label, df in frames.items():
        shape = f"{df.height:,} rows × {df.width} columns"
        parts.append(f"<details><summary><code>.{escape(label)}</code> — {shape}</summary>"
                     f"{df.head(rows)._repr_html_()}</details>")
    parts.append("</div>")
    return "".join(parts)
