"""``swissframe cut FILE… --top 8 [--round R]``: who can still make the top N, and which
tables can draw, before round R (default: the last Swiss round of each event).

The rounds before R are the results; round R's rows give the pairings (a player without a
row in R has dropped). ``--pairings FILE`` analyses a round that is paired but not played.

On the terminal each event gets a plain-words summary ("3 are locked in; 5 more are in with
a draw; 12 others can still make it; 170 cannot"), the tables that matter and the players
still in contention, by standing; ``--all`` lists every table and player. ``-o``/``--format``
write one row per player (every player, with their table, opponent and the table's advice).
"""

from __future__ import annotations

import argparse
import dataclasses
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import polars as pl

from swissframe._display import count, quoted, wrap
from swissframe.cli._common import (
    add_event,
    add_files,
    add_output,
    add_quiet,
    add_rules,
    add_top,
    event_ids,
    filter_events,
    format_cell,
    need_swiss,
    non_negative_int,
    note,
    output_format,
    positive_int,
    printable,
    reading,
    refuse_output,
    show_progress,
    terminal_width,
    text_columns,
    working,
    write_frame,
    write_text,
)
from swissframe.compare import column_heading
from swissframe.cut import cut_status, id_advice
from swissframe.cut._round import absent_players
from swissframe.cut._status import status_words
from swissframe.cut._words import (
    DEFAULT_TOP,
    absent_words,
    advice_words,
    cut_words,
    draw_word,
    outcome_name,
    outcome_words,
    stage_words,
    the_top,
    top_of,
)
from swissframe.errors import DataError, DataWarning, SwissframeError
from swissframe.io._files import NO_RESULTS, read, read_table_file
from swissframe.rules._infer import by_ruleset, describe
from swissframe.rules._ruleset import BEST_OF_THREE, Ruleset, get
from swissframe.schema import DISQUALIFIED, by_event, swiss_part

__all__ = ["add_parser", "player_table", "render_event", "run"]

_OUTCOMES = ("win", "draw", "loss")


def _inputs(args: argparse.Namespace) -> list[str]:
    """Every file the command reads (the results and ``--pairings``): ``-o`` replaces none."""
    return [*args.files, *([args.pairings] if args.pairings else [])]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``swissframe cut``.

    Examples
    --------
    >>> from swissframe.cli._common import Parser
    >>> p = Parser(); sub = p.add_subparsers()
    >>> add_parser(sub)
    >>> a = p.parse_args(["cut", "a.csv", "b.csv", "--round", "4", "--top", "4"])
    >>> a.files, a.round, a.top
    (['a.csv', 'b.csv'], 4, 4)
    """
    p = subparsers.add_parser(
        "cut", help="who can still make the top N, and which tables can draw",
        description="Before round R (default: the last Swiss round) say which players are "
        "locked into the top N, which can still make it (with the probability, exact when "
        "few tables remain, else simulated) and which cannot, after a win, a draw or a loss "
        "— and, per table, whether an intentional draw is safe.")
    add_files(p)
    add_top(p, default=None, what="size of the cut, or the places that matter where the "
            "game has no playoff (chess: the top N places); default: each event's playoff "
            "where its file holds one (a decklist file's Top 8), else 8")
    p.add_argument("--round", type=positive_int, default=None, metavar="R",
                   help="the round about to be played (default: each event's last Swiss "
                        "round; its rows are used as the pairings)")
    p.add_argument("--pairings", metavar="FILE", default=None,
                   help="pairings of a round that is not played yet (player_id, "
                        "opponent_id[, event_id]): one row per table, or one per seat; "
                        "FILE then holds only finished rounds")
    add_rules(p)
    add_event(p)
    p.add_argument("--sims", type=non_negative_int, default=100, metavar="N",
                   help="simulated outcomes of the other tables per large event, for the "
                        "probabilities (default 100; 0: none)")
    p.add_argument("--exact-limit", type=non_negative_int, default=3125, metavar="N",
                   help="enumerate every outcome of events with at most N scenarios "
                        "(exact probabilities; default 3125)")
    p.add_argument("--seed", type=non_negative_int, default=0, metavar="N",
                   help="random seed of the simulation (default 0)")
    p.add_argument("--all", action="store_true",
                   help="list every table and every player (default: the tables and players "
                        "for which the round still decides something)")
    add_output(p, what="the per-player table (every player)")
    add_quiet(p)


def _tops(results: pl.DataFrame, top: int | None) -> dict[str, int]:
    """Each event's cut: ``--top`` where given, else its own playoff's size where its rows
    hold it, else 8 places (:func:`~swissframe.cut._words.top_of`)."""
    return {str(ev): top_of(rows, top)[0]
            for (ev,), rows in results.group_by("event_id", maintain_order=True)}


def _by_top(rows: pl.DataFrame | pl.LazyFrame, tops: dict[str, int]
            ) -> list[tuple[int, pl.DataFrame]]:
    """``rows`` split by their events' cut size (one analysis per size)."""
    frame = rows.collect() if isinstance(rows, pl.LazyFrame) else rows
    sizes = frame.with_columns(_top=pl.col("event_id").cast(pl.String).replace_strict(
        tops, default=DEFAULT_TOP, return_dtype=pl.Int64))
    return [(int(t), grp.drop("_top"))
            for (t,), grp in sizes.group_by("_top", maintain_order=True)]


def _split(results: pl.DataFrame, round_: int | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    swiss = swiss_part(results)
    last = swiss.group_by("event_id").agg(pl.col("round").max().alias("_R"))
    if round_ is not None:
        top = int(last["_R"].max() or 0)  # type: ignore[arg-type]
        if not 2 <= round_ <= top:
            msg = (f"--round {round_}: the Swiss has rounds 1–{top}, and the round analysed "
                   "needs the rounds before it and its own pairings. Hint: pick a round from "
                   f"2 to {top}, or use --pairings FILE for a round not played yet.")
            raise SwissframeError(msg)
        last = last.with_columns(_R=pl.lit(round_, dtype=pl.Int64))
    s = swiss.join(last, on="event_id")
    prior = s.filter(pl.col("round") < pl.col("_R")).drop("_R")
    # (a player disqualified in round R: out of the cut, see cut_status)
    # (the round's stage: who did not reach it is not a drop, absent_players)
    pairs = s.filter(pl.col("round") == pl.col("_R")).select(
        "event_id", "round", "player_id", "opponent_id",
        *(c for c in (DISQUALIFIED, "stage") if c in s.columns))
    done = _analysed(swiss, last, prior, pairs)
    return prior.join(done, on="event_id", how="semi"), pairs


def _analysed(swiss: pl.DataFrame, last: pl.DataFrame, prior: pl.DataFrame,
              pairs: pl.DataFrame) -> pl.DataFrame:
    """The events the round analysed can be analysed in (rounds before it, and its
    pairings), saying which it leaves out — one whose round is its first Swiss round, or
    one without that round (``--round`` past its last): beside other events, the first
    was left out of the output without a word and the second analysed as if every player
    had dropped; alone, the first ended in "no Swiss rounds in the results". An error
    when it leaves out every event, else a warning naming them."""
    done = prior.select("event_id").unique().join(
        pairs.select("event_id").unique(), on="event_id")
    left = (swiss.group_by("event_id").agg(_a=pl.col("round").min(), _b=pl.col("round").max())
            .join(last, on="event_id").join(done, on="event_id", how="anti").sort("event_id"))
    if not left.height:
        return done
    first = left.row(0, named=True)
    why = (f"event {quoted(first['event_id'])}: round {first['_R']} cannot be analysed, its Swiss "
           f"has rounds {first['_a']}–{first['_b']} (the analysis needs the rounds before "
           "the round analysed, and its pairings)")
    if left.height == swiss["event_id"].n_unique():
        msg = (f"{why}. Hint: pass --round R with a round after the event's first, or "
               "--pairings FILE for a round not played yet.")
        raise DataError(msg)
    msg = (f"the cut analysis leaves out {count(left.height, 'event')}, e.g. {why}. Hint: analyse "
           "such an event on its own (--event ID) before a round after its first (--round "
           "R), or before a round not played yet (--pairings FILE).")
    warnings.warn(msg, DataWarning, stacklevel=2)
    return done


def player_table(status: pl.DataFrame, advice: pl.DataFrame, ranks: pl.DataFrame,
                 absent: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per player: standing before the round, table, seat (the ``A`` / ``B`` the
    table's advice names), opponent, status and probability per outcome, the table's
    advice and a plain ``standing_in_cut`` (``locked`` / ``contention`` / ``out`` /
    ``dropped``, or ``missed_stage`` for a player not paired because they did not reach
    the round's stage, a day-2 cut: ``absent``,
    :func:`~swissframe.cut._round.absent_players`); all-null columns are left out.

    Examples
    --------
    >>> st = pl.DataFrame({"event_id": ["e"] * 3, "player_id": ["A"] * 3,
    ...     "outcome": ["win", "draw", "loss"], "match_points": [6, 4, 3],
    ...     "status": ["guaranteed", "guaranteed", "possible"],
    ...     "probability": [1.0, 1.0, 0.5], "method": ["points"] * 3, "exact": [True] * 3})
    >>> adv = pl.DataFrame({"event_id": ["e"], "table": [1], "player_a": ["A"],
    ...     "player_b": ["B"], "advice": ["draw safe for A only"]})
    >>> ranks = pl.DataFrame({"event_id": ["e"], "player_id": ["A"], "rank": [1],
    ...     "match_points": [3]})
    >>> player_table(st, adv, ranks).select("player_id", "table", "seat", "opponent_id",
    ...     "standing_in_cut").row(0)
    ('A', 1, 'A', 'B', 'contention')
    """
    wide = status.pivot(on="outcome", index=["event_id", "player_id"],
                        values=["status", "probability", "exact"], aggregate_function="first")
    for o in (*_OUTCOMES, "dropped"):
        for v, dt in (("status", pl.String), ("probability", pl.Float64),
                      ("exact", pl.Boolean)):
            if f"{v}_{o}" not in wide.columns:
                wide = wide.with_columns(pl.lit(None, dtype=dt).alias(f"{v}_{o}"))
    # the seat (A / B) the table's advice names ("draw safe for A only")
    seats = pl.concat([
        advice.select("event_id", "table", pl.lit("A").alias("seat"),
                      pl.col("player_a").alias("player_id"),
                      pl.col("player_b").alias("opponent_id"), "advice"),
        advice.select("event_id", "table", pl.lit("B").alias("seat"),
                      pl.col("player_b").alias("player_id"),
                      pl.col("player_a").alias("opponent_id"), "advice")])
    statuses = [pl.col(f"status_{o}") for o in _OUTCOMES]
    # (an outcome a player cannot have, null — a bye's draw and loss — is no outcome, as
    # `out` reads it: a bye whose win is guaranteed is locked in, and a round of byes
    # only was "contention" for everyone)
    locked = (pl.all_horizontal((s == "guaranteed").fill_null(value=True) for s in statuses)
              & pl.any_horizontal(s.is_not_null() for s in statuses))
    out = pl.all_horizontal(s.fill_null("eliminated") == "eliminated" for s in statuses)
    missed = (pl.lit(value=False) if absent is None else
              pl.struct("event_id", "player_id").is_in(
                  absent.filter(pl.col("absent") == "missed_stage")
                  .select(pl.struct("event_id", "player_id")).to_series().implode()))
    table = (wide.join(ranks.select("event_id", "player_id", "rank",
                                    pl.col("match_points").alias("points")),
                       on=["event_id", "player_id"], how="left")
             .join(seats, on=["event_id", "player_id"], how="left")
             .with_columns(standing_in_cut=pl.when(pl.col("status_dropped").is_not_null()
                                                   & missed).then(pl.lit("missed_stage"))
                           .when(pl.col("status_dropped").is_not_null())
                           .then(pl.lit("dropped")).when(locked).then(pl.lit("locked"))
                           .when(out).then(pl.lit("out")).otherwise(pl.lit("contention")))
             .sort("event_id", "rank", "player_id", nulls_last=True))
    table = table.select(_PLAYER_COLUMNS)
    return table.select(c for c in table.columns if table[c].null_count() < table.height)


#: The columns of :func:`player_table`, of which it leaves out those with no value (a
#: round of byes only has no table, no draw and no loss): :func:`render_event` reads them
#: all, as null where left out.
_PLAYER_COLUMNS: Final = (
    "event_id", "rank", "player_id", "points", "table", "seat", "opponent_id",
    "standing_in_cut", *(f"status_{o}" for o in (*_OUTCOMES, "dropped")),
    *(f"probability_{o}" for o in (*_OUTCOMES, "dropped")), "advice",
    *(f"exact_{o}" for o in (*_OUTCOMES, "dropped")))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def render_event(players: pl.DataFrame, *, event: str, top: int, round_: int,
                 show_all: bool = False, width: int = 80, rules: Ruleset | None = None,
                 outcomes: Sequence[tuple[int, int, int]] = BEST_OF_THREE,
                 stage: str | None = None, note: str | None = None) -> str:
    """The terminal text for one event: summary, the tables that matter, the players
    (``outcomes``, ``rules``: the analysis' outcome space and the ruleset, for the words of
    the legend and the top: see :mod:`swissframe.cut._words`; ``stage``: the round's
    stage, named where players did not reach it, ``standing_in_cut`` ``missed_stage``;
    ``note``: what the top is where no cut was given, :func:`~swissframe.cut._words.the_top`)."""
    # (a column player_table left out, as null: a round of byes only has no draw, no loss
    # and no table, and reading status_draw was Polars' ColumnNotFoundError — class 139)
    players = players.with_columns(pl.lit(None).alias(c) for c in _PLAYER_COLUMNS
                                   if c not in players.columns)
    paired = players.filter(~pl.col("standing_in_cut").is_in(["dropped", "missed_stage"]))
    counts = dict(players.group_by("standing_in_cut").len().iter_rows())
    locked, out = counts.get("locked", 0), counts.get("out", 0)
    contention = paired.filter(pl.col("standing_in_cut") == "contention")
    draw_in = contention.filter(pl.col("status_draw") == "guaranteed").height
    win_only = contention.filter((pl.col("status_draw") == "eliminated")
                                 & (pl.col("status_loss") == "eliminated")).height
    # (a long name wrapped at words, as the standings' headings are: it was cut)
    lines = wrap(f"Top {top} before round {round_} — {printable(event)}",
                          width=width, break_long_words=False, break_on_hyphens=False)
    if note:
        lines += wrap(f"({note}: --top N for a cut.)", width=width)
    dropped, missed = counts.get("dropped", 0), counts.get("missed_stage", 0)
    if missed:  # (a day-2 cut is not a drop: "45 players in day 2 (90 did not make day 2)")
        where = stage_words(stage)
        sentence = (f"{_count(paired.height, 'player', 'players')} in {where} ({missed} "
                    + absent_words("missed_stage", stage)
                    + (f", {dropped} {absent_words('dropped', stage)}" if dropped else "")
                    + "). ")
    else:
        sentence = (f"{_count(paired.height, 'player is', 'players are')} still playing"
                    + (f" ({dropped} dropped)" if dropped else "") + ". ")
    # ("none is locked in …; 4 are in with a tie", not "0 are locked in …; 4 more are")
    sentence += ("None is" if not locked else _count(locked, "is", "are")) \
        + " locked in whatever happens; "
    others = contention.height - draw_in
    if draw_in:
        more = "more " if locked else ""
        sentence += (f"{_count(draw_in, more + 'is', more + 'are')} in with a "
                     f"{draw_word(rules)}; ")
    sentence += (f"{_count(others, 'other', 'others')} can still make it"
                 + (f" ({win_only} only with a win)" if win_only else "")
                 + f"; {_count(out, 'cannot', 'cannot')}.")
    if contention.height == 0:
        sentence += f" The round decides nothing for {cut_words(rules, top).name}."
    lines += wrap(sentence, width=width)
    matter = set(contention["table"].drop_nulls().to_list())
    both_locked = (paired.filter((pl.col("standing_in_cut") == "locked")
                                 & pl.col("table").is_not_null())  # (byes: no table)
                   .group_by("table").len().filter(pl.col("len") == 2)["table"].to_list())
    matter |= set(both_locked)
    # (the points as every table heads them: "match points", a chess score "points")
    points = column_heading("match_points", rules)
    seats = paired.filter(pl.col("table").is_not_null())
    # in the advice's seat order: its "A" / "B" are the columns player A / player B
    tables = (seats.sort("table", "seat").group_by("table", maintain_order=True)
              .agg(pl.col("player_id"), pl.col("points"), pl.col("advice").first())
              .sort("table"))
    if not show_all:
        tables = tables.filter(pl.col("table").is_in(sorted(matter)))
    if tables.height:
        lines += ["", "Tables that matter" if not show_all else "Tables"]
        rows = []
        for t in tables.iter_rows(named=True):
            names = [*t["player_id"], "–"]
            pts = [*(format_cell("points", v) for v in t["points"]), ""]
            rows.append([str(t["table"]), str(names[0]), pts[0], str(names[1]),
                         pts[1], advice_words(t["advice"], rules, top)])
        lines += text_columns(["table", "player A", points, "player B", points, "advice"],
                              rows, width, shrink=[1, 3], right={0, 2, 4},
                              two_lines={2, 4})
    shown = paired if show_all else paired.filter(pl.col("standing_in_cut") != "out")
    if shown.height:
        lines += ["", "Players, by standing" if show_all
                  else "Players locked in or still in contention, by standing"]
        rows = []
        for r in shown.iter_rows(named=True):
            rows.append([str(r["rank"] or ""), str(r["player_id"]),
                         format_cell("points", r["points"] or 0),
                         *(status_words(r.get(f"status_{o}"), r.get(f"probability_{o}"),
                                        r.get(f"exact_{o}")) for o in _OUTCOMES)])
        heads = ["rank", "player", points,
                 *(f"if {outcome_name(o, rules)}" for o in _OUTCOMES)]
        lines += text_columns(heads, rows, width, shrink=[1], right={0, 2},
                              two_lines={2})
        legend = (f"in / out: makes / misses the top {top} whatever the other tables do. "
                  "possible, N%: the share of the other tables' outcomes in which the player "
                  f"makes it, each table ending in {outcome_words(outcomes, rules)} (exact; ~ "
                  "when simulated or not proved); players tied on every tiebreaker across "
                  "the line count as out, or each with a share where the rules draw lots.")
        lines += ["", *wrap(legend, width=width)]
    return "\n".join(lines)


def _with_names(players: pl.DataFrame, names: pl.DataFrame
                ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The table with a ``name`` column (where the files hold names), and the same table
    for reading, players and opponents shown by name."""
    if names.height == 0 or "name" not in names.columns:
        return players, players
    nm = names.select("event_id", "player_id", "name").unique(["event_id", "player_id"])
    table = players.join(nm, on=["event_id", "player_id"], how="left")
    shown = table.with_columns(pl.coalesce("name", "player_id").alias("player_id"))
    # (a round of byes only has no table, so no opponent_id column — class 139 — and a
    # file with names, a TRF or TOM file, ended in an internal ColumnNotFoundError here:
    # bbpPairings' dutch_2025_C5.input, whose last round is one player's bye)
    if "opponent_id" in table.columns:
        opp = nm.rename({"player_id": "opponent_id", "name": "_opp_name"})
        shown = (shown.join(opp, on=["event_id", "opponent_id"], how="left")
                 .with_columns(pl.coalesce("_opp_name", "opponent_id").alias("opponent_id"))
                 .drop("_opp_name"))
    return table, shown.drop("name")


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe cut``; 0 on success (errors raise: exit status 2 in the CLI)."""
    from swissframe.engine.standings import standings

    kind = output_format(args.format, args.output)
    if args.output is not None:  # (before the analysis, not after it)
        refuse_output(args.output, _inputs(args), example="cut.csv")
    with working(args, reading(args.files)):
        src = read(args.files, format=args.input_format)
    results = filter_events(src.results, event_ids(src, args.event), src.event_names)
    if args.pairings and args.round is not None:  # (--round was ignored without a word)
        msg = (f"--round {args.round} and --pairings both given: pairings are of the round "
               "after the results' last. Hint: drop --round, or drop --pairings to analyse a "
               "played round.")
        raise SwissframeError(msg)
    if args.pairings:
        # (no event named after the pairings' file: without an event_id column they are
        # the pairings of the one event the results hold)
        prior, pairs = results, read_table_file(Path(args.pairings), name_event=False)
    else:
        need_swiss(results, "the cut analysis")
        prior, pairs = _split(results, args.round)
    if pairs.height == 0 and results.height == 0:  # (said as every command says it)
        msg = (f"{NO_RESULTS}: no round to analyse. Hint: pass the first round's pairings "
               "(--pairings FILE), or run swissframe validate FILE to see what was read.")
        raise SwissframeError(msg)
    if pairs.height == 0:
        msg = ("no pairings for the round analysed. Hint: pass --round R with a played "
               "round, or --pairings FILE.")
        raise SwissframeError(msg)
    groups = [(args.rules, prior)] if args.rules else by_ruleset(prior)
    tops = _tops(results, args.top)
    statuses, advice, ranked = [], [], []
    rules_of: dict[str, Ruleset] = {}  # per event: the ruleset analysed (for its legend)
    for name, same in groups:  # one analysis per ruleset the data calls for
        # an inferred platform preset counts players at their stage's end; the cut
        # analysis ranks the Swiss as it stands before round R
        rules = get(name) if args.rules else dataclasses.replace(get(name), snapshot="final")
        for top, rows in _by_top(same, tops):  # (and per cut size: each event's own)
            ids = rows.lazy().select("event_id").unique().collect()
            rules_of |= dict.fromkeys(ids["event_id"].to_list(), rules)
            pr = (pairs.join(ids, on="event_id", how="semi") if "event_id" in pairs.columns
                  else pairs)
            st = cut_status(rows, pr, top, rules, n_sims=args.sims,
                            exact_limit=args.exact_limit, seed=args.seed,
                            progress=show_progress(args))
            statuses.append(st)
            advice.append(id_advice(rows, pr, top, rules, status=st))
            ranked.append(standings(rows, rules))
    note(args, describe(src.events, args.rules))
    st = pl.concat(statuses, how="diagonal_relaxed")
    adv = pl.concat(advice, how="diagonal_relaxed")
    ranks = pl.concat(ranked, how="diagonal_relaxed")
    absent = absent_players(prior, pairs)
    players, shown = _with_names(player_table(st, adv, ranks, absent), src.names)
    if kind != "table":  # a table format; "table" (or -o x.txt) is the text below
        write_frame(players, kind, args.output, inputs=_inputs(args), args=args)
        return 0
    players = shown
    width = terminal_width()
    # the round analysed: the pairings' own, else the one after each event's last round
    swiss = swiss_part(prior)
    round_of = swiss.group_by("event_id").agg((pl.col("round").max() + 1).alias("round"))
    if "round" in pairs.columns and "event_id" in pairs.columns:
        given = pairs.group_by("event_id").agg(pl.col("round").max().alias("_given"))
        round_of = round_of.join(given, on="event_id", how="left").select(
            "event_id", pl.coalesce("_given", "round").alias("round"))
    parts = []
    called = src.event_names  # (each event by its name, as every surface names it)
    # (each event's rows by a slice, not a filter of the whole tables: quadratic in the
    # events, bad data 262)
    rounds = dict(round_of.group_by("event_id").agg(pl.col("round").max()).iter_rows())
    together, spans = by_event(results)
    stages = dict(absent.group_by("event_id").agg(pl.col("stage").drop_nulls().first())
                  .iter_rows())
    for (ev,), grp in players.group_by("event_id", maintain_order=True):
        r = rounds.get(ev)
        # (the words: a game that cuts, with no --top and no playoff in the file, shows places)
        top, used, top_note = the_top(together.slice(*spans.get(str(ev), (0, 0))), args.top,
                                      rules_of.get(str(ev), get("mtg")))
        stage = stages.get(str(ev))
        parts.append(render_event(grp, event=called.get(str(ev), str(ev)), top=top,
                                  round_=int(r) if isinstance(r, int) else 0,
                                  show_all=args.all, width=width,
                                  rules=used,
                                  outcomes=used.match_outcomes,
                                  stage=stage, note=top_note))
    write_text("\n\n".join(parts), args.output, inputs=_inputs(args), args=args)
    return 0
