"""``swissframe why FILE A B``: which criterion put one player ahead of the other, and by
how much (:func:`swissframe.compare`).

The first line says it as a sentence ("Alice (1st) beat Bob (2nd) on match points: 10 vs
9."); the table below walks the ruleset's criteria in order with both players' values, the
difference, and a mark on the one that decided. ``--format``/``-o`` write that table.
"""

from __future__ import annotations

import argparse
import dataclasses

import polars as pl

from swissframe.cli._common import (
    add_event,
    add_files,
    add_output,
    add_quiet,
    add_rules,
    add_through_round,
    division_ranks,
    format_cell,
    legible,
    output_format,
    read_player_event,
    terminal_width,
    write_frame,
    write_text,
)
from swissframe.compare import difference_text

__all__ = ["add_parser", "render", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe why``.

    Examples
    --------
    >>> from swissframe.cli._common import Parser
    >>> p = Parser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> a = p.parse_args(["why", "f.csv", "Alice", "Bob"])
    >>> a.files, a.player_a, a.player_b
    (['f.csv'], 'Alice', 'Bob')
    """
    p = subparsers.add_parser(
        "why", help="which criterion separated two players, and by how much",
        description="Walk the ruleset's ranking criteria in order and say which one put one "
        "player ahead of the other, with both values and the difference.")
    add_files(p)
    p.add_argument("player_a", metavar="A", help="a player id")
    p.add_argument("player_b", metavar="B", help="another player id of the same event")
    add_event(p, many=False)
    add_rules(p)
    add_through_round(p, what="compare the standings")
    add_output(p, what="the criterion-by-criterion table")
    add_quiet(p)


def _difference(name: str, diff: float | None, lot: bool = False) -> str:
    # (a seeded draw, Comparison.table's lot: the gap means nothing)
    return "" if lot else difference_text(name, diff)


def render(comparison: object, width: int = 80, names: dict[str, str] | None = None) -> str:
    """The sentence and the criterion table of a :class:`swissframe.compare.Comparison`.

    Examples
    --------
    >>> import swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> print(render(sf.compare(sf.from_matches(m), "D", "C")))
    C (2nd) beat D (3rd) on OMW%: 75.00% vs 41.50%, level on match points (3).
    <BLANKLINE>
    criterion     D       C       D − C
    match points  3       3       level
    OMW%          41.50%  75.00%  -33.50 pp  ← decided
    GW%           50.00%  50.00%  level
    OGW%          41.50%  65.00%  -23.50 pp
    """
    from swissframe._display import fill, fitted, text_width, wrap

    c = comparison
    table: pl.DataFrame = c.table  # type: ignore[attr-defined]
    # the players as the file names them (a TOM or TRF id is a number the user never typed)
    pa, pb = c.player_a, c.player_b  # type: ignore[attr-defined]
    a, b = (names or {}).get(pa, pa), (names or {}).get(pb, pb)
    if a == b:  # namesakes: the ids tell them apart
        a, b, names = pa, pb, None
    def value(r: dict[str, object], v: object) -> str:
        # (an order drawn by lot: its seeded key's digits mean nothing, only its order)
        return "by lot" if r.get("lot") and v is not None else format_cell(
            str(r["criterion"]), v)

    rows = [[str(r["label"]), value(r, r["value_a"]), value(r, r["value_b"]),
             _difference(str(r["criterion"]), r["difference"], bool(r.get("lot"))),
             "← decided" if r["decided"] else ""]
            for r in table.iter_rows(named=True)]
    heads = ["criterion", str(a), str(b), f"{a} − {b}", ""]
    # (as the output writes them: escapes where its encoding lacks a character, laid out
    # in their own width)
    heads = [legible(h) for h in heads]
    rows = [[legible(x) for x in r] for r in rows]
    # (in terminal columns: a Japanese name's characters take two each)
    widths = [max([text_width(h), *(text_width(r[i]) for r in rows)])
              for i, h in enumerate(heads)]
    if text_width(heads[3]) >= 24 or sum(widths) + 2 * (len(widths) - 1) > width:  # (long)
        heads[3] = "A − B"
        widths[3] = max([text_width(heads[3]), *(text_width(r[3]) for r in rows)])
    lines = [*wrap(c.describe(names), width=width), ""]  # type: ignore[attr-defined]
    for cells in [heads, *rows]:
        lines.append("  ".join(fitted(x, w) for x, w in zip(cells, widths, strict=True))
                     .rstrip())
    # what a number counts where its label does not say it (chess' direct encounter:
    # tied players ranked below, not points), under the table: the labels stay narrow
    lines += [fill(f"{r['label']}: {r['unit']}", width=width)
              for r in table.iter_rows(named=True) if r.get("unit")]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe why``; 0 on success (errors raise: exit status 2 in the CLI)."""
    from swissframe.compare import compare

    kind = output_format(args.format, args.output)
    results, event, (a, b), rules, names, divisions, _ = read_player_event(
        args, args.player_a, args.player_b)
    comparison = compare(results, a, b, rules=rules, event_id=event,
                         through_round=args.through_round)
    if divisions:  # a combined pod: the ranks its division's standings print
        from swissframe.engine.standings import standings

        st = division_ranks(standings(results, rules, through_round=args.through_round),
                            divisions)
        rank = dict(st.select("player_id", "rank").iter_rows())
        comparison = dataclasses.replace(comparison, rank_a=rank[a], rank_b=rank[b])
    if kind != "table":  # a table format; "table" (or -o x.txt) is the text below
        table = comparison.table.with_columns(
            pl.lit(event).alias("event_id"), pl.lit(a).alias("player_a"),
            pl.lit(b).alias("player_b"))
        write_frame(table, kind, args.output, inputs=args.files, args=args)
        return 0
    width = terminal_width()
    write_text(render(comparison, width, names), args.output, inputs=args.files,
               args=args)
    return 0
