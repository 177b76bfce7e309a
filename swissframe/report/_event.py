"""One event's report: the numbers (computed once, with the public API) and the page."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Final

import polars as pl

import swissframe as sf
from swissframe import charts
from swissframe._display import count
from swissframe.compare import (
    PERCENT_CRITERIA,
    Comparison,
    compare,
    criterion_label,
    criterion_unit,
    difference_text,
    format_value,
    knows_intentional_draws,
    ordinal,
    with_unit,
)
from swissframe.cut._round import absent_players
from swissframe.cut._status import status_words
from swissframe.cut._words import (
    BOTH_SAFE,
    absence_notes,
    advice_words,
    cut_words,
    draw_forms,
    draw_word,
    reads_games,
    top_of,
    top_words,
)
from swissframe.engine.tiebreakers import drawn_by_lot
from swissframe.errors import DataError, SwissframeError
from swissframe.report._html import Table, chart_block, page, slug
from swissframe.rules import Ruleset
from swissframe.schema import DISQUALIFIED, swiss_part
from swissframe.sensitivity import variant_label

__all__ = ["EventMeta", "EventReport", "build_event"]


@dataclass(frozen=True)
class EventMeta:
    """What the page says about an event besides its results."""

    event_id: str
    name: str
    rules: Ruleset
    why: str
    date: dt.date | None = None
    format: str | None = None
    source: str | None = None
    details: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)


@dataclass
class EventReport:
    """One event's report: ``.html`` (the page), ``.save(path)``, ``_repr_html_``.

    The computed tables are kept as attributes (``standings``, ``comparison``, ``status``,
    ``advice``, ``sensitivity`` …) so a writer can lift any number behind a sentence.
    """

    meta: EventMeta
    top: int
    standings: pl.DataFrame
    by_round: pl.DataFrame
    comparison: Comparison | None
    last_round: int
    prior: pl.DataFrame | None = None
    status: pl.DataFrame | None = None
    advice: pl.DataFrame | None = None
    ranges: pl.DataFrame | None = None
    ids: Any = None
    final_round: pl.DataFrame | None = None
    sensitivity: pl.DataFrame | None = None
    problems: dict[str, str] = field(default_factory=dict)
    id_sims: int = 0
    season_link: str | None = None
    #: Who has no seat in the last Swiss round, and why (cut._round.absent_players): a
    #: player who did not make day 2 is not a drop
    absent: pl.DataFrame | None = None

    # ---------------------------------------------------------------- output
    @property
    def html(self) -> str:
        """The whole self-contained page."""
        return render(self)

    def save(self, path: str | Any) -> Any:
        """Write the page to ``path`` (a ``.html`` file, or a folder: its ``index.html``, as
        a season's front page); returns the file written."""
        from pathlib import Path

        from swissframe.io._files import local_path, names_a_folder, write_text_atomic

        path = local_path(path, what="save: the report's file")  # (bad data 244)
        check_page_path(path)
        html = self.html  # (rendered before the file is opened: an error leaves no file)
        # (a folder was an IsADirectoryError naming a temporary file)
        return write_text_atomic(Path(path) / "index.html" if names_a_folder(path) else path,
                                 html)

    def _repr_html_(self) -> str:
        from swissframe.report._notebook import iframe

        return iframe(self.html)

    def __str__(self) -> str:
        return f"event report: {self.meta.name} ({self.standings.height} players)"

    def __repr__(self) -> str:
        """A one-line summary: the dataclass's own repr printed every table and the
        ruleset, 20 KB for an event of 9 players (bad data 246)."""
        from swissframe._display import quoted, summary_text

        return summary_text("EventReport", [
            quoted(self.meta.name), count(self.standings.height, "player"),
            f"rules {self.meta.rules.name}", f"top {self.top}"],
            ["html", "save(path)", "standings", "by_round", "comparison", "status",
             "advice", "sensitivity"])

    # ---------------------------------------------------------------- helpers
    def name(self, pid: str) -> str:
        """The display name of a player id."""
        return self.meta.names.get(pid, pid)


#: The suffixes of a page's file (any other name of a report's output is a folder).
PAGE_SUFFIXES: Final = (".html", ".htm")


def check_page_path(path: object) -> None:
    """A :class:`DataError` for an output of a report (a page, or a season's folder) named
    with a suffix other than ``.html``/``.htm`` (``page.png``, ``standings.csv``): the
    command line refused it, and ``EventReport.save``/``SeasonReport.save`` wrote the page
    (or a folder of pages) under that name without a word (bad data 224). A folder that
    exists, or a name ending in a separator, is a folder whatever its name."""
    import os
    from pathlib import Path

    from swissframe.io._files import names_a_folder

    text = os.fspath(path)  # type: ignore[call-overload]
    p = Path(text)  # (the text tested as a folder: Path drops a trailing separator)
    if p.suffix and p.suffix.lower() not in PAGE_SUFFIXES and not names_a_folder(text):
        msg = (f"cannot write a report to {p.name!r}: unknown suffix {p.suffix!r}. Hint: "
               "use a .html file, or a folder name (no suffix) for a season.")
        raise DataError(msg)


# ------------------------------------------------------------------------------ building


def _try(problems: dict[str, str], key: str, fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except SwissframeError as exc:
        problems[key] = str(exc).splitlines()[0]
        return None


def _positions(st: pl.DataFrame) -> pl.DataFrame:
    # (a disqualified player has no rank: listed after everyone, out of every cut)
    return st.sort("rank", "player_id", nulls_last=True).with_columns(
        position=pl.int_range(1, pl.len() + 1, dtype=pl.Int64))


def build_event(results: pl.DataFrame, meta: EventMeta, *, top: int | None = None,
                n_sims: int = 100, seed: int | None = 0,
                variants: Sequence[str | Ruleset] | None = None) -> EventReport:
    """Compute every table of one event's page (``results``: that event's rows only;
    ``top`` None: the event's own playoff where its rows hold one, else
    :data:`~swissframe.cut._words.DEFAULT_TOP`)."""
    n, stated = top_of(results, top)  # (the file's playoff read once: named, then used)
    said = f"top {n} playoff"  # (as the decklist importer's details say it)
    if top is None and stated and said not in meta.details:
        meta = dataclasses.replace(meta, details=(*meta.details, said))
    # neither the caller nor the file gives a cut: the top places, in their words
    top, words_rules, note = top_words(n, stated, meta.rules)
    if note is not None:
        meta = dataclasses.replace(meta, rules=words_rules, details=(*meta.details, note))
    rs = meta.rules
    swiss = swiss_part(results)
    st = _positions(sf.standings(swiss, rs))
    by_round: pl.DataFrame = sf.standings_by_round(swiss, rs)  # type: ignore[assignment]
    last = int(swiss["round"].max() or 0)  # type: ignore[arg-type]
    problems: dict[str, str] = {}
    comparison = None
    if st.height > top:
        a = st.filter(pl.col("position") == top)["player_id"][0]
        b = st.filter(pl.col("position") == top + 1)["player_id"][0]
        comparison = _try(problems, "cut", lambda: compare(swiss, a, b, rules=rs))
    rep = EventReport(meta, top, st, by_round, comparison, last, problems=problems)
    if last >= 2:
        rep.absent = absent_players(swiss.filter(pl.col("round") < last),
                                    swiss.filter(pl.col("round") == last))
    if last >= 2 and st.height > top:
        prior = swiss.filter(pl.col("round") < last)
        final = swiss.filter(pl.col("round") == last)
        # (a player disqualified in the last round: out of every scenario, as swissframe
        # cut reads the round's rows)
        pairs = final.select("event_id", "round", "player_id", "opponent_id",
                             *(c for c in (DISQUALIFIED,) if c in final.columns))
        rep.prior = sf.standings(prior, rs)
        # (flagged as the "what the IDs did" section flags them: sf.id_report's rule)
        rep.final_round = sf.detect_intentional_draws(final)
        rep.status = _try(problems, "status", lambda: sf.cut_status(
            prior, pairs, top, rs, n_sims=n_sims, seed=seed))
        if rep.status is not None:
            rep.advice = _try(problems, "advice", lambda: sf.id_advice(
                prior, pairs, top, rs, status=rep.status))
        rep.ranges = _try(problems, "ranges", lambda: sf.next_round_ranges(prior, pairs, rs))
        rep.id_sims = max(n_sims // 2, 10)
        rep.ids = _try(problems, "ids", lambda: sf.id_report(
            swiss, top, rs, n_sims=rep.id_sims, seed=seed))
    sets = list(variants) if variants is not None else None
    rep.sensitivity = _try(problems, "sensitivity", lambda: sf.sensitivity(
        swiss, sets if sets is not None else sf.standard_variants(rs), top=top))
    return rep


# ------------------------------------------------------------------------------ prose


def _record(row: Mapping[str, Any]) -> str:
    return f"{row['wins']}–{row['losses']}–{row['draws']}"


def _pts(x: object) -> str:
    return format_value("match_points", x)


def _header(rep: EventReport) -> str:
    m, st = rep.meta, rep.standings
    bits = []
    if m.date:
        bits.append(f"<b>{m.date:%-d %B %Y}</b>" if isinstance(m.date, dt.date)
                    else f"<b>{escape(str(m.date))}</b>")
    if m.format:
        bits.append(escape(m.format))
    bits.append(f"<b>{st.height:,}</b> players")
    bits.append(f"<b>{rep.last_round}</b> Swiss rounds")
    bits.extend(escape(d) for d in m.details)
    if m.source:
        bits.append(f"source: {escape(m.source)}")
    crit = " → ".join(criterion_label(c.name, m.rules)
                      + ("" if c.descending else " (lower first)")
                      for c in rep.meta.rules.criteria)
    rules = (f"Ranked by <b>{escape(m.rules.name)}</b>: {escape(crit)}. "
             f"{escape(m.why)}")
    back = (f'<p class="meta"><a href="{escape(rep.season_link)}">← all events</a></p>'
            if rep.season_link else "")
    return (f'{back}<header class="top"><div class="kicker">Event report</div>'
            f"<h1>{escape(m.name)}</h1><div class=\"meta\">{' · '.join(bits)}</div>"
            f'<div class="meta">{rules}</div></header>')


def _lede(rep: EventReport) -> str:
    st = rep.standings
    first = st.row(0, named=True)
    ties = st.filter(pl.col("rank") == 1).height
    name = escape(rep.name(first["player_id"]))
    if ties > 1:
        s = (f"{count(ties, 'player')} share first place after {rep.last_round} rounds "
             f"on {_pts(first['match_points'])} points.")
    else:
        level = st.filter(pl.col("match_points") == first["match_points"]).height - 1
        s = (f"<b>{name}</b> topped the Swiss at {_record(first)} "
             f"({_pts(first['match_points'])} points)"
             + (f", ahead of {count(level, 'other player')} on the same points on "
                "tiebreakers." if level else "."))
    if st.height > rep.top:
        s += " " + _cut_points_sentence(rep)
    return f'<p class="lede">{s}</p>'


def _cut_points_sentence(rep: EventReport) -> str:
    st, n = rep.standings, rep.top
    pts = st.filter(pl.col("position") == n)["match_points"][0]
    above = st.filter(pl.col("match_points") > pts).height
    group = st.filter(pl.col("match_points") == pts)
    made = group.filter(pl.col("position") <= n).height
    words = cut_words(rep.meta.rules, n)
    s = f"{words.fell} at {_pts(pts)} points"
    if made == group.height:
        nxt = st.filter(pl.col("position") == n + 1)["match_points"][0]
        return s + (f": every player on {_pts(pts)} or more made it; the best below had "
                    f"{_pts(nxt)}.")
    tail = f"{made} of the {group.height} players on {_pts(pts)}"
    if above:
        who = ("the player above" if above == 1 else "both players above" if above == 2
               else f"all {above} players above")
        return s + f": {who} made it, and {tail} did."
    return s + f": {tail} made it."


def _cut_section(rep: EventReport) -> str:
    words = cut_words(rep.meta.rules, rep.top)
    if rep.standings.height <= rep.top:
        return (f"<h2>{words.heading}</h2><p>All {rep.standings.height} players fit in "
                f"{words.name}; there is no line to explain.</p>")
    c = rep.comparison
    if c is None:
        return (f"<h2>{words.heading}</h2>"
                f"<p class=\"note\">{escape(rep.problems.get('cut', ''))}</p>")
    names = dict(rep.meta.names)
    if c.tied:
        lead = (f"{ordinal(rep.top)} and {ordinal(rep.top + 1)} place are <b>exactly tied</b> "
                f"on every criterion of {escape(c.ruleset)}: the standings alone cannot "
                "separate them (the event's own tie-break or a random draw decided).")
    else:
        lead = f"<b>{escape(c.describe(names))}</b>"
        # (no margin for an order drawn by lot: Comparison.margin is None there)
        if c.criterion != "match_points" and c.margin is not None:
            gap = (f"{100 * c.margin:.2f} percentage points" if c.criterion in PERCENT_CRITERIA
                   else format_value(c.criterion or "", c.margin))
            lead += (f" The margin on {escape(with_unit(c.label or '', c.unit))} was {gap}: "
                     "everything above it in the ruleset's order was level.")
    t = Table([("Criterion", "l"), (rep.name(c.player_a), ""), (rep.name(c.player_b), ""),
               ("Difference", "")])
    for r in c.table.iter_rows(named=True):
        diff = r["difference"]
        dtext = difference_text(r["criterion"], diff)
        if r["lot"]:
            dtext = "ahead" if diff and diff > 0 else "behind" if diff else ""
        t.add([(escape(with_unit(r["label"], r["unit"])), None, "l"),
               _cell(r["criterion"], {r["criterion"]: r["value_a"]}, 4, lot=r["lot"]),
               _cell(r["criterion"], {r["criterion"]: r["value_b"]}, 4, lot=r["lot"]),
               dtext if r["decided"] or diff else "="],
              "in-cut" if r["decided"] else "")
    note = ('<p class="note">Criteria in the ruleset\'s order; the highlighted row decided. '
            "Ties are exact (equal rationals), not rounded.</p>")
    return (f"<h2>{words.heading}</h2><div class=\"callout\">{lead}</div>{t.html()}{note}")


def _cell(c: str, row: Mapping[str, Any], decimals: int = 2, *, lot: bool = False) -> str:
    if lot:  # a seeded random key: its order is what counts, not its digits
        return '<span class="tag">seeded</span>'
    return format_value(c, row[c], decimals)


def _standings_section(rep: EventReport) -> str:
    st, rs = rep.standings, rep.meta.rules
    crit = [c.name for c in rs.criteria if c.name != "match_points"]
    crit = [c for c in crit if c in st.columns]
    lots = {c.name for c in rs.criteria if drawn_by_lot(c.function)}
    has_names = bool(rep.meta.names)
    header: list[tuple[str, str]] = [("Rank", ""), ("Player", "l")]
    if has_names:
        header.append(("ID", "l"))
    header += [("Points", ""), (f"W–L–{draw_word(rs)[:1].upper()}", ""),
               *[(criterion_label(c, rs), "") for c in crit],
               ("Note", "l")]
    # (one reading of who left: a day-2 cut is not a drop, whatever the ruleset's snapshot)
    missed = ({} if rep.absent is None else
              dict(absence_notes(rep.absent.filter(pl.col("absent") == "missed_stage"))
                   .select("player_id", "note").iter_rows()))
    t = Table(header, sortable=True, scroll=st.height > 40, table_id="standings")
    for r in st.iter_rows(named=True):
        cls = []
        if r["position"] <= rep.top and r["rank"] is not None:
            cls.append("in-cut")
        if r["position"] == rep.top and st.height > rep.top:
            cls.append("cut-line")
        note = []
        if r.get(DISQUALIFIED):
            note.append("disqualified")
        elif r["player_id"] in missed:
            note.append(missed[r["player_id"]])
        elif r["dropped"]:
            note.append("dropped")
        if r["byes"]:
            note.append(count(int(r["byes"]), "bye"))
        cells: list[tuple[str, object, str] | str] = [
            ("—" if r["rank"] is None else str(r["rank"]), r["position"], ""),
            (escape(rep.name(r["player_id"])), None, "l")]
        if has_names:
            cells.append((escape(r["player_id"]), None, "l tag"))
        cells += [(_pts(r["match_points"]), r["match_points"], ""),
                  (_record(r), r["wins"] * 1000 + r["draws"], "")]
        cells += [(_cell(c, r, lot=c in lots), "" if r[c] is None else r[c], "")
                  for c in crit]
        cells.append((", ".join(note), None, "l tag"))
        t.add(cells, " ".join(cls))
    # what a column's number counts where its heading does not say it (chess' direct
    # encounter: tied players, not points; Criterion.unit)
    units = "".join(f" {criterion_label(c, rs).capitalize()}: {escape(unit)}."
                    for c in crit if (unit := criterion_unit(c, rs)))
    exact = ("Percentages to two decimals; the ranking compares exact values."
             if any(c in PERCENT_CRITERIA for c in crit)
             else "The ranking compares exact values.")
    hint = (f'<p class="note">Click a column to sort. Shaded: the top {rep.top}; '
            f"players equal on every criterion share a rank.{units} {exact}</p>")
    return f"<h2>Final standings</h2>{hint}{t.html()}"


def _display(df: pl.DataFrame, names: Mapping[str, str], cols: Sequence[str]) -> pl.DataFrame:
    """Player ids replaced by display names (when names are unique) for the charts."""
    if not names or len(set(names.values())) != len(names):
        return df
    out = df
    for c in cols:
        if c in out.columns:
            out = out.with_columns(pl.col(c).replace(dict(names)))
    return out


def _spec(chart: Any) -> dict[str, Any]:
    spec: dict[str, Any] = chart.to_dict(validate=False)  # swissframe.charts tests them
    theme = charts.theme_config()["config"]
    spec["config"] = {**theme, **spec.get("config", {})}
    return spec


def _charts_section(rep: EventReport, add: Callable[[str, Any, str, str], str]) -> str:
    names, n = rep.meta.names, rep.top
    out = ["<h2>How the standings were made</h2>"]
    st = _display(rep.standings, names, ["player_id"])
    out.append(add("standings", lambda: charts.chart_standings(
        st, top=min(32, st.height), cut=n if st.height > n else None, rules=rep.meta.rules,
        title=f"{rep.meta.name}: the top {min(32, st.height)}"),
        "standings", f"{criterion_label('match_points', rep.meta.rules).capitalize()} (bars) "
        "and tiebreakers (dots) of the top of the table."))
    br = _display(rep.by_round, names, ["player_id"])
    out.append(add("race", lambda: charts.chart_standings_race(
        br, top=min(n, st.height), rules=rep.meta.rules,
        title=f"{rep.meta.name}: the race to the top {n}"),
        "race", f"Where the final top {n} stood after each round."))
    return "".join(out)


def _chips(counts: Mapping[str, int]) -> str:
    cls = {"guaranteed": "g", "possible": "p", "eliminated": "e"}
    return "".join(f'<span class="chip {cls[k]}" title="{k}">{v}</span>'
                   for k, v in counts.items() if v)


def _before_last_section(rep: EventReport, add: Callable[[str, Any, str, str], str]) -> str:
    if rep.status is None or rep.prior is None:
        why = rep.problems.get("status", "the event has a single round" if rep.last_round < 2
                               else f"all players fit in the top {rep.top}")
        return (f"<h2>Before the last round</h2><p class=\"note\">Not available: "
                f"{escape(why)}</p>")
    n, r = rep.top, rep.last_round
    st = rep.status.filter(pl.col("outcome").is_in(["win", "draw", "loss"]))
    wide = st.pivot(on="outcome", index="player_id", values="status",
                    aggregate_function="first")
    for o in ("win", "draw", "loss"):
        if o not in wide.columns:
            wide = wide.with_columns(pl.lit(None, dtype=pl.String).alias(o))
    g = pl.lit("guaranteed")
    locked = wide.filter(pl.col("loss") == g).height
    draw_in = wide.filter((pl.col("draw") == g) & (pl.col("loss") != g)).height
    win_in = wide.filter((pl.col("win") == g) & (pl.col("draw") != g)).height
    alive = wide.filter(pl.any_horizontal(pl.col("win", "draw", "loss") == "possible")
                        & (pl.col("win") != g)).height
    parts = []
    if locked:
        parts.append(f"{count(locked, 'player was', 'players were')} in the top {n} "
                     "whatever happened")
    if draw_in:
        # (a game of intentional draws "draws in"; in chess a draw is a result like a win)
        parts.append(f"{draw_in} {'more ' if locked else ''}could {draw_word(rep.meta.rules)} in"
                     if knows_intentional_draws(rep.meta.rules) else
                     f"{draw_in} more {'was' if draw_in == 1 else 'were'} in with a draw"
                     if locked else
                     f"{draw_in} {'was' if draw_in == 1 else 'were'} in with a draw")
    if win_in:
        parts.append(f"{win_in} {'was' if win_in == 1 else 'were'} in with a win")
    if alive:
        parts.append(f"{alive} {'other' if alive == 1 else 'others'} still needed help "
                     "from other tables")
    lead = (f"Going into round {r}, " + (", ".join(parts[:-1]) + " and " + parts[-1]
                                         if len(parts) > 1 else (parts[0] if parts else
                                         "no one was decided yet")) + ".")
    exact_all = bool(rep.status["exact"].all())
    note = ("Statuses are proved (guaranteed / eliminated against every result of every "
            "other match)" + ("." if exact_all else
                              "; probabilities of the undecided ones are simulated."))
    out = [f"<h2>Before the last round</h2><p>{lead}</p><p class=\"note\">{note}</p>"]
    # per points group
    pts = rep.prior.select("player_id", pl.col("match_points").alias("before"))
    grp = st.join(pts, on="player_id", how="left")
    alive_pts = grp.filter(pl.col("status") != "eliminated")["before"]
    if alive_pts.len():
        lo = alive_pts.min()
        below = grp.filter(pl.col("before") < lo)["before"].max()
        floor = below if below is not None else lo
        grp = grp.filter(pl.col("before") >= floor)
    t = Table([("Points before", ""), ("Players", ""), ("If they win", "l"),
               (f"If they {draw_word(rep.meta.rules)}", "l"), ("If they lose", "l")])
    order = ("guaranteed", "possible", "eliminated")
    for (p,), sub in sorted(grp.group_by("before"), key=lambda kv: -float(kv[0][0] or 0)):
        players = sub["player_id"].n_unique()
        cells: list[tuple[str, object, str] | str] = [_pts(p), str(players)]
        for o in ("win", "draw", "loss"):
            s = sub.filter(pl.col("outcome") == o)
            counts = {k: s.filter(pl.col("status") == k).height for k in order}
            cells.append((_chips(counts), None, "l"))
        t.add(cells)
    out.append(f"<h3>{cut_words(rep.meta.rules, n).status} by points group</h3>")
    out.append('<p class="note">Players per status: <span class="chip g">in</span> '
               'guaranteed, <span class="chip p">?</span> possible, '
               '<span class="chip e">out</span> eliminated.</p>')
    out.append(t.html())
    names = rep.meta.names
    status_d = _display(rep.status, names, ["player_id"])
    prior_d = _display(rep.prior, names, ["player_id"])
    out.append(add("cut-status", lambda: charts.chart_cut_status(
        status_d, prior_d, top=n, rules=rep.meta.rules,
        title=f"{rep.meta.name}: who could make the top {n} before round {r}",
        round_analysed=r),
        "cut-status", ""))
    if rep.ranges is not None and "omwp" in {c.name for c in rep.meta.rules.criteria}:
        bubble = (wide.filter(pl.any_horizontal(pl.col("win", "draw", "loss") == "possible"))
                  ["player_id"].to_list())
        bubble = rep.prior.filter(pl.col("player_id").is_in(bubble)).sort(
            "rank", nulls_last=True)[
            "player_id"].to_list()[:24]
        ranges_d = _display(rep.ranges, names, ["player_id"])
        shown = [names.get(p, p) for p in bubble] if ranges_d is not rep.ranges else bubble
        out.append("<h3>The bubble: OMW% ranges after the last round</h3>")
        if not bubble:
            out.append(f"<p>No one was on the bubble: every player's place relative to the "
                       f"top {n} was settled by their own result.</p>")
        else:
            out.append(add("omw-ranges", lambda: charts.chart_omw_ranges(
                ranges_d, prior_d, players=shown, rules=rep.meta.rules,
                title=f"{rep.meta.name}: OMW% of the bubble after round {r}",
                round_analysed=r),
                "omw-ranges", "Exact minimum and maximum OMW% each bubble player could "
                "finish with, per own result; the diamond is the OMW% going in."))
    out.append(_advice_section(rep))
    out.append(_ids_section(rep))
    return "".join(out)


def _result_text(final: pl.DataFrame, a: str, b: str, names: Callable[[str], str],
                 rules: Ruleset | None = None) -> str:
    """A table's result in the ruleset's terms: a game score where its tiebreakers read
    games (``X 2–1``), else who won (``X won``: Pokémon, chess)."""
    if "intentional_draw" not in final.columns:  # (build_event flags the round once)
        final = sf.detect_intentional_draws(final)
    row = final.filter((pl.col("player_id") == a) & (pl.col("opponent_id") == b))
    if row.height == 0:
        return "–"
    w, lo, d = row["games_won"][0], row["games_lost"][0], row["games_drawn"][0]
    if w == lo:
        if row["intentional_draw"][0]:  # as the "what the IDs did" section (sf.id_report)
            return "ID"
        if w == 0 and not d:
            return "unreported"
        word = draw_word(rules)  # (Pokémon: a tie)
        return word if w + lo + d <= 1 else f"{word} {w}–{lo}–{d}"  # (chess: one game)
    who = names(a) if w > lo else names(b)
    if not reads_games(rules):
        return f"{escape(who)} won"
    return f"{escape(who)} {max(w, lo)}–{min(w, lo)}"


def _draw_words(status: pl.DataFrame | None) -> Callable[[str], str]:
    """Each player's status after a draw in words, as the command line says it
    (:func:`~swissframe.cut._status.status_words`, with the status' ``exact`` flag: a
    simulated share that rounds to 100% is "possible, ~100%", not a certainty)."""
    rows = ({} if status is None else
            {r["player_id"]: (r["status"], r["probability"], r["exact"])
             for r in status.filter(pl.col("outcome") == "draw").iter_rows(named=True)})

    def words(pid: str) -> str:
        return status_words(*rows[pid]) if pid in rows else "–"

    return words


def _advice_section(rep: EventReport) -> str:
    adv = rep.advice
    if adv is None or adv.height == 0:
        return ""
    def open_(seat: str) -> pl.Expr:  # the seat's result changes its status, or it is open
        w, d, lo = (pl.col(f"{seat}_{o}") for o in ("win", "draw", "loss"))
        return ((w != d) | (d != lo) | (w == "possible") | (d == "possible")
                | (lo == "possible")).fill_null(value=False)

    # a game where a draw is half a win (chess) has draws, but no intentional draw that its
    # results could tell from a played one (compare.knows_intentional_draws)
    ids = knows_intentional_draws(rep.meta.rules)
    title = "Intentional-draw advice" if ids else "Draw advice"
    matter = adv.filter(open_("a") | open_("b"))
    if matter.height == 0:
        return (f"<h3>{title}</h3><p>No table of round {rep.last_round} could "
                f"change the top {rep.top}: every player's status was settled whatever the "
                "results.</p>")
    pts = {} if rep.prior is None else dict(zip(rep.prior["player_id"].to_list(),
                                                rep.prior["match_points"].to_list(),
                                                strict=True))
    word, _, drawing_ = draw_forms(rep.meta.rules)
    t = Table([("Table", ""), ("Player A", "l"), ("Player B", "l"), (f"A if {drawing_}", "l"),
               (f"B if {drawing_}", "l"), ("Advice", "l"), ("What happened", "l")])
    ids_taken = 0
    safe_both = 0
    final = rep.final_round if rep.final_round is not None else pl.DataFrame()
    drawing = _draw_words(rep.status)
    for r in matter.iter_rows(named=True):
        a, b = r["player_a"], r["player_b"]
        res = _result_text(final, a, b, rep.name, rep.meta.rules) if final.height else "–"
        if res == "ID":
            ids_taken += 1
            safe_both += r["advice"] == BOTH_SAFE
        t.add([str(r["table"]),
               (f"{escape(rep.name(a))} <span class=\"tag\">{_pts(pts.get(a))}</span>", None, "l"),
               (f"{escape(rep.name(b))} <span class=\"tag\">{_pts(pts.get(b))}</span>", None, "l"),
               (drawing(a), None, "l"), (drawing(b), None, "l"),
               (escape(advice_words(r["advice"], rep.meta.rules, rep.top)), None, "l"),
               (res, None, "l")])
    both = matter.filter(pl.col("advice") == BOTH_SAFE).height
    words = cut_words(rep.meta.rules, rep.top)
    lead = (f"{count(matter.height, 'table')} of round {rep.last_round} mattered for "
            f"{words.name} (a result there could change who "
            "made it). "
            + ((f"At {both} of them both players could {word} in" if both else
                f"At none of them could both players {word} in") if ids else
               (f"At {both} of them a {word} kept both players {words.inside}" if both else
                f"At none of them did a {word} keep both players {words.inside}")))
    if final.height and ids:
        lead += ("; none of them drew intentionally." if not ids_taken else
                 f"; {ids_taken} of them drew intentionally"
                 f" ({safe_both} safe for both players).")
    else:
        lead += "."
    return f"<h3>{title}, table by table</h3><p>{lead}</p>{t.html()}"


def _ids_section(rep: EventReport) -> str:
    ids = rep.ids
    if ids is None or ids.events.height == 0 or not knows_intentional_draws(rep.meta.rules):
        return ""
    e = ids.events.row(0, named=True)
    k = int(e["ids_final"] or 0)
    if k == 0:
        return (f"<h3>What the intentional draws did</h3><p>No intentional draw in round "
                f"{rep.last_round}.</p>")
    safe = e.get("final_ids_safe_both")
    s = f"{count(k, 'intentional draw')} in round {rep.last_round}"
    if safe is not None:
        s += ("; it was safe for both players when agreed" if k == 1 and safe else
              "; it was not safe for both players when agreed" if k == 1 else
              f"; {safe} of them {'was' if safe == 1 else 'were'} safe for both players "
              "when agreed")
    s += "."
    cf = e.get("cf_cut_points_mean")
    if cf is not None:
        them = "it" if k == 1 else "they"
        played = ("a random 2–0, 2–1, 1–2 or 0–2" if reads_games(rep.meta.rules)
                  else "a random win for either player")
        s += (f" Had {them} been played out ({rep.id_sims} simulations, each draw replaced by "
              f"{played}), place {rep.top} would average {cf:.1f} points "
              f"against the real {_pts(e['match_points_n'])}, and the top-{rep.top} set would "
              f"differ in {100 * float(e['cf_topn_changed_share'] or 0):.0f}% of the "
              "simulations.")
    return f"<h3>What the intentional draws did</h3><p>{s}</p>"


def _sensitivity_section(rep: EventReport, add: Callable[[str, Any, str, str], str]) -> str:
    sens = rep.sensitivity
    heading = f"<h2>Would other tiebreakers change the top {rep.top}?</h2>"
    if sens is None:
        return (f"{heading}<p class=\"note\">"
                f"{escape(rep.problems.get('sensitivity', 'not available'))}</p>")
    if sens.is_empty():  # (no player ranked: every one disqualified; an IndexError: 207)
        return (f"{heading}<p class=\"note\">No player is ranked (every player was "
                "disqualified): no ruleset orders anyone.</p>")
    base = sens["ruleset"][0]
    alt = sens.slice(1)
    changed = alt.filter(pl.col("entering").list.len() > 0)
    n = rep.top
    if alt.height == 0:
        return ""
    if changed.height == 0:
        which = ("The rule variant below does not change" if alt.height == 1
                 else f"None of the {alt.height} rule variants below changes")
        what = cut_words(rep.meta.rules, n).it
        lead = f"{which} who makes the top {n}: {what} is robust to these choices."
    else:
        lead = ("The rule variant below changes the top " if alt.height == 1 else
                f"{changed.height} of the {alt.height} rule variants below "
                f"change{'s' if changed.height == 1 else ''} the top ") + f"{n}."
        first = changed.row(0, named=True)
        ent = ", ".join(rep.name(p) for p in first["entering"])
        lv = ", ".join(rep.name(p) for p in first["leaving"])
        lead += (f" With {escape(variant_label(first['ruleset'], base))}, "
                 f"{escape(ent)} would enter and {escape(lv)} would leave.")
    t = Table([("Variant", "l"), ("Enters", "l"), ("Leaves", "l"), ("Kendall τ", ""),
               (f"{ordinal(n)} vs {ordinal(n + 1)} decided by", "l")])
    for r in sens.iter_rows(named=True):
        label = "as ranked above" if r["ruleset"] == base else variant_label(r["ruleset"], base)
        crit = r["cut_criterion"]
        t.add([(escape(label), None, "l"),
               (escape(", ".join(rep.name(p) for p in r["entering"])) or "–", None, "l"),
               (escape(", ".join(rep.name(p) for p in r["leaving"])) or "–", None, "l"),
               format_value("kendall_tau", r["kendall_tau"], 3) if r["kendall_tau"] is not None
               else "",
               (escape("exact tie" if crit == "tie"
                       else criterion_label(crit or "–", rep.meta.rules)), None, "l")],
              "in-cut" if r["entering"] else "")
    out = [f"{heading}<p>{lead}</p>", t.html()]
    if changed.height:
        # (the players by their names, as the table above lists them)
        sens_d = sens.with_columns(
            event_id=pl.lit(rep.meta.name),
            **{c: pl.Series(c, [[rep.name(p) for p in ps] for ps in sens[c].to_list()],
                            dtype=pl.List(pl.String)) for c in ("entering", "leaving")})
        out.append(add("sensitivity", lambda: charts.chart_sensitivity(
            sens_d, top=n, rules=rep.meta.rules,
            title=f"{rep.meta.name}: players swapped in the top {n} per variant"),
            "sensitivity", ""))
    out.append('<p class="note">Kendall τ compares the whole ranking with the one above '
               "(1 = identical order).</p>")
    return "".join(out)


def render(rep: EventReport) -> str:
    """The event page."""
    problems = rep.problems
    counter = iter(range(1, 1000))

    def add(key: str, make: Any, name: str, caption: str) -> str:
        try:
            spec = _spec(make())
        except SwissframeError as exc:
            problems[f"chart:{key}"] = str(exc).splitlines()[0]
            return f'<p class="note">(chart not drawn: {escape(problems[f"chart:{key}"])})</p>'
        return chart_block(f"chart-{next(counter)}", spec, f"{slug(rep.meta.event_id)}-{name}",
                           caption)

    body = "".join([
        _header(rep), _lede(rep), _cut_section(rep), _standings_section(rep),
        _charts_section(rep, add), _before_last_section(rep, add),
        _sensitivity_section(rep, add), _footer(rep)])
    return page(f"{rep.meta.name} — event report", body)


def _footer(rep: EventReport) -> str:
    return (f'<footer class="note">Computed by swissframe {escape(sf.__version__)} from the '
            f"round-by-round results ({escape(rep.meta.rules.source or rep.meta.rules.name)})."
            " Every chart offers PNG / SVG download from its ⋯ menu. The page works offline."
            "</footer>")
