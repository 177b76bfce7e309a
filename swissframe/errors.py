"""Exception hierarchy.

Every error swissframe raises on purpose is a :class:`SwissframeError`; each subclass also
inherits the matching built-in so ``except ValueError`` keeps working. Messages name the
event, round and player involved and end with a hint.
"""

from __future__ import annotations

import difflib
import math
import numbers
import os
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "DataError",
    "DataWarning",
    "ExactnessWarning",
    "ImportFormatError",
    "ImportNotesWarning",
    "RulesetError",
    "SchemaError",
    "SwissframeError",
    "ValidationError",
]


class SwissframeError(Exception):
    """Base class of every error raised by swissframe on purpose."""


class SchemaError(SwissframeError, ValueError):
    """A required column is missing or has a type that cannot be used."""


class ValidationError(SwissframeError, ValueError):
    """The rows contradict the results-table contract (duplicate seats, bad mirrors, ...).

    Attributes
    ----------
    problems
        The offending rows, one per problem, as a Polars DataFrame with columns
        ``kind, event_id, round, player_id, opponent_id, detail``.
    """

    def __init__(self, message: str, problems: object = None) -> None:
        super().__init__(message)
        self.problems = problems


class DataError(SwissframeError, ValueError):
    """The input is well-formed but cannot be used for the requested computation."""


class RulesetError(SwissframeError, KeyError):
    """An unknown ruleset name or an inconsistent ruleset definition."""

    def __str__(self) -> str:  # KeyError would quote the message otherwise
        return str(self.args[0]) if self.args else ""


class ImportFormatError(SwissframeError, ValueError):
    """A source file cannot be parsed (truncated, wrong root, unknown code, ...)."""


class ExactnessWarning(UserWarning):
    """Exact (rational) tie detection had to fall back to a float tolerance."""


class DataWarning(UserWarning):
    """The data is read as it is but looks wrong: a whole round of an event missing, which
    the standings count as a round no one played (``validate`` lists it as an error)."""


class ImportNotesWarning(UserWarning):
    """A read left something out or repaired it (a skipped file, a pending or unreported
    match, a duplicate seat): :attr:`swissframe.io.Source.notes` lists each."""


#: The largest whole number an argument may take: a signed 64-bit integer, what NumPy,
#: Polars and orjson hold (a larger count ended in their bare OverflowError or TypeError).
MAX_WHOLE: Final = 2**63 - 1
#: The most rows one table holds (Polars' 32-bit row index): the bound of a count whose
#: table of ``count × rows`` cannot exist (``high=MAX_TABLE_ROWS // rows``).
MAX_TABLE_ROWS: Final = 2**32 - 1


def memory_bytes() -> int:
    """This machine's physical memory in bytes (POSIX ``sysconf``), or :data:`MAX_WHOLE`
    where the system does not say: the bound of a request whose size is known before
    anything is built (``simulate``'s result rows), which past it was not a
    ``MemoryError`` but the system's out-of-memory killer ending the process without a
    word, after minutes (bad data 128).

    >>> memory_bytes() > 2**20
    True
    """
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # (not POSIX, or the name is unknown)
        return MAX_WHOLE


def check_whole(name: str, value: object, *, low: int = 0, high: int = MAX_WHOLE,
                hint: str = "") -> int:
    """A whole-number argument ``name`` from ``low`` to ``high`` (not a bool, not a float),
    or a :class:`DataError` naming it: the one check behind the analyses' counts and sizes.

    ``high`` defaults to :data:`MAX_WHOLE`; a count that sizes a table passes the most its
    table allows (``MAX_TABLE_ROWS // rows_per_count``), so an impossible request is
    refused before any array is built.

    >>> check_whole("n_sims", 100)
    100
    >>> check_whole("n_sims", 2**70)
    Traceback (most recent call last):
    swissframe.errors.DataError: n_sims must be a whole number from 0 to 9,223,...,807, got ...
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        number = int(value)
        if low <= number <= high:
            return number
        bound = f"from {low:,} to {high:,}" if number > high else f"≥ {low}"
    else:
        bound = f"≥ {low}"
    msg = (f"{name} must be a whole number {bound}, got {_shown(value)}. Hint: "
           f"{hint or f'e.g. {name}={max(low, 1)}'}.")
    raise DataError(msg)


def check_flag(name: str, value: object, *, none: bool = False) -> bool | None:
    """A keyword flag ``name``: True or False (or None where ``none`` allows it), or a
    :class:`DataError` naming it. A flag was read by its truth: ``validate="false"``,
    ``lazy="no"`` or ``season=0`` did the opposite of what was written, without a word.

    >>> check_flag("lazy", True)
    True
    >>> check_flag("lazy", "no")
    Traceback (most recent call last):
    swissframe.errors.DataError: lazy takes True or False, got 'no'. Hint: lazy=False.
    """
    if isinstance(value, bool) or (none and value is None):
        return value
    either = "True, False or None" if none else "True or False"
    msg = f"{name} takes {either}, got {_shown(value)}. Hint: {name}=False."
    raise DataError(msg)


def check_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """A keyword choice ``name``: one of ``choices`` (the first is the default), or a
    :class:`DataError` naming it with the nearest. A value outside them was read as one of
    them: ``on_error="rais"`` collected the errors it was asked to raise, ``form="matches"``
    gave the match form, ``IdPolicy(mode="safest")`` the ``safe`` policy.

    >>> check_choice("on_error", "raise", ("raise", "collect"))
    'raise'
    >>> check_choice("on_error", "rais", ("raise", "collect"))
    Traceback (most recent call last):
    swissframe.errors.DataError: on_error='rais' is not one of 'raise' (default), ...'raise'?
    """
    if isinstance(value, str) and value in choices:
        return value
    listed = ", ".join(f"{c!r}" + (" (default)" if i == 0 else "")
                       for i, c in enumerate(choices))
    hint = did_you_mean(value, choices, f"use one of {listed}") if isinstance(value, str) \
        else f"use one of {listed}"
    msg = (f"{name}={_shown(value)} is not one of {listed}. Hint: {hint}"
           + ("" if hint.endswith("?") else "."))
    raise DataError(msg)


def check_names(what: str, value: object, *, hint: str) -> tuple[str, ...]:
    """Column names given as one name or a sequence of names (``keys=``, a chart's
    ``tiebreakers=``, a summary's ``by=``), as a tuple: one name alone is that column, not
    its letters, and anything else (a number, None) is a :class:`DataError` saying
    ``what`` must be column names, ending in ``hint``.

    >>> check_names("by", "source", hint="e.g. by=['source']"), check_names("by", ["a", "b"],
    ...                                                                     hint="")
    (('source',), ('a', 'b'))
    >>> check_names("keys", 3, hint="e.g. keys=['scenario_id'].")
    Traceback (most recent call last):
    swissframe.errors.DataError: keys must be column names, got 3. Hint: e.g. keys=['scenario_id'].
    """
    if isinstance(value, str):
        return (value,)
    if (isinstance(value, Sequence) and not isinstance(value, bytes)
            and all(isinstance(v, str) for v in value)):
        twice = next((v for i, v in enumerate(value) if v in value[:i]), None)
        if twice is not None:  # (a key named twice ended in Polars' bare DuplicateError)
            msg = (f"{what} names the column {twice!r} twice ({list(value)!r:.80}). Hint: "
                   "name each column once.")
            raise DataError(msg)
        return tuple(value)
    msg = f"{what} must be column names, got {value!r:.60}. Hint: {hint}"
    raise DataError(msg)


def check_real(name: str, value: object, *, low: float = 0.0, high: float = math.inf,
               above: bool = False, hint: str) -> float:
    """A real-number argument ``name`` from ``low`` (excluded with ``above``) to ``high``,
    finite (not a bool, NaN or infinity), or a :class:`DataError` naming it: the one check
    of the analyses' rates and sizes that are not counts (:func:`check_whole` is the
    counts'). A NaN or negative PNG scale reached the renderer, whose Rust code panicked.

    >>> check_real("scale", 2, above=True, high=10, hint="e.g. 2")
    2.0
    >>> check_real("scale", float("nan"), above=True, high=10, hint="e.g. 2")
    Traceback (most recent call last):
    swissframe.errors.DataError: scale must be a finite number > 0 and ≤ 10, got nan. Hint: e.g. 2.
    """
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number) and (number > low if above else number >= low) \
                and number <= high:
            return number
    bound = f"{'>' if above else '≥'} {low:g}" + (f" and ≤ {high:g}" if high < math.inf else "")
    msg = f"{name} must be a finite number {bound}, got {_shown(value)}. Hint: {hint}."
    raise DataError(msg)


def _shown(value: object) -> str:
    """``value`` as a message quotes it: a number too long to read (Python refuses to print
    one of more than 4,300 digits) by its size.

    >>> _shown(10**30), _shown(2**1000)
    ('1000000000000000000000000000000', 'a number of 1,001 bits')
    """
    if isinstance(value, numbers.Integral) and abs(int(value)).bit_length() > 256:
        return f"a number of {abs(int(value)).bit_length():,} bits"
    return f"{value!r:.80}"


def listed(value: object) -> object:
    """A one-dimensional NumPy array or Polars Series as the list of its values (as
    Python's numbers), anything else as it is: where a sequence of numbers is read
    (attendances, event sizes), an array was "not a sequence" (bad data 242).

    >>> import numpy as np
    >>> listed(np.array([8, 64])), listed((8, 64))
    ([8, 64], (8, 64))
    """
    module = type(value).__module__.partition(".")[0]
    if module == "numpy" and getattr(value, "ndim", None) == 1:
        return value.tolist()  # type: ignore[attr-defined]
    if module == "polars" and type(value).__name__ == "Series":
        return value.to_list()  # type: ignore[attr-defined]
    return value


def check_seed(seed: object) -> int | None:
    """A random seed as the analyses take it: None (fresh entropy) or an integer ≥ 0
    (NumPy's seed sequences refuse negative ones with a bare ``ValueError``).

    >>> check_seed(7), check_seed(None)
    (7, None)
    """
    return None if seed is None else check_whole("seed", seed, hint="None, or e.g. seed=0")


def check_top(top: object) -> int:
    """The size of a cut as the analyses take it: a whole number ≥ 1.

    >>> check_top(8)
    8
    """
    return check_whole("top", top, low=1, hint="the size of the cut, e.g. 8")


def check_game_triples(name: str, value: object, *, hint: str
                       ) -> list[tuple[int, int, int]]:
    """Game scores as (won, lost, drawn) triples of whole numbers ≥ 0 (match outcomes, a
    source's intentional-draw scores), or a :class:`DataError` naming ``name``: a text or
    a number ended in ``int()``'s or ``iter()``'s bare error.

    >>> check_game_triples("outcomes", [(2, 0, 0), [0, 2, 0]], hint="e.g. [(2, 0, 0)]")
    [(2, 0, 0), (0, 2, 0)]
    """
    def whole(v: object) -> bool:
        return isinstance(v, numbers.Integral) and not isinstance(v, bool) and int(v) >= 0

    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        items: list[object] = []
    else:  # (a NumPy array's rows: their numbers; bad data 242)
        items = [listed(t) for t in value]
    if not items or not all(isinstance(t, (tuple, list)) and len(t) == 3
                            and all(whole(v) for v in t) for t in items):
        shown = " ".join(f"{value!r}".split())  # (one line: an array's repr is many)
        msg = (f"{name} must be (games won, lost, drawn) triples of whole numbers ≥ 0, got "
               f"{shown:.80}. Hint: {hint}.")
        raise DataError(msg)
    return [(int(t[0]), int(t[1]), int(t[2])) for t in items]  # type: ignore[index]


def check_outcome_space(name: str, value: object, *, hint: str
                        ) -> list[tuple[int, int, int]]:
    """A match's outcome space (a ruleset's ``match_outcomes``, a cut analysis'
    ``outcomes``): :func:`check_game_triples`, distinct, and the same from both seats (a
    2-1 needs a 1-2), or a :class:`DataError` naming ``name``.

    >>> check_outcome_space("outcomes", [(1, 0, 0), (0, 1, 0)], hint="e.g. [(1, 0, 0)]")
    [(1, 0, 0), (0, 1, 0)]
    >>> check_outcome_space("outcomes", [(2, 1, 0)], hint="e.g. [(2, 1, 0), (1, 2, 0)]")
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: outcomes [(2, 1, 0)] must be distinct ... (2, 1, 0) has no
    mirror (1, 2, 0). Hint: e.g. [(2, 1, 0), (1, 2, 0)].
    """
    outs = check_game_triples(name, value, hint=hint)
    twice = [o for o in set(outs) if outs.count(o) > 1]
    lone = [o for o in outs if (o[1], o[0], o[2]) not in outs]
    if twice or lone:
        what = (f"{twice[0]} is listed twice" if twice else
                f"{lone[0]} has no mirror {(lone[0][1], lone[0][0], lone[0][2])}")
        msg = (f"{name} {outs!r} must be distinct and the same from both seats (a 2-1 "
               f"needs a 1-2): {what}. Hint: {hint}.")
        raise DataError(msg)
    return outs


def check_id(name: str, value: object, *, hint: str) -> str:
    """An id argument (a player, an event) as text, or a :class:`DataError` naming it: ids
    are strings in the results table, and a number compared with them ended in a Polars
    ``ComputeError``.

    >>> check_id("player_id", "Kai", hint="e.g. 'Alice'")
    'Kai'
    """
    if not isinstance(value, str):
        msg = f"{name} must be an id as text, got {value!r:.60}. Hint: {hint}."
        raise DataError(msg)
    return value


def check_events(value: object, kinds: tuple[type, ...], *, call: str, hint: str) -> None:
    """``value`` is one of the importers' event bundles ``kinds`` (what ``read_decklist_cache``,
    ``read_tom`` or ``read_trf`` return), or a :class:`SchemaError` naming ``call`` and what
    it got, ending in ``hint`` (a path or a table reached an attribute of the bundle and
    ended in a bare ``AttributeError``).

    >>> check_events("x.json", (dict,), call="verify", hint="read the files first")
    Traceback (most recent call last):
    swissframe.errors.SchemaError: verify takes the events an importer returns (dict), ...
    """
    if isinstance(value, kinds):
        return
    names = " or ".join(k.__name__ for k in kinds)
    import polars as pl

    from swissframe.schema import not_a_table  # (a table's repr is many lines: bad data 240)

    kind = (f"a polars {type(value).__name__}" if isinstance(value, (pl.DataFrame, pl.LazyFrame))
            else not_a_table(value)[0])
    msg = f"{call} takes the events an importer returns ({names}), got {kind}. Hint: {hint}."
    raise SchemaError(msg)


def nearest(value: object, known: Iterable[object], *, n: int = 3, cutoff: float = 0.6,
            fold_case: bool = False) -> list[str]:
    """The ids of ``known`` nearest to ``value`` (at most ``n``, best first; nulls left
    out): the one fuzzy match of "did you mean" hints and typo warnings (``difflib``'s
    ratio of at least ``cutoff``), compared in one Unicode form (NFC). ``fold_case``:
    compared in lower case. Returned as spelled in ``known``.

    >>> nearest("bobb", ["Alice", "Bob"], fold_case=True)
    ['Bob']
    """
    def form(text: str) -> str:
        # (compared in one Unicode form: 'Zoë' typed as one letter and a file's 'Zoe' +
        # U+0308 look the same but were too far apart for the fuzzy match; bad data 205)
        text = unicodedata.normalize("NFC", text)
        return text.lower() if fold_case else text

    spelled: dict[str, list[str]] = {}
    for k in dict.fromkeys(str(k) for k in known if k is not None):
        spelled.setdefault(form(k), []).append(k)
    close = difflib.get_close_matches(form(str(value)), list(spelled), n=n, cutoff=cutoff)
    return [k for m in close for k in spelled[m]][:n]


def did_you_mean(value: object, known: Iterable[object], otherwise: str, *,
                 fold_case: bool = False) -> str:
    """The hint for an id that is not among ``known``: its nearest ids (:func:`nearest`,
    ``fold_case`` as there), or ``otherwise`` when none is near.

    >>> did_you_mean("Bobb", ["Alice", "Bob"], "check the spelling.")
    "did you mean 'Bob'?"
    """
    from swissframe._display import escaped, quoted  # (names as messages quote them: 155)

    def named(k: str) -> str:
        # (an id that reads as the value, in another Unicode form: its characters too)
        same = unicodedata.normalize("NFC", k) == unicodedata.normalize("NFC", str(value))
        return f"{quoted(k)} ({escaped(k)}: another Unicode form)" if same else quoted(k)

    near = nearest(value, known, fold_case=fold_case)
    return f"did you mean {', '.join(map(named, near))}?" if near else otherwise
