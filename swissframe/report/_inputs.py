"""What a report can be built from: files, a results frame, or an importer's result object;
and the event metadata (name, date, format, names, the ruleset and why) each carries."""

from __future__ import annotations

import datetime as dt
import io
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

import swissframe as sf
from swissframe._display import quoted
from swissframe.errors import DataError, did_you_mean
from swissframe.report._event import EventMeta
from swissframe.rules import Ruleset
from swissframe.rules._infer import DEFAULT
from swissframe.schema import as_frame, by_event, not_a_table

if TYPE_CHECKING:
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents
    from swissframe.io.trf import TrfEvents

__all__ = ["Source", "load"]

@dataclass
class Source:
    """Results of one or many events plus what is known about each event: its name, date
    and format (``info``), its players' names, and the ruleset ``rules="auto"`` gives it
    with the reason (``rules``: the one inference, :mod:`swissframe.rules._infer`)."""

    results: pl.DataFrame
    info: dict[str, dict[str, Any]] = field(default_factory=dict)
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    rules: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: ``results`` with each event's rows together, and where each event's rows are in it
    #: (:meth:`event_spans`), with the table they were made from
    _spans: tuple[pl.DataFrame, pl.DataFrame, dict[str, tuple[int, int]]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def event_spans(self) -> tuple[pl.DataFrame, dict[str, tuple[int, int]]]:
        """:func:`swissframe.schema.by_event` of ``results``, made once (again only when
        ``results`` is replaced): each page filtered the whole table for its event and
        listed every event to check it, a season's pages in time quadratic in its events
        (bad data 262)."""
        if self._spans is None or self._spans[0] is not self.results:
            self._spans = (self.results, *by_event(self.results))
        return self._spans[1], self._spans[2]

    def event_ids(self) -> list[str]:
        """Events in file order."""
        return list(self.event_spans()[1])


def _rows(df: pl.DataFrame, key: str = "event_id") -> dict[str, dict[str, Any]]:
    return {str(r[key]): r for r in df.unique(key, keep="first", maintain_order=True)
            .iter_rows(named=True)}


def _names(players: pl.DataFrame) -> dict[str, dict[str, str]]:
    if "name" not in players.columns:
        return {}
    out: dict[str, dict[str, str]] = {}
    for r in players.select("event_id", "player_id", "name").iter_rows():
        if r[2] is not None and str(r[2]).strip() and str(r[2]) != str(r[1]):
            out.setdefault(str(r[0]), {})[str(r[1])] = str(r[2])
    return out


def _rulesets(events: pl.DataFrame) -> dict[str, tuple[str, str]]:
    """Event → (ruleset, reason) from a frame ``event_id, ruleset, ruleset_reason``."""
    got = events.unique("event_id", keep="first", maintain_order=True)
    return {str(e): (str(r), str(why)) for e, r, why in
            got.select("event_id", "ruleset", "ruleset_reason").iter_rows()}


def _info(bundle: DecklistEvents | TomEvents | TrfEvents) -> dict[str, dict[str, Any]]:
    """Name, date, format, source and details of each event an importer read."""
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents

    if isinstance(bundle, DecklistEvents):
        return {k: {"name": v.get("name"), "date": v.get("date"), "format": v.get("format"),
                    "source": v.get("source"), "details": _deck_details(v)}
                for k, v in _rows(bundle.events).items()}
    if isinstance(bundle, TomEvents):
        return {k: {"name": v.get("name"), "date": v.get("start_date"),
                    "format": f"Pokémon, {v.get('division') or v.get('pod_label') or 'division ?'}",
                    "source": "TOM", "details": ()} for k, v in _rows(bundle.structure).items()}
    return {k: {"name": v.get("name"), "date": v.get("start_date"),
                "format": v.get("tournament_type") or "Chess", "source": "TRF",
                "details": tuple(x for x in (v.get("city"),) if x)}
            for k, v in _rows(bundle.header).items()}


def load(data: Any) -> Source:
    """A :class:`Source` from paths, a frame, or an importer's result.

    Paths are read by :func:`swissframe.read` (the one reader: every format recognised by
    its content, folders searched, the same errors and rulesets as ``swissframe
    standings``); an importer's result and a table get the ruleset ``rules="auto"`` would
    give them.
    """
    from swissframe.io._files import Source as Read
    from swissframe.io._files import event_names, events_of, path_items, read
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents
    from swissframe.io.trf import TrfEvents
    from swissframe.rules._infer import infer_rulesets, table_rulesets

    if isinstance(data, (str, os.PathLike)) or (
            isinstance(data, (list, tuple)) and data
            and all(isinstance(p, (str, os.PathLike)) for p in data)):
        data = read(data)
    if isinstance(data, Read):  # (what sf.read returns: the files and what they say)
        src = data
        info: dict[str, dict[str, Any]] = {}
        for bundle in src.bundles.values():
            if isinstance(bundle, (DecklistEvents, TomEvents, TrfEvents)):
                info.update(_info(bundle))
        return Source(src.results, _named(info, src.event_names), names=_names(src.names),
                      rules=_rulesets(src.events))
    if isinstance(data, pl.LazyFrame):
        data = as_frame(data)
    if isinstance(data, pl.DataFrame):
        df = data if "event_id" in data.columns else data.with_columns(event_id=pl.lit("event"))
        names: dict[str, dict[str, str]] = {}
        if "name" in df.columns:
            names = _names(df.select("event_id", "player_id", "name").unique())
        return Source(df, names=names, rules=_rulesets(table_rulesets(df)))
    if isinstance(data, (DecklistEvents, TomEvents, TrfEvents)):
        players = getattr(data, "players", None)
        ids = data.results["event_id"].unique(maintain_order=True).cast(pl.String).to_list()
        return Source(data.results, _named(_info(data), event_names([data], ids)),
                      names=_names(players) if isinstance(players, pl.DataFrame) else {},
                      rules=_rulesets(infer_rulesets(events_of(data))))
    if isinstance(data, io.IOBase):  # (an open file or a buffer: said as a reader says it)
        path_items(data)
    kind, hint = not_a_table(data)
    if kind.startswith(("a pandas", "a pyarrow", "a NumPy", "a polars Series")) \
            or isinstance(data, Mapping):
        hint = f"{hint}, then sf.report(table)"  # (table-like data: how to make the table)
    else:
        hint = ("pass a results frame, file paths, or what sf.read / read_decklist_cache / "
                "read_tom / read_trf return")
    msg = f"cannot build a report from {kind}. Hint: {hint}."
    raise DataError(msg)


def _named(info: dict[str, dict[str, Any]], names: Mapping[str, str]
           ) -> dict[str, dict[str, Any]]:
    """``info`` with each event's name as every surface says it
    (:func:`~swissframe.io._files.event_names`: the file's own, a pod's division added where
    one file's pods share it, else the id)."""
    return {e: {**info.get(e, {}), "name": n} for e, n in names.items()} | {
        e: v for e, v in info.items() if e not in names}


def _deck_details(v: Mapping[str, Any]) -> tuple[str, ...]:
    out = []
    if v.get("playoff_size"):
        out.append(f"top {v['playoff_size']} playoff")
    if v.get("day2_after_round"):
        out.append(f"day 2 after round {v['day2_after_round']}")
    if v.get("era"):
        out.append(f"melee.gg era {v['era']}")
    return tuple(out)


def _check_names_table(names: pl.DataFrame) -> None:
    """A :class:`DataError` naming a column of a report's ``names`` table that has no text
    form (lists, objects, durations: :func:`~swissframe.schema.has_text_form`): its ids and
    names are read as text, and such a cast was Polars' bare error ("cannot cast List
    type", "cannot cast 'Object' type")."""
    from swissframe.schema import has_text_form, holds_non_ids

    # (ids by the one rule of ids, holds_non_ids — class 135; a name by its text form)
    bad = [f"{c} is {t}" for c, t in names.schema.items()
           if (c in ("event_id", "player_id") and holds_non_ids(t))
           or (c == "name" and t != pl.Null and not has_text_form(t))]
    if bad:
        msg = (f"names table has mistyped column(s): {'; '.join(bad)}. Hint: ids are text "
               "(or whole numbers) and names text, e.g. "
               "names.with_columns(pl.col('name').cast(pl.String)).")
        raise DataError(msg)


def meta_for(src: Source, event_id: str, rules: str | Ruleset | None,
             names: Mapping[str, str] | pl.DataFrame | None, title: str | None) -> EventMeta:
    """The :class:`EventMeta` of one event."""
    info = src.info.get(event_id, {})
    if rules is None:  # what rules="auto" gives the event (standings, the CLI alike)
        name, why = src.rules.get(event_id, (DEFAULT, ""))
        rs = sf.rules.get(name)
        why = f"{why[:1].upper()}{why[1:]}." if why else why
    else:
        rs = sf.rules.get(rules)
        why = "Chosen for this report."
    shown = dict(src.names.get(event_id, {}))
    if isinstance(names, pl.DataFrame) and {"player_id", "name"} <= set(names.columns):
        _check_names_table(names)
        sub = names.filter(pl.col("event_id") == event_id) if "event_id" in names.columns \
            else names
        twice = (sub.select(pl.col("player_id").cast(pl.String), pl.col("name").cast(pl.String))
                 .unique().filter(pl.len().over("player_id") > 1).sort("player_id", "name"))
        if twice.height:  # (the last one was shown, without a word)
            who = twice["player_id"][0]
            both = twice.filter(pl.col("player_id") == who)["name"].to_list()
            msg = (f"names gives player {quoted(who)} of event {quoted(event_id)} more than one "
                   f"name ({', '.join(map(quoted, both[:3]))}). Hint: one row per player_id (and "
                   "event_id) in the names table.")
            raise DataError(msg)
        shown.update({str(a): str(b) for a, b in sub.select("player_id", "name").iter_rows()})
    elif isinstance(names, Mapping):
        shown.update({str(k): str(v) for k, v in names.items()})
    elif names is not None:
        # (a DataFrame without those columns ended in Polars' ColumnNotFoundError)
        got = (f"a DataFrame with columns {names.columns}" if isinstance(names, pl.DataFrame)
               else type(names).__name__)
        msg = (f"names must map player_id to name (a dict, or a DataFrame with player_id, "
               f"name), got {got}. Hint: names={{'p1': 'Alice'}}.")
        raise DataError(msg)
    date = info.get("date")
    if isinstance(date, dt.datetime):
        date = date.date()
    name = title or str(info.get("name") or event_id)  # (io._files.event_names' rule)
    return EventMeta(event_id=event_id, name=name,
                     rules=rs, why=why, date=date, format=info.get("format"),
                     source=info.get("source"), details=tuple(info.get("details") or ()),
                     names=shown)


def event_rows(src: Source, event_id: str) -> pl.DataFrame:
    """One event's rows (an error naming close matches when absent)."""
    together, spans = src.event_spans()
    if event_id not in spans:
        known = list(spans)
        msg = (f"event {quoted(event_id)} is not in the input. Hint: " + did_you_mean(
            event_id, known, f"events present: {known[:10]}{' …' if len(known) > 10 else ''}."))
        raise DataError(msg)
    return together.slice(*spans[event_id])


def iter_events(src: Source) -> Iterable[tuple[str, pl.DataFrame]]:
    """Every event's rows, in input order."""
    for e in src.event_ids():
        yield e, event_rows(src, e)
