"""``swissframe explain FILE --player P``: one player's tiebreakers, as a judge writes them.

One line per round (opponent, result, the opponent's record and the rates that enter the
averages, a mark where the floor, the cap or a bye changed something), the notes behind the
marks, then the arithmetic of each average (``OMW% = (0.7500 + 0.3300 + …) / 4 = 0.5825``),
wrapped to the terminal. ``--format``/``-o`` write :func:`swissframe.explain`'s table instead.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Final, NamedTuple

import polars as pl

from swissframe._display import fill, wrap
from swissframe.cli._common import (
    absence_notes_of,
    add_event,
    add_files,
    add_output,
    add_quiet,
    add_rules,
    add_through_round,
    division_ranks,
    format_cell,
    output_format,
    read_player_event,
    terminal_width,
    text_columns,
    write_frame,
    write_text,
)
from swissframe.compare import column_heading, with_unit
from swissframe.cut._words import draw_forms, outcome_name
from swissframe.engine._chess import vur_first
from swissframe.engine.tiebreakers import drawn_by_lot
from swissframe.rules import Criterion, Ruleset, label_of
from swissframe.schema import DISQUALIFIED

__all__ = ["add_parser", "render", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe explain``.

    Examples
    --------
    >>> from swissframe.cli._common import Parser
    >>> p = Parser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> p.parse_args(["explain", "f.csv", "--player", "Alice"]).player
    'Alice'
    """
    p = subparsers.add_parser(
        "explain", help="one player's tiebreakers, opponent by opponent",
        description="Show how one player's opponent-based tiebreakers were formed (OMW%, "
        "OGW%, OOMW%, Buchholz, Sonneborn-Berger: those of the ruleset): one line per "
        "opponent, the floor/cap/bye notes, and the arithmetic.")
    add_files(p)
    p.add_argument("--player", required=True, metavar="ID",
                   help="the player id (as in the standings; a near miss gets suggestions)")
    add_event(p, many=False)
    add_rules(p)
    add_through_round(p, what="explain the standings")
    add_output(p, what="the explanation table")
    add_quiet(p)


def _record(w: object, l_: object, d: object, byes: object) -> str:
    if w is None:
        return ""
    text = f"{w}-{l_}-{d}"
    return text + (f" ({byes} bye{'s' if byes != 1 else ''})" if byes else "")


def _terms(label: str, values: Sequence[float], total: float | None, width: int) -> str:
    """``LABEL = (a + b + …) / n = total``, wrapped under the opening parenthesis."""
    if total is None:
        return f"{label}: none (no opponent counted)"
    if not values:
        return f"{label} = {total:.4f}"
    mean = sum(values) / len(values)
    body = " + ".join(f"{v:.4f}" for v in values)
    if abs(mean - total) > 1e-9:  # the average is not a plain mean (e.g. weighted): say so
        return f"{label} = {total:.4f} (from {len(values)} opponents: {body})"
    text = f"{label} = ({body}) / {len(values)} = {total:.4f}"
    indent = " " * (len(label) + 4)
    return "\n".join(wrap(text, width=width, subsequent_indent=indent,
                                   break_on_hyphens=False))


def _num(v: float | Fraction) -> str:
    return format_cell("x", float(v))


def _checked(label: str, text: str, value: object, expected: float | None, *,
             width: int, why: str) -> list[str]:
    """``LABEL = text = value``, wrapped; where the arithmetic shown does not give the
    standings' value (a rule it leaves out), the value with what it is (``why``)."""
    shown = format_cell("x", value)
    if expected is None or value is None or abs(float(expected) - float(value)) > 1e-9:  # type: ignore[arg-type]
        shown = format_cell("x", expected)
        return wrap(f"{label} = {shown} ({why})", width=width,
                             subsequent_indent=" " * (len(label) + 3))
    return wrap(f"{label} = {text} = {shown}", width=width,
                         subsequent_indent=" " * (len(label) + 3), break_on_hyphens=False)


class Explained(NamedTuple):
    """What an arithmetic line reads (:data:`ARITHMETIC`): the player's rounds (``body``,
    :func:`swissframe.explain`'s rows), their standings row, the standings of their event
    (``field``: who is level with them; None when unknown), the ruleset, the line width
    and the players' names."""

    body: pl.DataFrame
    standing: Mapping[str, object]
    field: pl.DataFrame | None
    rules: Ruleset
    width: int
    names: Mapping[str, str]


def _buchholz_lines(c: Criterion, ex: Explained) -> list[str]:
    """Buchholz and its Cut-n / Median-n (C.07 Art. 7.1, 14): the opponents' scores, less
    the lowest (and highest) contributions."""
    rows = ex.body.filter(pl.col("bh_value").is_not_null())
    vals = [float(v) for v in rows["bh_value"]]
    first = vur_first(ex.rules)  # (Art. 16.5: the engine's reading)
    vur = (rows["vur"].fill_null(value=False).to_list()
           if "vur" in rows.columns and first else [False] * len(vals))
    kw = c.kwargs
    low = int(kw.get("cut", 0) or 0) + int(kw.get("median", 0) or 0)  # type: ignore[call-overload]
    high = int(kw.get("median", 0) or 0)  # type: ignore[call-overload]
    # the lowest contributions go, a voluntarily unplayed round's first (Art. 16.5), then
    # the highest (Median)
    order = sorted(range(len(vals)), key=lambda i: (not vur[i], vals[i]))
    gone = order[:low]
    rest = sorted((i for i in range(len(vals)) if i not in gone), key=lambda i: vals[i])
    gone += rest[len(rest) - high:] if high else []
    cut = [f"− {_num(vals[i])}" + (" (unplayed)" if vur[i] else "") for i in gone]
    text = " + ".join(_num(v) for v in vals) + ("" if not cut else " " + " ".join(cut))
    kept = sum(v for i, v in enumerate(vals) if i not in gone)
    why = ("C.07 Art. 14: the lowest contributions cut"
           + (", a voluntarily unplayed round's first (Art. 16.5)" if first else "")
           if cut else "C.07 Art. 16: unplayed rounds")
    return _checked(c.label, text, kept, ex.standing.get(c.name),  # type: ignore[arg-type]
                    width=ex.width, why=why)


def _sb_lines(c: Criterion, ex: Explained) -> list[str]:
    """Sonneborn-Berger (C.07 Art. 9.1): each opponent's score times the points scored
    against them."""
    terms, total = [], 0.0
    # (the points of each round as the engine's Sonneborn-Berger reads them)
    for pts, val in zip(ex.body["points"].to_list(), ex.body["bh_value"].to_list(),
                        strict=True):
        if val is None or pts is None:
            continue
        terms.append(f"{_num(pts)}×{_num(val)}")
        total += float(pts) * float(val)
    return _checked(c.label, " + ".join(terms) or "0", total,
                    ex.standing.get(c.name),  # type: ignore[arg-type]
                    width=ex.width, why="C.07 Art. 9.1, 16: each opponent's score times "
                    "the points scored against them")


def _wins_lines(c: Criterion, ex: Explained) -> list[str]:
    """Number of wins (C.07 Art. 7.2): the rounds won, a bye and a forfeit win among them
    (a chess result is told by its unplayed kind: ``forfeit win``, ``full-point bye``)."""
    b = ex.body
    won = [str(r) for r, res, bye, kind in zip(b["round"].to_list(), b["result"].to_list(),
                                               b["bye"].to_list(), b["unplayed"].to_list(),
                                               strict=True)
           if res == "win" or bye or kind == "forfeit_win"]
    text = f"{len(won)} (round{'' if len(won) == 1 else 's'} {', '.join(won)})" if won else "0"
    value = ex.standing.get(c.name)
    if value is not None and float(value) != len(won):  # type: ignore[arg-type]
        return [f"{c.label} = {format_cell('x', value)} (C.07 Art. 7.2: the rounds won)"]
    return wrap(f"{c.label} = {text}", width=ex.width,
                         subsequent_indent=" " * (len(c.label) + 3))


def _level_with(c: Criterion, ex: Explained) -> list[str] | None:
    """The players level with this one on every criterion before ``c`` (None: the
    standings are not known)."""
    if ex.field is None or "player_id" not in ex.field.columns:
        return None
    before = []
    for k in ex.rules.criteria:
        if k.name == c.name:
            break
        before.append(k.name)
    me = ex.standing.get("player_id")
    level = ex.field.filter(pl.col("player_id") != me)
    if "division" in level.columns and ex.standing.get("division") is not None:
        level = level.filter(pl.col("division") == ex.standing["division"])  # (a pod's)
    for name in before:
        mine = ex.standing.get(name)
        if name not in level.columns or mine is None:
            return None
        level = level.filter((pl.col(name).cast(pl.Float64) - float(mine)).abs()  # type: ignore[arg-type]
                             <= 1e-9)
    return [str(p) for p in level["player_id"].to_list()]


def _against(ex: Explained, who: list[str]) -> str:
    """What the player did against each of ``who``: ``beat X (round 2)``, ``drew with Y
    (round 5)``, ``lost to Z (round 1)``, ``did not meet W``."""
    verbs = {"win": "beat", "draw": f"{draw_forms(ex.rules)[1]} with", "loss": "lost to"}
    parts = []
    for p in who:
        met = ex.body.filter(pl.col("opponent_id") == p)
        shown = ex.names.get(p, p)
        if met.height == 0:
            parts.append(f"did not meet {shown}")
            continue
        parts += [f"{verbs.get(str(r['result']), str(r['result']))} {shown} (round "
                  f"{r['round']})" for r in met.iter_rows(named=True)]
    return ", ".join(parts)


def _tied_lines(c: Criterion, ex: Explained, rule: str) -> list[str]:
    """A criterion among the tied players only (direct encounter, head-to-head): who is
    level with the player on every criterion before it, and their games together."""
    value = format_cell("x", ex.standing.get(c.name))
    head = with_unit(f"{c.label} = {value}", c.unit)
    level = _level_with(c, ex)
    before = ", ".join(label_of(k.name) for k in ex.rules.criteria[
        :[k.name for k in ex.rules.criteria].index(c.name)])
    if level is None:
        text = f"{head}: {rule}, among the players level on {before}"
    elif not level:
        text = f"{head}: no other player is level on {before} ({rule})"
    else:
        names = ", ".join(ex.names.get(p, p) for p in level)
        text = (f"{head}: level on {before} with {names}; {_against(ex, level)} "
                f"({rule})")
    return wrap(text, width=ex.width, subsequent_indent=" " * (len(c.label) + 3))


#: How each tiebreaker function's number is formed, by function (the arithmetic lines
#: under the table); OMW%, OGW%, OOMW% have theirs in the table's averages. A criterion of
#: a function not here prints its value only. Extending ``explain`` to a criterion is an
#: entry here, never a branch on the game.
ARITHMETIC: dict[str, Callable[[Criterion, Explained], list[str]]] = {
    "buchholz": _buchholz_lines, "sb": _sb_lines, "win": _wins_lines,
    "direct_encounter": lambda c, ex: _tied_lines(c, ex, "C.07 Art. 6"),
    "head_to_head": lambda c, ex: _tied_lines(c, ex, "TRH §5.5.1.1: only two tied players "
                                              "who met")}

#: The columns an arithmetic reads: without them (a ruleset of no chess criterion) it is
#: left out, and the criterion prints its value.
_READS: Final = {"buchholz": "bh_value", "sb": "points"}

#: Criteria whose arithmetic the averages under the table show (:func:`_terms`).
_AVERAGED: Final = frozenset({"match_points", "omwp", "gwp", "ogwp", "oomwp"})


def render(table: pl.DataFrame, standing: dict[str, object] | None, *, rules: str,
           criteria: Sequence[str] = (), width: int = 80,
           names: dict[str, str] | None = None,
           units: Mapping[str, str] | None = None, ruleset: Ruleset | None = None,
           field: pl.DataFrame | None = None, event_name: str | None = None) -> str:
    """The judge's text of an :func:`swissframe.explain` table, ``width`` columns wide;
    ``units``: what a criterion's number counts where its label does not say it, by
    column (``Criterion.unit``: "DE 1 (tied players ranked below)"); ``event_name``: the
    event's name (``Source.event_names``; else its id).

    Examples
    --------
    >>> import swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "D"],
    ...     "player_b": ["B", "D", "C", "B"], "games_a": [2, 2, 2, 2],
    ...     "games_b": [0, 1, 1, 0], "games_drawn": [0, 0, 0, 0]})
    >>> print(render(sf.explain(sf.from_matches(m), "A", rules="mtg-1/3"), None,
    ...              rules="mtg-1/3", criteria=["match_points", "omwp", "gwp", "ogwp"]))
    A — event, mtg-1/3
    <BLANKLINE>
    round  opponent  result  opp. record  opp. MW%  opp. GW%
        1  B         win     0-2-0        33.33% *  33.33% *
        2  C         win     1-1-0        50.00%    50.00%
    <BLANKLINE>
    * round 1 (B): win rate 0.0 raised to the floor 0.333333
    <BLANKLINE>
    OMW% = (0.3333 + 0.5000) / 2 = 0.4167
    OGW% = (0.3333 + 0.5000) / 2 = 0.4167
    """
    body = table.filter(pl.col("result") != "average")
    avg = table.filter(pl.col("result") == "average").row(0, named=True)
    shown = names or {}  # the players as the file names them (TOM, TRF ids are numbers)
    player, event = avg["player_id"], event_name or avg.get("event_id", "")
    player = shown.get(player, player)
    lines = wrap(f"{player} — {event}, {rules}", width=width, break_on_hyphens=False)
    chess = "bh_value" in body.columns
    if standing is not None:
        rec = f"{standing['wins']}-{standing['losses']}-{standing['draws']}"
        points = format_cell("match_points", standing["match_points"])
        # (a disqualified player has no rank: removed from the standings)
        parts = [f"rank {standing['rank']}" if standing.get("rank") is not None
                 else "disqualified (no rank)",
                 f"{points} point{'' if points == '1' else 's'}", f"record {rec}"]
        # the ruleset's own tiebreakers (chess has no OMW% or GW%; Pokémon no GW%)
        cols = ([c for c in criteria if c != "match_points"] if criteria
                else ["omwp", "gwp", "ogwp", "oomwp"])
        # (each as the tables head it: "head-to-head", not "Head-to-head", mid-line)
        parts += [with_unit(f"{column_heading(col, ruleset)} "
                            f"{format_cell(col, standing[col])}", (units or {}).get(col))
                  for col in cols if standing.get(col) is not None]
        lines.append(fill(", ".join(parts), width=width))
        if standing.get(DISQUALIFIED):
            lines.append(fill(
                f"{player} was disqualified: removed from the standings (everyone below "
                "moves up one place); their results still count for their opponents.",
                width=width))
        elif standing.get("dropped"):
            rounds = body["round"].drop_nulls()
            last = int(rounds.max()) if len(rounds) else None  # type: ignore[arg-type]
            # (why, as every surface says it: a player who did not make day 2 did not drop)
            said = str(standing.get("note") or "dropped")
            lines.append(f"{player} dropped after round {standing['rounds_played']}."
                         if said == "dropped" else fill(
                             f"{player} {said}" + (f" (last round played: {last})."
                                                   if last is not None else "."),
                             width=width))
            if (said == "dropped" and ruleset is not None
                    and ruleset.snapshot == "last_round" and last is not None):
                # (the opponents' records below then differ from their final standings)
                lines.append(fill(
                    f"The ruleset freezes a dropped player's standing at the round they last "
                    f"played (snapshot \"last_round\", as Pokémon's TOM does): the opponents' "
                    f"records and rates below are as of round {last}.", width=width))
    lines.append("")
    has_gw = ("ogwp" in criteria) if criteria else body["opp_gwp"].is_not_null().any()
    has_oomw = "oomwp" in criteria
    heads = ["round", "opponent", "result", "opp. record"] + ([] if chess else ["opp. MW%"])
    if has_gw:
        heads.append("opp. GW%")
    if has_oomw:
        heads.append("opp. OMW%")
    if chess:
        heads += ["opp. score", "BH value"]
    rows: list[list[str]] = []
    notes: list[str] = []
    for r in body.iter_rows(named=True):
        mark = ""
        if r["note"]:
            mark = "*" * (len(notes) % 3 + 1) if len(notes) < 3 else f"[{len(notes) + 1}]"
            opp = shown.get(r["opponent_id"], r["opponent_id"])
            who = f" ({opp})" if opp else ""
            notes.append(f"{mark} round {r['round']}{who}: {r['note']}")
        mw = format_cell("opp_mwp", r["opp_mwp"]) if r["opp_mwp"] is not None else "–"
        raw_differs = (r["opp_mwp"] is not None and r["opp_mwp_raw"] is not None
                       and abs(r["opp_mwp"] - r["opp_mwp_raw"]) > 1e-12)
        cells = [str(r["round"]), str(shown.get(r["opponent_id"], r["opponent_id"]) or "–"),
                 outcome_name(str(r["result"]), ruleset),
                 _record(r["opp_wins"], r["opp_losses"], r["opp_draws"], r["opp_byes"])]
        if not chess:
            cells.append(f"{mw} {mark}".rstrip() if (mark and raw_differs) or
                         (mark and r["opp_mwp"] is None) else mw)
        if has_gw:
            gw = format_cell("opp_gwp", r["opp_gwp"]) if r["opp_gwp"] is not None else "–"
            gw_differs = (r["opp_gwp"] is not None and r["opp_gwp_raw"] is not None
                          and abs(r["opp_gwp"] - r["opp_gwp_raw"]) > 1e-12)
            cells.append(f"{gw} {mark}".rstrip() if mark and gw_differs else gw)
        if has_oomw:
            cells.append(format_cell("opp_omwp", r["opp_omwp"]) if not r["excluded"] else "–")
        if chess:
            bh = format_cell("x", r["bh_value"])
            cells += [format_cell("x", r["opp_score"]), f"{bh} {mark}".rstrip()]
        rows.append(cells)
    lines += text_columns(heads, rows, width, shrink=[1], right=[0])
    if notes:
        lines.append("")
        lines += [fill(n, width=width, subsequent_indent="    ") for n in notes]
    lines.append("")
    sums = [("OMW%", "opp_mwp")] if "omwp" in criteria or (not criteria and not chess) \
        else []
    if has_gw:
        sums.append(("OGW%", "opp_gwp"))
    if has_oomw:
        sums.append(("OOMW%", "opp_omwp"))
    for label, col in sums:
        values = [float(v) for v, ex in zip(body[col].to_list(), body["excluded"].to_list(),
                                            strict=True)
                  if v is not None and not ex] if col == "opp_omwp" else \
            [float(v) for v in body[col].drop_nulls().to_list()]
        lines.append(_terms(label, values, avg.get(col), width))
    if chess and avg.get("bh_value") is not None and ruleset is None:
        vals = " + ".join(format_cell("x", v) for v in body["bh_value"].drop_nulls())
        lines.append(fill(f"Buchholz = {vals} = {format_cell('x', avg['bh_value'])}",
                                   width=width, subsequent_indent=" " * 11))
    if ruleset is not None and standing is not None:  # every other criterion, by function
        for c in ruleset.criteria:
            if c.name in _AVERAGED or c.name not in criteria:
                continue
            make = ARITHMETIC.get(c.function)
            if make is not None and _READS.get(c.function, "round") in body.columns:
                lines += make(c, Explained(body, standing, field, ruleset, width, shown))
            elif standing.get(c.name) is not None:
                lines.append(with_unit(f"{c.label} = {format_cell(c.name, standing[c.name])}",
                                       c.unit))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe explain``; 0 on success (errors raise, exit 2 in the CLI)."""
    from swissframe.engine.explain import explain
    from swissframe.engine.standings import standings
    from swissframe.rules import get

    kind = output_format(args.format, args.output)
    results, event, (player,), used, names, divisions, event_name = read_player_event(
        args, args.player)
    table = explain(results, player, used, event_id=event, through_round=args.through_round)
    if kind != "table":  # a table format; "table" (or -o x.txt) is the text below
        write_frame(table, kind, args.output, inputs=args.files, args=args)
        return 0
    # (a combined pod: the rank its division's standings print)
    st = division_ranks(standings(results, used, through_round=args.through_round),
                        divisions)
    row = st.filter(pl.col("player_id") == player)
    if row.height and row["dropped"].any():  # (why, in words: cut._words.absence_notes)
        said = absence_notes_of(results, args.through_round).filter(
            pl.col("player_id") == str(player))["note"]
        row = row.with_columns(note=pl.lit(said[0] if said.len() else None, pl.String))
    rules = used + (f", after round {args.through_round}" if args.through_round else "")
    width = terminal_width()
    # (an order drawn by lot has no value to explain: only its order counts)
    criteria = [c.name for c in get(used).criteria if not drawn_by_lot(c.function)]
    units = {c.name: c.unit for c in get(used).criteria if c.unit}
    text = render(table, row.row(0, named=True) if row.height else None, rules=rules,
                  criteria=criteria, width=width, names=names, units=units,
                  ruleset=get(used), event_name=event_name,
                  field=st.filter(pl.col("event_id") == event)
                  if event is not None and "event_id" in st.columns else st)
    write_text(text, args.output, inputs=args.files, args=args)
    return 0
