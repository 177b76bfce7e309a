"""``swissframe chart KIND FILE… -o fig.png``: a publication-ready figure from results files.

Kinds (see :mod:`swissframe.charts`):

- ``standings``: points and tiebreakers of the top ``--top`` (default 32), cut line at ``--cut``;
- ``race``: rank by round of the final top ``--cut``;
- ``omw-ranges``: OMW% before round ``--round`` (default: the last Swiss round) and its exact
  range after it, for the top ``--top`` contenders (``--top`` default 16 here); rulesets
  that rank by OMW% only (not chess: Buchholz has no computed ranges);
- ``cut-status``: guaranteed / possible / eliminated before round ``--round``, by points group;
- ``cut-lines``: points of place ``--cut`` versus field size over every event in the files,
  intentional draws and their counterfactual (``--sims`` replays) marked;
- ``sensitivity``: top-``--cut`` changes under the usual variants of ``--rules``
  (and ``--also`` rulesets, e.g. ``--also pokemon``), one row per event.

``--cut`` defaults, for the one-event kinds (``standings``, ``race``, ``cut-status``), to
the event's own playoff where its file holds one (a decklist file's Top 8), else 8; the
kinds over many events (``cut-lines``, ``sensitivity``) compare one N, 8 unless given, as
the season page and ``swissframe sensitivity`` do; a game without a playoff (chess) is
drawn as its top N places, not a cut (:mod:`swissframe.cut._words`).

The output format follows the suffix of ``-o`` (``.png``, ``.svg``, ``.pdf``, ``.html``,
``.json``); rendering is offline. The house theme is on unless ``--no-theme``. Titles use the
event's name and rows the players' names when the files hold them (decklist cache, TOM, TRF).

Speed: a PNG takes well under 3 s on an idle machine. Importing Altair imports jsonschema,
which (with the ``format-nongpl`` extra that Jupyter installs) imports ``rfc3987_syntax``,
which compiles ~40 Lark grammars at import: 2–3 s alone, 10–20 s on a loaded machine. Altair
never needs its IRI check, so the command's process blocks that one import
(``cli/_main._fast_altair_import``, for ``report`` too). The rest: Python, Polars
and Altair imports (~1 s), the first vl-convert call (JavaScript runtime and fonts, ~0.5 s;
it holds the GIL, so warming it in a thread gains nothing) and the drawing. ``rendering…``
goes to stderr when saving takes longer than a second.

The lead wires it in ``swissframe/cli/_main.py`` through ``COMMAND_MODULES`` (``"chart"``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

import polars as pl

from swissframe._display import quoted
from swissframe.cli._common import (
    EVENT_HELP,
    add_quiet,
    check_round,
    filter_events,
    input_rows,
    need_swiss,
    non_negative_int,
    note,
    one_event_id,
    positive_int,
    refuse_output,
    working,
    wrote,
)
from swissframe.errors import DataError, RulesetError, SwissframeError
from swissframe.io._files import FORMATS, NO_RESULTS, NO_RESULTS_HINT, shown
from swissframe.rules import Ruleset

__all__ = ["KINDS", "add_parser", "run"]

#: Chart kinds offered by the CLI.
KINDS: Final = ("standings", "race", "omw-ranges", "cut-status", "cut-lines", "sensitivity")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``chart`` subcommand.

    Examples
    --------
    >>> p = argparse.ArgumentParser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> ns = p.parse_args(["chart", "standings", "a.csv", "-o", "fig.png"])
    >>> ns.kind, ns.files, ns.output, ns.cut, ns.theme
    ('standings', ['a.csv'], 'fig.png', None, True)
    """
    p = subparsers.add_parser(
        "chart", help="draw a chart (PNG/SVG/PDF/HTML) of standings or a cut analysis",
        description="Draw one of the swissframe charts from results files and save it; the "
                    "format follows the output suffix (.png, .svg, .pdf, .html, .json).")
    p.add_argument("kind", choices=KINDS, metavar="KIND", help=" | ".join(KINDS))
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="CSV/Parquet results, decklist-cache JSON, TOM .tdf or TRF files")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file (.png, .svg, .pdf, .html or .json)")
    p.add_argument("--rules", default=None,
                   help="ruleset preset (default: inferred from the data)")
    p.add_argument("--event", metavar="EVENT",
                   help=f"the event to draw (when files hold several): {EVENT_HELP}")
    p.add_argument("--top", type=positive_int, metavar="N",
                   help="places / contenders drawn (default 32; 16 for omw-ranges)")
    p.add_argument("--cut", type=positive_int, default=None, metavar="N",
                   help="size of the top cut, or the places that matter where the game has no "
                   "playoff (chess: the top N places); default: standings, race and "
                   "cut-status the event's playoff where its file holds one (a decklist "
                   "file's Top 8), else 8; cut-lines and sensitivity 8")
    p.add_argument("--round", type=positive_int, metavar="R",
                   help="standings: after round R; omw-ranges/cut-status: the round analysed "
                        "(default: the last Swiss round)")
    p.add_argument("--sims", type=non_negative_int, default=None, metavar="N",
                   help="cut-lines: replays of the intentional draws (default 50)")
    p.add_argument("--also", action="append", default=[], metavar="RULES",
                   help="sensitivity: a further ruleset to compare (repeatable)")
    p.add_argument("--input-format", choices=("auto", *FORMATS), default="auto",
                   help="how to read FILE (default: auto, recognised by its content)")
    p.add_argument("--scale", type=float, default=2.0, help="PNG pixel scale (default 2)")
    p.add_argument("--font-dir", dest="font_dirs", action="append", default=[],
                   type=font_folder, metavar="DIR",
                   help="PNG/PDF: draw with the fonts of folder DIR too (repeatable), e.g. "
                        "a CJK font's folder for Japanese names")
    add_quiet(p)
    p.add_argument("--no-theme", dest="theme", action="store_false",
                   help="Altair's default look instead of the swissframe house theme")
    p.set_defaults(func=run)


def font_folder(text: str) -> Path:
    """argparse type of ``--font-dir``: a folder (a file, a missing path or a name with a
    NUL is a usage error naming it, before any input is read).

    >>> import tempfile
    >>> font_folder(tempfile.gettempdir()).is_dir()
    True
    >>> font_folder("no/such/folder")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 'no/such/folder' is not a folder. Hint: name a folder ...
    """
    folder = Path(text)
    try:
        ok = bool(text.strip()) and folder.is_dir()
    except (OSError, ValueError):  # (a NUL in the name, a name too long)
        ok = False
    if not ok:
        msg = (f"{shown(text)!r} is not a folder. Hint: name a folder holding the font files "
               "(.ttf, .otf, .ttc), e.g. /usr/share/fonts/opentype/noto")
        raise argparse.ArgumentTypeError(msg)
    return folder


def _one_event(results: pl.DataFrame, event: str | None) -> pl.DataFrame:
    events = sorted(results["event_id"].unique().to_list())
    if event is not None:
        if event not in events:
            msg = (f"event {quoted(event)} is not in the input. Hint: events present: "
                   f"{events[:10]}{' …' if len(events) > 10 else ''}.")
            raise DataError(msg)
        rows = results.filter(pl.col("event_id") == event)
        need_swiss(rows, "this chart")
        return rows
    if not events:
        msg = f"this chart draws one event and {NO_RESULTS}. {NO_RESULTS_HINT}"
        raise DataError(msg)
    if len(events) != 1:
        msg = (f"this chart draws one event and the input holds {len(events)} "
               f"({', '.join(events[:5])}{' …' if len(events) > 5 else ''}). Hint: add "
               "--event EVENT (its id or its name).")
        raise DataError(msg)
    need_swiss(results, "this chart")
    return results


def _named(frame: pl.DataFrame, events: pl.DataFrame | None,
           players: pl.DataFrame | None) -> pl.DataFrame:
    """``frame`` with ``event_name`` / ``name`` columns joined where known and absent."""
    if events is not None and "event_name" not in frame.columns:
        frame = frame.join(events, on="event_id", how="left")
    if (players is not None and "name" not in frame.columns
            and "player_id" in frame.columns):
        frame = frame.join(players, on=["event_id", "player_id"], how="left")
    return frame


def _split_round(results: pl.DataFrame, rnd: int | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The Swiss rounds before ``rnd`` and the pairings of ``rnd`` (default: the last)."""
    swiss = results.filter(pl.col("phase") == "swiss")
    last = int(swiss["round"].max() or 0)  # type: ignore[arg-type]
    r = last if rnd is None else rnd
    event = results["event_id"][0]
    if not 2 <= r <= last:
        # (without --round the round is the last one: say so, not quote a flag not given)
        which = (f"--round {r} cannot be analysed" if rnd is not None else
                 f"its last round ({r}) cannot be analysed: the round needs rounds before it")
        msg = (f"event {quoted(event)}: {which}; the Swiss has rounds 1–{last}. Hint: pick a round "
               "from 2 to the last Swiss round (its pairings are needed).")
        raise DataError(msg)
    prior = swiss.filter(pl.col("round") < r)
    pairs = swiss.filter(pl.col("round") == r).select("event_id", "round", "player_id",
                                                      "opponent_id")
    return prior, pairs


def _check_counting(rules: Ruleset) -> None:
    """Refuse, in the command line's words, a ruleset whose OMW% counts opponents otherwise
    than the next-round ranges do (melee's and CardsRealm's presets, the defaults of their
    files): the ranges' own refusal names a Python ``dataclasses.replace``."""
    from swissframe.cut._round import opponents_bounded

    why = opponents_bounded(rules)
    if why is None:
        return
    msg = (f"chart omw-ranges: {why}, and the next-round ranges count every meeting, every "
           "row's games and the rounds an opponent played, as the MTR does. Hint: --rules mtg "
           "draws the ranges under the MTR (its OMW% differs where a player met an opponent "
           "twice, lost a round without one, or an opponent dropped); the standings, race "
           "and cut-status charts apply to every ruleset.")
    raise RulesetError(msg)


def build(args: argparse.Namespace, results: pl.DataFrame,
          events: pl.DataFrame | None = None, players: pl.DataFrame | None = None) -> Any:
    """The chart ``args.kind`` of ``results`` (validated long table), not saved.

    ``events`` (``event_id, event_name``) and ``players`` (``event_id, player_id, name``)
    give the titles and the players' names.

    Examples
    --------
    >>> import swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> ns = argparse.Namespace(kind="race", rules="mtg", event=None, top=None, cut=2,
    ...                         round=None)
    >>> build(ns, sf.from_matches(m)).to_dict()["layer"][1]["mark"]["type"]
    'line'
    """
    from swissframe import charts
    from swissframe.cut import cut_status, id_report, next_round_ranges
    from swissframe.cut._words import DEFAULT_TOP, the_top
    from swissframe.engine.standings import standings, standings_by_round
    from swissframe.rules import get
    from swissframe.schema import validate_results
    from swissframe.sensitivity import sensitivity, standard_variants

    res = validate_results(results).collect()
    kind, rules = args.kind, args.rules
    # one event drawn: the user's cut, else the event's own playoff, else its top 8 places
    # — not a cut where neither says there is one (cut._words.the_top, as swissframe cut
    # and the report read it); the kinds over many events compare one N, 8 unless given
    words: str | Ruleset | None = rules
    # (the one event those kinds draw, taken once)
    one = _one_event(res, args.event) if kind in ("standings", "race", "cut-status") else res
    if kind in ("standings", "race", "cut-status") and rules is not None:
        cut, words, said = the_top(one, args.cut, get(rules))
        if said is not None:
            note(args, f"{said} (--cut N for a cut)")
    else:
        cut = args.cut if args.cut is not None else DEFAULT_TOP

    def named(frame: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
        df = frame.collect() if isinstance(frame, pl.LazyFrame) else frame
        return _named(df, events, players)

    if kind == "standings":
        check_round(args, one, option="round")  # (named as the option, not the API's)
        table = standings(one, rules, through_round=args.round)
        return charts.chart_standings(named(table), top=args.top or 32, cut=cut, rules=words)
    if kind == "race":
        by_round = standings_by_round(one, rules)
        return charts.chart_standings_race(named(by_round), top=cut, rules=words)
    if kind == "omw-ranges":
        if rules is not None:  # (before the ranges are computed: a chess event has none)
            charts.check_omw_ranges(rules, "chart omw-ranges")
            _check_counting(get(rules))
        prior, pairs = _split_round(_one_event(res, args.event), args.round)
        return charts.chart_omw_ranges(next_round_ranges(prior, pairs, rules),
                                       named(standings(prior, rules)), top=args.top or 16,
                                       rules=rules, round_analysed=int(pairs["round"][0]))
    if kind == "cut-status":
        prior, pairs = _split_round(one, args.round)
        status = cut_status(prior, pairs, cut, rules)
        return charts.chart_cut_status(named(status), standings(prior, rules), top=cut,
                                       rules=words, round_analysed=int(pairs["round"][0]))
    # (one row per event: --event keeps that one; it drew every event, without a word)
    res = filter_events(res, args.event)
    if kind == "cut-lines":
        sims = getattr(args, "sims", None)
        report = id_report(res, cut, rules, n_sims=50 if sims is None else sims)
        field = res.group_by("event_id").agg(players=pl.col("player_id").n_unique())
        return charts.chart_cut_lines(report, field=named(field), top=cut, rules=rules)
    variants = [*standard_variants(rules), *getattr(args, "also", [])]
    sens = sensitivity(res, variants, top=cut)
    return charts.chart_sensitivity(_lists_named(named(sens), players), top=cut)


def _lists_named(sens: pl.DataFrame, players: pl.DataFrame | None) -> pl.DataFrame:
    """``sens`` with the players it lists (``entering``, ``leaving``) by the names the
    files give them (a TOM or TRF id is a number), as ``swissframe sensitivity`` shows
    them."""
    if players is None or sens.height == 0:
        return sens
    names = players.select(pl.col("event_id").cast(pl.String),
                           pl.col("player_id").cast(pl.String), pl.col("name").cast(pl.String))
    out = sens.with_row_index("_row")
    for col in ("entering", "leaving"):
        flat = (out.select("_row", "event_id", pl.col(col).alias("player_id"))
                .explode("player_id").with_columns(pl.col("player_id").cast(pl.String))
                .join(names, on=["event_id", "player_id"], how="left", maintain_order="left")
                .group_by("_row", maintain_order=True)
                .agg(pl.coalesce("name", "player_id").drop_nulls().alias(col)))
        out = out.drop(col).join(flat, on="_row", how="left", maintain_order="left")
    return out.select(sens.columns)


#: The kinds that read each option (``--cut``, ``--rules`` and ``--event`` apply to every
#: kind): one given to another kind was ignored without a word.
READ_BY: Final = {"--top": ("standings", "omw-ranges"),
                  "--round": ("standings", "omw-ranges", "cut-status"),
                  "--sims": ("cut-lines",), "--also": ("sensitivity",)}


def _options_apply(args: argparse.Namespace) -> None:
    """A :class:`SwissframeError` for an option the chart ``args.kind`` does not read
    (:data:`READ_BY`): ``chart race --top 5`` drew the top --cut, ``chart standings
    --also pokemon`` one ruleset, as if the option had been read."""
    given = {"--top": getattr(args, "top", None) is not None,
             "--round": getattr(args, "round", None) is not None,
             "--sims": getattr(args, "sims", None) is not None,
             "--also": bool(getattr(args, "also", None))}
    for flag, kinds in READ_BY.items():
        if given[flag] and args.kind not in kinds:
            msg = (f"{flag} does not apply to the {args.kind} chart (only to "
                   f"{' and '.join(kinds)}). Hint: leave it out"
                   + (", or use --cut N for the size of the top drawn."
                      if flag == "--top" else "."))
            raise SwissframeError(msg)


def run(args: argparse.Namespace) -> int:
    """Run ``chart``: read the files, draw, save; returns 0 (errors raise SwissframeError).

    Examples
    --------
    >>> import tempfile, pathlib, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> sf.from_matches(m).write_csv(tmp / "e.csv")
    >>> ns = argparse.Namespace(kind="standings", files=[str(tmp / "e.csv")],
    ...     output=str(tmp / "fig.json"), rules="mtg", event=None, top=None, cut=2,
    ...     round=None, input_format="auto", scale=2.0, theme=True)
    >>> run(ns)
    0
    """
    from swissframe.io._files import read
    from swissframe.rules._infer import describe

    suffix = Path(args.output).suffix.lower().lstrip(".")
    if suffix not in ("png", "svg", "pdf", "html", "json"):
        msg = (f"cannot write a chart to {args.output!r}. Hint: end -o with .png, .svg, .pdf, "
               ".html or .json.")
        raise SwissframeError(msg)
    refuse_output(args.output, args.files, example="chart.png")  # (a decklist is .json too)
    _options_apply(args)
    from swissframe import charts

    for folder in getattr(args, "font_dirs", ()):
        if suffix in ("png", "pdf"):
            # (the progress line: a folder of many fonts takes seconds to read)
            with working(args, f"reading the fonts of {shown(str(folder))}"):
                charts.register_font_directory(folder)
        else:  # (an SVG's or a page's text is drawn by the viewer, with its fonts)
            note(args, f"--font-dir {shown(str(folder))} is not read: a .{suffix} file keeps "
                       "its text, which the viewer draws with its own fonts")

    src = read(args.files, format=args.input_format, _keep_codes=True)
    args.event = one_event_id(src, args.event)  # (its id or its name)
    chosen = args.rules
    if args.rules is None:
        args.rules = src.ruleset_of(args.event)
    players = src.names.filter(pl.col("name").is_not_null()) if src.names.height else None
    with input_rows(src, None) as results:  # (build keeps --event's rows itself)
        # (each event by its name, as every surface names it: Source.event_names)
        events = pl.DataFrame(list(src.event_names.items()), schema=["event_id", "event_name"],
                              orient="row")
        chart = build(args, results, events, players)
    note(args, describe(src.events, chosen))
    import altair as alt

    before = alt.theme.active
    if args.theme:
        charts.use_theme()
    # (the shared progress line: erased when the step ends, none on a non-terminal stderr
    # or with --quiet — the chart's own line stayed on the screen and went into logs)
    try:
        with working(args, f"rendering {Path(args.output).name}"):
            # (a chart of swissframe.charts: its spec is checked by the tests, not again)
            path = charts.save(chart, args.output, scale=args.scale, validate=False)
    finally:
        alt.theme.enable(before)
    wrote(args, path)
    return 0
