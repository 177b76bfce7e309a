"""The season page: many events on one page (cut lines against field size, intentional-draw
trends, how often each tiebreaker variant changes the top N), linking to the event pages
when written as a folder."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

import swissframe as sf
from swissframe import charts
from swissframe._batches import counted
from swissframe._display import count
from swissframe.compare import criterion_label, knows_intentional_draws, ordinal
from swissframe.cut._words import DEFAULT_TOP, cut_words, top_of
from swissframe.errors import SwissframeError
from swissframe.report._event import (
    EventMeta,
    EventReport,
    build_event,
)
from swissframe.report._html import Table, chart_block, page, page_names
from swissframe.rules import Ruleset
from swissframe.schema import swiss_part
from swissframe.sensitivity import variant_label

if TYPE_CHECKING:  # pragma: no cover
    from swissframe.report._inputs import Source

__all__ = ["SeasonReport", "build_season"]


@dataclass
class SeasonReport:
    """Many events: ``.html`` (the season page), ``.save(path)``, ``_repr_html_``.

    ``summary`` has one row per event (players, rounds, cut line, what decided it, IDs,
    variants that change the top N); ``sensitivity`` and ``ids`` are the underlying tables.
    """

    title: str
    top: int
    metas: list[EventMeta]
    summary: pl.DataFrame
    sensitivity: pl.DataFrame | None
    ids: pl.DataFrame | None
    problems: dict[str, str] = field(default_factory=dict)
    #: With no top given: the events whose files hold no playoff (any: the top places shown)
    no_playoff: int = 0
    _src: Any = None
    _options: dict[str, Any] = field(default_factory=dict)

    @property
    def stated(self) -> bool:
        """Whether the top is a cut: given, or every event's file holds a playoff."""
        return self.no_playoff == 0

    @property
    def html(self) -> str:
        """The season page alone (no links to event pages)."""
        return render_season(self, links=None)

    def events(self) -> list[EventReport]:
        """Every event's own report (computed on demand)."""

        return [self._event(m) for m in self.metas]

    def _event(self, meta: EventMeta) -> EventReport:
        from swissframe.report._inputs import event_rows

        # (no cut stated: each page its own, its file's playoff or the top places)
        return build_event(event_rows(self._src, meta.event_id), meta,
                           top=self.top if self.stated else None, **self._options)

    def save(self, path: str | Path) -> Path:
        """Write the season page to ``path``.

        A path ending in ``.html`` gets the season page alone; any other path is a folder:
        ``index.html`` (the season page) plus one page per event under ``events/``, linked
        both ways. Returns the file or folder written.
        """
        from swissframe.io._files import local_path, write_folder_atomic, write_text_atomic
        from swissframe.report._event import PAGE_SUFFIXES, check_page_path

        path = local_path(path, what="save: the report's file")  # (bad data 244)
        check_page_path(path)
        p = Path(path)
        if p.suffix.lower() in PAGE_SUFFIXES:
            html = self.html
            return write_text_atomic(p, html)

        def pages(folder: Path) -> None:
            (folder / "events").mkdir()
            links: dict[str, str] = {}
            # (one name per event, bounded: a season of events named in Japanese gave
            # "event", "event-x", "event-x-x", … until a name was too long to write)
            names = page_names(meta.event_id for meta in self.metas)
            for meta in counted(self.metas, "event"):  # (built one by one: the progress line)
                rep = self._event(meta)
                name = names[meta.event_id]
                rep.season_link = "../index.html"
                rep.save(folder / "events" / f"{name}.html")
                links[rep.meta.event_id] = f"events/{urllib.parse.quote(name)}.html"
            (folder / "index.html").write_text(render_season(self, links=links),
                                               encoding="utf-8")

        # (written beside the folder and swapped in whole: an interrupted save left old
        # and new pages mixed; class 136)
        return write_folder_atomic(p, pages, owned=_season_file)

    def _repr_html_(self) -> str:
        from swissframe.report._notebook import iframe

        return iframe(self.html)

    def __str__(self) -> str:
        return f"season report: {self.title} ({len(self.metas)} events)"

    def __repr__(self) -> str:
        """A one-line summary (the dataclass's repr printed every event's ruleset and
        table: bad data 246)."""
        from swissframe._display import quoted, summary_text

        return summary_text("SeasonReport", [
            quoted(self.title), count(len(self.metas), "event"), f"top {self.top}"],
            ["html", "save(path)", "summary", "sensitivity", "ids"])


def _season_file(rel: Path) -> bool:
    """Whether ``rel`` (inside a season folder) is a file a season report writes:
    ``index.html``, ``events/`` and the event pages in it."""
    parts = rel.parts
    return (parts in (("index.html",), ("events",))
            or (len(parts) == 2 and parts[0] == "events" and rel.suffix == ".html"))


def build_season(src: Source, *, rules: str | Ruleset | None, top: int | None,
                 names: Mapping[str, str] | pl.DataFrame | None, title: str | None,
                 n_sims: int, seed: int | None,
                 variants: Sequence[str | Ruleset] | None) -> SeasonReport:
    """Compute the season tables (one engine pass per ruleset, every event at once; ``top``
    None: 8, a cut only where every event's file holds a playoff, :func:`top_of`)."""
    from swissframe.report._inputs import event_rows, meta_for

    no_playoff = 0 if top is not None else sum(
        not top_of(rows, None)[1] for _, rows in src.results.group_by("event_id"))
    top = DEFAULT_TOP if top is None else top

    metas = [meta_for(src, e, rules, names, None) for e in src.event_ids()]
    problems: dict[str, str] = {}
    swiss = swiss_part(src.results)
    by_rules: dict[str, list[str]] = {}
    rs_of: dict[str, Ruleset] = {}
    for m in metas:
        by_rules.setdefault(m.rules.name, []).append(m.event_id)
        rs_of[m.rules.name] = m.rules
    summaries, sens_parts, id_parts = [], [], []
    for name, evs in by_rules.items():
        rs = rs_of[name]
        sub = swiss.filter(pl.col("event_id").is_in(evs))
        # (a disqualified player has no rank, and no position: after everyone)
        st = (sf.standings(sub, rs).sort("event_id", "rank", "player_id", nulls_last=True)
              .with_columns(position=pl.when(pl.col("rank").is_not_null())
                            .then(pl.int_range(1, pl.len() + 1).over("event_id"))))
        rounds = sub.group_by("event_id").agg(rounds=pl.col("round").max())
        line = (st.filter(pl.col("position") == top)
                .select("event_id", pl.col("match_points").cast(pl.Float64).alias("cut_points"),
                        pl.col("player_id").alias("place_n")))
        n1 = st.filter(pl.col("position") == top + 1).select(
            "event_id", pl.col("player_id").alias("place_n1"))
        # (an event of no more players than the top has no line: its place N, if any, is
        # its last place, 0 points after a winless Swiss; left out of the cut lines)
        summaries.append(
            st.group_by("event_id").agg(players=pl.len())
            .join(rounds, on="event_id", how="left").join(line, on="event_id", how="left")
            .join(n1, on="event_id", how="left")
            .with_columns(pl.when(pl.col("players") > top).then(pl.col("cut_points", "place_n")),
                          ruleset=pl.lit(name)))
        sets = list(variants) if variants is not None else sf.standard_variants(rs)
        try:
            sens_parts.append(sf.sensitivity(sub, sets, top=top))
        except SwissframeError as exc:
            problems["sensitivity"] = str(exc).splitlines()[0]
        try:
            id_parts.append(sf.id_report(sub, top, rs, n_sims=max(n_sims // 4, 10),
                                         seed=seed).events)
        except SwissframeError as exc:
            problems["ids"] = str(exc).splitlines()[0]
    summary = pl.concat(summaries, how="diagonal_relaxed")
    sens = pl.concat(sens_parts, how="diagonal_relaxed") if sens_parts else None
    ids = pl.concat(id_parts, how="diagonal_relaxed") if id_parts else None
    decided = []
    # (each event's line and rows looked up, not filtered from the whole: quadratic in
    # the events, bad data 262)
    places = {e: (a, b) for e, a, b in summary.select("event_id", "place_n", "place_n1")
              .unique("event_id", keep="first", maintain_order=True).iter_rows()}
    for m in metas:
        crit, sentence = None, None
        place_n, place_n1 = places.get(m.event_id, (None, None))
        if place_n1 is not None:
            try:
                c = sf.compare(swiss_part(event_rows(src, m.event_id)), place_n, place_n1,
                               rules=m.rules)
                crit = "exact tie" if c.tied else c.label
                sentence = c.describe(dict(m.names))
            except SwissframeError as exc:
                problems[f"compare:{m.event_id}"] = str(exc).splitlines()[0]
        decided.append({"event_id": m.event_id, "decided_by": crit, "cut_sentence": sentence})
    summary = summary.join(pl.DataFrame(decided, schema={
        "event_id": pl.String, "decided_by": pl.String, "cut_sentence": pl.String}),
        on="event_id", how="left")
    if sens is not None:
        base = sens.group_by("event_id", maintain_order=True).agg(
            variants_changing=(pl.col("entering").list.len() > 0).sum(),
            variants=pl.len() - 1)
        summary = summary.join(base, on="event_id", how="left")
    if ids is not None:
        keep = [c for c in ("ids_final", "final_ids_safe_both", "cf_cut_points_mean")
                if c in ids.columns]
        summary = summary.join(ids.select("event_id", *keep), on="event_id", how="left")
    info = pl.DataFrame([{"event_id": m.event_id, "name": m.name, "date": m.date,
                          "format": m.format} for m in metas],
                        schema={"event_id": pl.String, "name": pl.String, "date": pl.Date,
                                "format": pl.String})
    summary = info.join(summary, on="event_id", how="left")
    dates = [m.date for m in metas if m.date]
    head = title or (f"Season report: {len(metas)} events"
                     + (_months(min(dates), max(dates)) if dates else ""))
    return SeasonReport(head, top, metas, summary, sens, ids, problems, no_playoff, src,
                        {"n_sims": n_sims, "seed": seed, "variants": variants})


def _spec(chart: Any) -> dict[str, Any]:
    spec: dict[str, Any] = chart.to_dict(validate=False)  # swissframe.charts tests them
    spec["config"] = {**charts.theme_config()["config"], **spec.get("config", {})}
    return spec


class _Spec:
    """A ready Vega-Lite dict posing as a chart (``to_dict``)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec

    def to_dict(self, validate: bool = False) -> dict[str, Any]:
        return self.spec


def _cut_lines(ids: pl.DataFrame, field_t: pl.DataFrame, n: int,
               rules: Ruleset | None = None) -> Any:
    """``chart_cut_lines``; without any played-out counterfactual, its (empty) tick and rule
    layers are dropped, so Vega does not warn about their empty extents."""
    chart = charts.chart_cut_lines(ids, field=field_t, top=n, rules=rules)
    has_cf = "cf_cut_points_mean" in ids.columns and ids["cf_cut_points_mean"].drop_nulls().len()
    if has_cf:
        return chart
    spec: dict[str, Any] = chart.to_dict(validate=False)
    layers = spec.get("layer", [])
    keep = [ly for ly in layers if "datum.cf_points" not in json.dumps(ly.get("transform", []))]
    if keep and len(keep) < len(layers):
        spec["layer"] = keep
        if isinstance(spec.get("title"), dict):
            spec["title"]["subtitle"] = "one dot per event"
    return _Spec(spec)


def _num(x: object, fmt: str = "{:g}") -> str:
    return "–" if x is None else fmt.format(x)


def render_season(rep: SeasonReport, *, links: Mapping[str, str] | None) -> str:
    """The season page; ``links`` maps event ids to their pages."""
    s, n = rep.summary, rep.top
    # (one ruleset: the page in its words, e.g. a chess season has no IDs to count or mark)
    used = list({m.rules.name: m.rules for m in rep.metas}.values())
    # several rulesets that speak alike (a chess season across FIDE's 2009, 2023 and 2026
    # texts) are spoken of as one: the first stands for them (else a card game's words)
    alike = bool(used) and all(
        r.playoff == used[0].playoff
        and knows_intentional_draws(r) == knows_intentional_draws(used[0]) for r in used)
    one_rules = used[0] if alike else None
    ids = knows_intentional_draws(one_rules)
    words = cut_words(one_rules, n, stated=rep.stated)
    line = words.line_title
    blocks = [f'<header class="top"><div class="kicker">Season report</div>'
              f"<h1>{escape(rep.title)}</h1><div class=\"meta\"><b>{s.height}</b> events · "
              f"<b>{int(s['players'].sum() or 0):,}</b> player entries · "
              + f"{words.top_size} <b>{n}</b></div></header>"]
    facts = []
    if not rep.stated and (one_rules is None or one_rules.playoff):
        which = ("the files" if rep.no_playoff == len(rep.metas)
                 else f"{rep.no_playoff} of the {len(rep.metas)} events' files")
        facts.append(f"No playoff in {which}; showing the top {n} places of each event.")
    cut = s.filter(pl.col("cut_points").is_not_null())
    # (an event of no more players than N has no line: place N was its last, 0 points)
    few = s.filter(pl.col("players") <= n).height
    left_out = (f" ({count(few, 'event')} of {n} players or fewer, with no line, left out)"
                if few else "")
    if cut.height:
        lo, hi = cut["cut_points"].min(), cut["cut_points"].max()
        small, large = cut["players"].min(), cut["players"].max()
        field = _num(small) if small == large else f"{_num(small)}–{_num(large)}"
        # (one value where every event had it: it read "ranged from 2 to 2 points over 2
        # events of 6–6 players")
        if lo != hi:
            facts.append(f"{line} ranged from {_num(lo)} to {_num(hi)} points "
                         f"over {cut.height} events of {field} players{left_out}.")
        else:
            where = (f"in all {cut.height} events" if cut.height > 1
                     else "in the one event with such a line")
            facts.append(f"{line} fell at {_num(lo)} points {where} ({field} "
                         f"players){left_out}.")
        by = cut.group_by("decided_by").len().sort("len", descending=True)
        if by.height:
            top_by = by.row(0)
            facts.append(f"{ordinal(n)} and {ordinal(n + 1)} place were most often separated on "
                         f"{escape(str(top_by[0]))} ("
                         + ("the one event" if cut.height == 1
                            else f"{top_by[1]} of {cut.height} events") + ").")
    if "ids_final" in s.columns and ids:
        with_ids = s.filter(pl.col("ids_final") > 0)
        total = int(s["ids_final"].sum() or 0)
        safe = int(s["final_ids_safe_both"].sum() or 0) if "final_ids_safe_both" in s.columns \
            else None
        if total == 0:
            facts.append(f"No event had an intentional draw in the last round "
                         f"(of {s.height}).")
        else:
            facts.append(f"{with_ids.height} of {s.height} events had intentional draws in "
                         f"the last round ({total} in all"
                         + (f", {safe} of them safe for both players)." if safe is not None
                            else ")."))
        if "cf_cut_points_mean" in s.columns and with_ids.height:
            shift = with_ids.filter(pl.col("cf_cut_points_mean").is_not_null()).select(
                (pl.col("cut_points") - pl.col("cf_cut_points_mean")).mean()).item()
            if shift is not None:
                facts.append(f"Where they happened, the draws moved place {n} by "
                             f"{shift:+.1f} points on average against the same events with "
                             "the draws played out (simulated).")
    if "variants_changing" in s.columns:
        ch = s.filter(pl.col("variants_changing") > 0).height
        facts.append(f"Some tiebreaker variant changes the top {n} in {ch} of {s.height} "
                     "events." if ch else f"No tiebreaker variant changes the top {n} in any "
                     f"of the {s.height} events.")
    blocks.append("<ul class=\"facts lede\">" + "".join(f"<li>{f}</li>" for f in facts)
                  + "</ul>")
    counter = iter(range(1, 1000))

    def add(make: Any, name: str, caption: str) -> str:
        try:
            spec = _spec(make())
        except SwissframeError as exc:
            return f'<p class="note">(chart not drawn: {escape(str(exc).splitlines()[0])})</p>'
        return chart_block(f"chart-{next(counter)}", spec, name, caption)

    if not cut.height and few:
        facts.append(f"No event has more than {n} players: there is no line to compare.")
    # (no cut stated: the charts' words are place N's too)
    chart_rules = (one_rules if rep.stated or one_rules is None
                   else dataclasses.replace(one_rules, playoff=False))
    if rep.ids is not None and cut.height:
        field_t = cut.select("event_id", pl.col("players").cast(pl.Int64))
        lines_ids = rep.ids.join(field_t.select("event_id"), on="event_id", how="semi")
        blocks.append(f"<h2>{words.lines_heading}</h2>")
        has_cf = ("cf_cut_points_mean" in rep.ids.columns
                  and rep.ids["cf_cut_points_mean"].drop_nulls().len() > 0)
        caption = ("One dot per event"
                   + ("; orange: intentional draws in the last round" if ids else "")
                   + (f"; the grey tick is {words.the_cut_line} with them played out "
                      "(simulated)."
                      if has_cf else "."))
        blocks.append(add(lambda: _cut_lines(lines_ids, field_t, n, chart_rules),
                          "season-cut-lines", caption + (
                              f" Left out: {count(few, 'event')} of {n} players or fewer "
                              "(no line)." if few else "")))
    if rep.sensitivity is not None:
        sens = rep.sensitivity
        base = sens.group_by("event_id", maintain_order=True).agg(pl.col("ruleset").first())
        alt = sens.join(base.rename({"ruleset": "_b"}), on="event_id").filter(
            pl.col("ruleset") != pl.col("_b"))
        per = (alt.group_by("ruleset", "_b", maintain_order=True)
               .agg(events=pl.len(), changed=(pl.col("entering").list.len() > 0).sum(),
                    swapped=pl.col("entering").list.len().sum()))
        t = Table([("Variant", "l"), ("Events", ""), (f"Top {n} changed", ""), ("Share", ""),
                   ("Players swapped", "")], sortable=True)
        for r in per.iter_rows(named=True):
            share = r["changed"] / r["events"] if r["events"] else 0.0
            t.add([(escape(variant_label(r["ruleset"], r["_b"])), None, "l"),
                   str(r["events"]), str(r["changed"]), (f"{share:.0%}", share, ""),
                   str(r["swapped"])])
        blocks.append(f"<h2>How often each variant changes the top {n}</h2>{t.html()}")
        names = {m.event_id: m.name for m in rep.metas}
        if len(set(names.values())) == len(names):
            shown = sens.with_columns(pl.col("event_id").replace(names))
        else:
            shown = sens
        if alt.filter(pl.col("entering").list.len() > 0).height:
            # (the page's N and words: without them the chart said "the top cut" of a
            # season whose files hold no playoff, under "showing the top 8 places")
            blocks.append(add(lambda: charts.chart_sensitivity(
                shown, only_changed=True, top=n, rules=chart_rules),
                "season-sensitivity", f"Events in which some variant changes the top {n}."))
    t = Table([("Date", "l"), ("Event", "l"), ("Players", ""), ("Rounds", ""),
               (f"Place {n} points", ""), ("Decided by", "l"),
               *([("IDs (last round)", "")] if ids else []),
               (f"Variants changing the top {n}", "")], sortable=True, scroll=s.height > 30)
    for r in s.sort("date", "name", nulls_last=True).iter_rows(named=True):
        label = escape(r["name"] or r["event_id"])
        if links and r["event_id"] in links:
            label = f'<a href="{escape(links[r["event_id"]])}">{label}</a>'
        t.add([(escape(str(r["date"] or "")), str(r["date"] or ""), "l"), (label, None, "l wrap"),
               str(r["players"]), _num(r.get("rounds")), _num(r.get("cut_points")),
               (escape(r.get("decided_by") or "–"), None, "l"),
               *([_num(r.get("ids_final"))] if ids else []),
               (f"{_num(r.get('variants_changing'))} of {_num(r.get('variants'))}"
                if r.get("variants") else "–", r.get("variants_changing"), "")])
    blocks.append(f"<h2>Events</h2>{t.html()}")
    rules_text = "; ".join(
        f"{name}: " + " → ".join(criterion_label(c.name, rs) for c in rs.criteria)
        for name, rs in ((r.name, r) for r in used))
    blocks.append(f'<footer class="note">Computed by swissframe {escape(sf.__version__)}. '
                  f"Rulesets: {escape(rules_text)}. Every chart offers PNG / SVG download "
                  "from its ⋯ menu. The page works offline.</footer>")
    return page(rep.title, "".join(blocks))


def _months(first: dt.date, last: dt.date) -> str:
    """``, Oct 2025`` for one month, ``, Oct 2025 – Jan 2026`` for a span.

    >>> import datetime as dt
    >>> _months(dt.date(2025, 10, 4), dt.date(2025, 10, 25)), _months(
    ...     dt.date(2025, 10, 4), dt.date(2026, 1, 2))
    (', Oct 2025', ', Oct 2025 – Jan 2026')
    """
    one, two = f"{first:%b %Y}", f"{last:%b %Y}"
    return f", {one}" if one == two else f", {one} – {two}"
