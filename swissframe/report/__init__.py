"""Article-ready event reports: one self-contained, offline HTML page per event (and a season
page for many), built from the public API.

>>> import swissframe as sf
>>> rep = sf.report("data/events/store-championship.csv", top=4)   # doctest: +SKIP
>>> rep.save("store-championship.html")                             # doctest: +SKIP

An event page has a header (name, date, format, players, rounds, the ruleset and why), the
final standings with every criterion of the ruleset (sortable), the cut line and the
criterion that decided it (:func:`swissframe.compare`), the race, the situation before the
last round (cut status per points group, the bubble's OMW% ranges, intentional-draw advice
and what the draws did — for chess, where a draw is a result, draw advice only) and the
tiebreaker sensitivity. Every chart is a
:mod:`swissframe.charts` figure rendered in the page by Vega (inlined from vl-convert) with
PNG / SVG download. The page makes no network request and opens from ``file://``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from swissframe._display import count, quoted
from swissframe.errors import (
    DataError,
    DataWarning,
    check_flag,
    check_seed,
    check_top,
    check_whole,
)
from swissframe.io._files import NO_RESULTS, NO_RESULTS_HINT
from swissframe.report._event import EventMeta, EventReport, build_event
from swissframe.report._inputs import Source, _check_names_table, event_rows, load, meta_for
from swissframe.report._season import SeasonReport, build_season
from swissframe.rules import Ruleset
from swissframe.rules import get as get_rules
from swissframe.schema import validated_table

__all__ = ["EventMeta", "EventReport", "SeasonReport", "report"]


def _check_page_arguments(title: object, variants: object) -> None:
    """A ``title`` that is text, and ``variants`` that are rulesets, or a
    :class:`DataError`/:class:`~swissframe.errors.RulesetError` before anything is
    computed: a number as title ended in a bare ``AttributeError`` when the page was
    written, and a bad variant (``variants="mtg"``, read letter by letter, or an unknown
    name) only left the page's sensitivity section out, with a line on the page."""
    if title is not None and not isinstance(title, str):
        msg = f"title must be text, got {title!r:.60}. Hint: e.g. title='Store championship'."
        raise DataError(msg)
    if variants is None:
        return
    if isinstance(variants, (str, Ruleset)) or not isinstance(variants, Sequence):
        msg = (f"variants must be a list of rulesets, got {variants!r:.60}. Hint: e.g. "
               "variants=['mtg', 'mtg-1/3'], or leave it out for sf.standard_variants(rules).")
        raise DataError(msg)
    for v in variants:
        get_rules(v)  # (an unknown name: a RulesetError with the names it could be)


def report(data: Any, *, event_id: str | None = None, rules: str | Ruleset | None = None,
           top: int | None = None, names: Mapping[str, str] | pl.DataFrame | None = None,
           title: str | None = None, n_sims: int = 100, seed: int | None = 0,
           variants: Sequence[str | Ruleset] | None = None,
           season: bool | None = None) -> EventReport | SeasonReport:
    """An article-ready HTML report of one event, or a season page for many.

    Parameters
    ----------
    data
        A results table (DataFrame / LazyFrame), one or more file paths (CSV / Parquet
        results, decklist-cache JSON, TOM ``.tdf``, TRF; read by :func:`~swissframe.read`),
        or what :func:`~swissframe.read`, :func:`~swissframe.read_decklist_cache`,
        :func:`~swissframe.read_tom` or :func:`~swissframe.read_trf` return (their event
        names, dates and player names are used).
    event_id
        Report on this event only.
    rules
        Ruleset; by default each event's, as ``rules="auto"`` infers it for
        :func:`~swissframe.standings` (``docs/inference.md``: a decklist → its platform's
        preset, TOM → ``pokemon``, TRF → the FIDE rules of its start date, a table → its
        ``ruleset`` column, else ``mtg``); the page says which and why.
    top
        Size of the cut (N), or the places that matter where the game has no playoff
        (chess: "the top N places"). Default: the event's own playoff where its rows hold
        one (a decklist file's Top 8), else 8; a season page compares one N (8 unless
        given).
    names
        Display names: ``{player_id: name}`` or a frame ``player_id, name[, event_id]``
        (a ``name`` column of the results or the importer's players table is used too).
    title
        Page title (default: the event's name).
    n_sims
        Simulations for the undecided cut statuses (and half as many for the
        intentional-draw counterfactual).
    seed
        Random seed (pages are reproducible; None: fresh entropy, the simulated shares
        differ from call to call).
    variants
        Rulesets for the sensitivity section (default: ``sf.standard_variants(rules)``).
    season
        True: a season page even for one event; False: an event page (needs one event or
        ``event_id``); None: by the number of events.

    Returns
    -------
    EventReport or SeasonReport
        ``.save(path)`` writes the page (a season to a ``.html`` file, or to a folder with
        one page per event and links); ``_repr_html_`` displays it in a notebook.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> rep = sf.report(sf.from_matches(m), top=2, n_sims=0)
    >>> rep.comparison.sentence
    'C (2nd) beat D (3rd) on OMW%: 75.00% vs 41.50%, level on match points (3).'
    >>> html = rep.html
    >>> 'id="standings"' in html, "<script src" in html
    (True, False)
    """
    if top is not None:
        check_top(top)
    check_seed(seed)
    check_whole("n_sims", n_sims, hint="e.g. n_sims=100")
    check_flag("season", season, none=True)
    _check_page_arguments(title, variants)
    src = load(data)
    # the contract first: the pages filter Swiss rows by phase, so a null or misspelled
    # phase (or any other refused row) left an event with no rows, and a page that failed
    # to render (an IndexError deep in its text) instead of naming the row
    src.results = validated_table(src.results)[0]
    _without_brackets(src, event_id, season)
    _names_nobody_holds(src, names)
    events = src.event_ids()
    if not events:  # (a 0-round TRF, a TOM save before its first pairings)
        msg = f"{NO_RESULTS}: a report needs at least one round. {NO_RESULTS_HINT}"
        raise DataError(msg)
    if event_id is not None:
        rows = event_rows(src, event_id)
        if not season:
            return build_event(rows, meta_for(src, event_id, rules, names, title), top=top,
                               n_sims=n_sims, seed=seed, variants=variants)
        src.results = rows
        events = [event_id]
    if season or (season is None and len(events) > 1):
        return build_season(src, rules=rules, top=top,
                            names=names, title=title,
                            n_sims=n_sims, seed=seed, variants=variants)
    if len(events) > 1:
        msg = (f"an event page needs one event, the input holds {len(events)}. Hint: pass "
               f"event_id=… (e.g. {quoted(events[0])}) or season=True.")
        raise DataError(msg)
    return build_event(src.results, meta_for(src, events[0], rules, names, title), top=top,
                       n_sims=n_sims, seed=seed, variants=variants)


def _names_nobody_holds(src: Source, names: Mapping[str, str] | pl.DataFrame | None
                        ) -> None:
    """A :class:`DataWarning` naming the players a ``names`` argument names whom the
    input's results do not hold (a mistyped id: its name was left out without a word);
    a names table's rows for events the input does not hold are another event's, not
    named.

    >>> import warnings
    >>> import swissframe as sf
    >>> m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"],
    ...     "games_a": [2], "games_b": [0], "games_drawn": [0]})
    >>> with warnings.catch_warnings(record=True) as said:
    ...     warnings.simplefilter("always")
    ...     _ = sf.report(sf.from_matches(m), names={"A": "Ann", "Bb": "Bea"}, n_sims=0)
    >>> print(said[0].message)  # doctest: +ELLIPSIS
    names gives 1 player the results do not hold ('Bb'): ... Hint: ...
    """
    if isinstance(names, pl.DataFrame) and {"player_id", "name"} <= set(names.columns):
        _check_names_table(names)  # (its ids are read as text here)
        held = src.results.select(pl.col("event_id", "player_id").cast(pl.String)).unique()
        named = names.select(*(["event_id"] if "event_id" in names.columns else []),
                             pl.col("player_id").cast(pl.String)).unique()
        if "event_id" in named.columns:
            named = named.with_columns(pl.col("event_id").cast(pl.String)).filter(
                pl.col("event_id").is_in(held["event_id"].implode()))
            ids = named.join(held, on=["event_id", "player_id"], how="anti")["player_id"]
        else:
            ids = named.filter(~pl.col("player_id").is_in(held["player_id"].implode()))[
                "player_id"]
        unknown = sorted(ids.drop_nulls().unique().to_list())
    elif isinstance(names, Mapping):
        held_ids = set(src.results["player_id"].cast(pl.String).to_list())
        unknown = sorted(str(k) for k in names if str(k) not in held_ids)
    else:
        return
    if unknown:
        shown = ", ".join(map(quoted, unknown[:5])) + (" …" if len(unknown) > 5 else "")
        who = "player" if len(unknown) == 1 else "players"
        msg = (f"names gives {len(unknown)} {who} the results do not hold ({shown}): their "
               "names are not shown. Hint: names maps player_id to name; check the ids "
               "against the results' player_id.")
        warnings.warn(msg, DataWarning, stacklevel=3)


def _without_brackets(src: Source, event_id: str | None, season: bool | None) -> None:
    """The events with only playoff rows (a bracket exported on its own: no Swiss
    standings, ``validate.no_swiss_rounds``) left out of a season page with a warning, or
    an error for the page of such an event (it failed deep in its text: an
    ``OutOfBoundsError`` on the empty standings)."""
    from swissframe.validate import no_swiss_rounds

    bracket = no_swiss_rounds(src.results.lazy()).collect()
    if not bracket.height:
        return
    ids = [str(e) for e in bracket["event_id"]]
    details = dict(zip(ids, bracket["detail"], strict=True))
    page = event_id if event_id is not None else (
        src.event_ids()[0] if len(src.event_ids()) == 1 and not season else None)
    if page is not None and page in details:
        msg = (f"event {quoted(page)} has only playoff rows ({details[page]}): a report ranks the "
               "Swiss. Hint: add the event's Swiss rounds, or report on another event.")
        raise DataError(msg)
    if page is not None:
        return  # (a page of another event: its rows alone are reported)
    shown = ", ".join(map(quoted, ids[:5])) + (" …" if len(ids) > 5 else "")
    msg = (f"the season page leaves out {count(len(ids), 'event')} with only playoff rows "
           f"({shown}): they have no Swiss standings. Hint: swissframe validate FILE lists "
           "each.")
    warnings.warn(msg, DataWarning, stacklevel=3)
    src.results = src.results.filter(~pl.col("event_id").is_in(ids))
