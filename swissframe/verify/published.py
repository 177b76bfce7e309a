"""Recompute published tiebreakers and compare: does swissframe reproduce the organiser?

:func:`verify` takes events read by :func:`swissframe.io.decklist.read_decklist_cache`,
recomputes OMW%, GW% and OGW% under each event's platform ruleset
(:func:`swissframe.platforms.platform_values`, on top of the core engine
:func:`swissframe.standings.standings`),
publishes them as the platform would (rounded or truncated to the event's decimals) and
compares them with the published values: a value matches when it is within one unit of the
last published decimal (``1e-7`` for unrounded values).

It also reproduces the published **order** (:func:`order`): the position each player would
be published at, from the rounds and the platform ruleset's ``criteria`` (the keys its order
uses), with the playoff players placed from the bracket where the platform does so
(``published_order`` option). Players equal on every key share the position of their block
(1, 2, 2, 4): the platforms break such exact ties by nothing in the data (not by name, not
by seat; docs/fidelity.md), so any order inside the block is counted as agreeing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

import polars as pl

from swissframe._collect import collect, scoped
from swissframe.engine._record import cutoff_rows, points_unit, prepare_rows
from swissframe.errors import check_events, check_names
from swissframe.rules import get as _get_ruleset
from swissframe.rules._ruleset import Ruleset
from swissframe.rules.platforms import (
    assign_rulesets,
    platform_values,
    prepare_results,
    publish,
    rulesets_by_name,
)
from swissframe.schema import as_frame, check_output

if TYPE_CHECKING:  # (the readers load on first use: swissframe/__init__.py)
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents
    from swissframe.io.trf import TrfEvents

__all__ = ["ORDER_KEYS", "UNROUNDED_TOLERANCE", "VERIFY_COLUMNS", "matching_rounds", "order",
           "summarize", "verify"]

#: Tolerance when the published values are unrounded doubles (Topdeck).
UNROUNDED_TOLERANCE: Final = 1e-7

_VALUES: Final = ("omwp", "gwp", "ogwp")

#: Columns of :func:`verify`'s table.
VERIFY_COLUMNS: Final = (
    "event_id", "player_id", "source", "era", "ruleset", "decimals",
    "omwp", "gwp", "ogwp", "omwp_published", "gwp_published", "ogwp_published",
    "omwp_match", "gwp_match", "ogwp_match", "match", "compared", "in_rounds", "in_standings",
    "rank", "published_rank", "rank_match",
)

#: The criteria :func:`order` can rank by (a ruleset's order stops at the first other one).
ORDER_KEYS: Final = ("match_points", "rounds_played", "match_wins", "omwp", "gwp", "ogwp")

_ORDER_SCHEMA: Final = {"event_id": pl.String, "player_id": pl.String, "rank": pl.Int64}


def _records(results: pl.DataFrame, cut: pl.DataFrame, ruleset: Ruleset) -> pl.DataFrame:
    """Match points, rounds played and wins of each player as of their evaluation round
    (``cut``: event_id, player_id, eval_round), counted as the platform counts them."""
    rows = prepare_rows(prepare_results(results, ruleset).lazy(), ruleset)
    unit = points_unit(ruleset)
    return (cutoff_rows(rows, ["event_id", "player_id"], cut.lazy(), through="eval_round")
            .group_by("event_id", "player_id")
            .agg((pl.col("_pts").sum() / unit).alias("match_points"),
                 pl.len().cast(pl.Int64).alias("rounds_played"),
                 pl.col("_win").sum().cast(pl.Int64).alias("match_wins"))
            .pipe(collect))


def _keys(ruleset: Ruleset, columns: list[str]) -> list[pl.Expr]:
    """The ruleset's ordering keys as ascending sort expressions (higher-is-better keys
    negated; a missing value, e.g. the OMW% of a player who met no opponent, last), up to
    the first criterion :func:`order` cannot compute."""
    crits = [(c.name, c.descending) for c in ruleset.criteria]
    if ruleset.points_first and (not crits or crits[0][0] != "match_points"):
        crits.insert(0, ("match_points", True))
    keys: list[pl.Expr] = []
    for name, desc in crits:
        if name not in ORDER_KEYS or name not in columns:
            break
        # equal rationals tie despite float noise: compare at 1e-12
        x = pl.col(name).cast(pl.Float64).round(12)
        keys.append((-x if desc else x).fill_null(float("inf")))
    return keys


def _block_rank(keys: list[pl.Expr], over: list[str]) -> pl.Expr:
    """1-based position within ``over``; players equal on every key share the first."""
    if not keys:
        return pl.lit(1, dtype=pl.Int64)
    return pl.struct(keys).rank("min").over(over).cast(pl.Int64)


def order(results: pl.DataFrame, values: pl.DataFrame, ruleset: Ruleset) -> pl.DataFrame:
    """The position each player would be published at (``event_id, player_id, rank``).

    ``values`` holds each player's recomputed ``omwp, gwp, ogwp`` and ``eval_round``
    (:func:`swissframe.platforms.platform_values`); the match points, rounds played and
    wins are counted from ``results`` up to that same round. Players are ordered by the
    ruleset's ``criteria`` (as far as they are in :data:`ORDER_KEYS`); players equal on
    every key share their block's first position. With ``published_order="bracket"`` the
    playoff players come first, by the playoff round they were eliminated in (those never
    beaten first), ordered by the same keys within a round; their rank is null when their
    last playoff match has no winner (unreported). With ``"swiss"`` everyone is in one
    order.

    Examples
    --------
    A and B play the final (A wins) after two Swiss rounds; C has more points than B:

    >>> import polars as pl
    >>> from swissframe import platforms
    >>> from swissframe.schema import from_matches
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2, 3], "player_a": ["A", "C", "C", "B", "A"],
    ...     "player_b": ["B", "D", "A", "D", "B"], "games_a": [2, 2, 2, 2, 2],
    ...     "games_b": [0, 0, 1, 0, 1], "games_drawn": [0] * 5})
    >>> res = from_matches(m).with_columns(event_id=pl.lit("e"), stage=pl.lit("day1"),
    ...     phase=pl.when(pl.col("round") == 3).then(pl.lit("playoff")).otherwise(pl.lit("swiss")))
    >>> vals = platforms.platform_values(res, platforms.TOPDECK)
    >>> order(res, vals, platforms.TOPDECK).sort("rank").rows()
    [('e', 'A', 1), ('e', 'B', 2), ('e', 'C', 3), ('e', 'D', 4)]
    >>> swiss = dataclasses.replace(platforms.TOPDECK, name="t", options=dataclasses.replace(
    ...     platforms.TOPDECK.options, published_order="swiss"))
    >>> order(res, vals, swiss).sort("rank").rows()
    [('e', 'C', 1), ('e', 'A', 2), ('e', 'B', 3), ('e', 'D', 4)]
    """
    if not values.height:
        return pl.DataFrame(schema=_ORDER_SCHEMA)
    cut = values.select("event_id", "player_id", "eval_round")
    table = values.join(_records(results, cut, ruleset), on=["event_id", "player_id"],
                        how="left")
    keys = _keys(ruleset, table.columns)
    if ruleset.options.published_order == "swiss":
        return table.select("event_id", "player_id",
                            _block_rank(keys, ["event_id"]).alias("rank"))
    po = results.filter(pl.col("phase") == "playoff")
    last = (po.sort("round").group_by("event_id", "player_id")
            .agg(pl.col("round").last().alias("_last"),
                 (pl.col("games_won") > pl.col("games_lost")).last().alias("_won"),
                 (pl.col("games_won") == pl.col("games_lost")).last().alias("_open")))
    table = table.join(last, on=["event_id", "player_id"], how="left")
    in_po = pl.col("_last").is_not_null()
    # elimination round; never beaten: after every round (ranks first)
    elim = pl.when(pl.col("_won")).then(pl.lit(2**31)).otherwise(pl.col("_last"))
    table = table.with_columns(in_po.alias("_po"), elim.alias("_elim"))
    n_po = pl.col("_po").sum().over("event_id")
    # first position of each elimination round: 1 + the playoff players who went further
    block = pl.col("_elim").rank("min", descending=True).over("event_id", "_po")
    within = _block_rank(keys, ["event_id", "_po", "_elim"])
    rank = (pl.when(pl.col("_po") & pl.col("_open")).then(None)
            .when(pl.col("_po")).then(block.cast(pl.Int64) + within - 1)
            .otherwise(n_po.cast(pl.Int64) + _block_rank(keys, ["event_id", "_po"])))
    return table.select("event_id", "player_id", rank.cast(pl.Int64).alias("rank"))


def _rank_match() -> pl.Expr:
    """Whether ``published_rank`` is the recomputed position, or inside its tie block (the
    players sharing ``rank``); null when ``rank`` is."""
    size = pl.len().over("event_id", "rank")
    hit = ((pl.col("published_rank") >= pl.col("rank"))
           & (pl.col("published_rank") < pl.col("rank") + size))
    return pl.when(pl.col("rank").is_null()).then(None).otherwise(hit.fill_null(value=False))




def _as_published(got: pl.DataFrame, ruleset: Ruleset) -> pl.DataFrame:
    """Recomputed values (with ``decimals``) as the platform publishes them, plus
    ``compared``: the names of the values its data lets us reproduce."""
    compare = ruleset.options.compare
    return got.with_columns(
        *[publish(pl.col(c), pl.col("decimals"), ruleset).alias(c) for c in _VALUES],
        pl.lit(",".join(compare)).alias("compared"))


def _value_match(c: str) -> pl.Expr:
    """Whether value ``c`` equals ``c_published`` within one unit of the last published
    decimal (:data:`UNROUNDED_TOLERANCE` when unrounded); null when ``c`` is not compared."""
    tol = (pl.when(pl.col("decimals").is_null()).then(pl.lit(UNROUNDED_TOLERANCE))
           .otherwise(pl.lit(10.0).pow(-pl.col("decimals"))) * (1 + 1e-6))
    ok = (pl.col(c) - pl.col(f"{c}_published")).abs() <= tol
    compared = pl.col("compared").str.split(",").list.contains(pl.lit(c))
    return (pl.when(~compared).then(None)
            .otherwise(ok.fill_null(value=False)))


@scoped
def verify(ev: DecklistEvents | TomEvents | TrfEvents, *,
           rules: str | Ruleset | Mapping[str, str | Ruleset] | None = None,
           melee_era: str | None = None) -> pl.DataFrame:
    """Recompute every player's OMW%/GW%/OGW% and compare with the published values.

    TOM and TRF events are verified against the reference software instead
    (:func:`swissframe.verify_reference.verify_tom` — Swiss order per division versus TOM's
    placings — and :func:`~swissframe.verify_reference.verify_trf` — every tie-break versus
    the reference values, rule set chosen by the event's start date); ``rules`` then names
    the Pokémon ruleset (default ``"pokemon"``) and is ignored for TRF files.

    Parameters
    ----------
    ev
        Events from :func:`~swissframe.io.decklist.read_decklist_cache`.
    rules
        ``None`` (default): each event's platform ruleset
        (:func:`swissframe.platforms.assign_rulesets`). A ruleset (name or value): used for
        every event. A mapping: source or event_id → ruleset, overriding the default.
    melee_era
        Force one melee.gg era (``"E1"``/``"E2"``/``"E3"``) instead of the automatic choice.

    Returns
    -------
    polars.DataFrame
        One row per (event_id, player_id) of the published standings (plus players found
        only in the rounds, ``in_standings = False``): recomputed values as the platform would
        publish them, the published values, per-value ``*_match`` (null when the value is not
        compared, e.g. Topdeck GW%), ``match`` (every compared value matches),
        ``compared`` (the compared value names), ``rank`` (the position the platform would
        publish: :func:`order`), ``published_rank`` and ``rank_match`` (the published
        position is ``rank``, or inside the block of players tied with it; null when
        ``rank`` is). Columns: :data:`VERIFY_COLUMNS`.

    Examples
    --------
    >>> import orjson, tempfile, pathlib
    >>> from swissframe.io.decklist import read_decklist_cache
    >>> doc = {"Tournament": {"Date": "2025-01-10", "Name": "Demo",
    ...        "Uri": "https://melee.gg/Tournament/View/1", "Formats": "Modern"},
    ...        "Rounds": [{"RoundName": "Round 1", "Matches": [
    ...            {"Player1": "A", "Player2": "B", "Result": "2-1-0"}]}],
    ...        "Standings": [
    ...          {"Rank": 1, "Player": "A", "Points": 3, "Wins": 1, "Losses": 0, "Draws": 0,
    ...           "OMWP": 0.33333333, "GWP": 0.66666667, "OGWP": 0.33333333},
    ...          {"Rank": 2, "Player": "B", "Points": 0, "Wins": 0, "Losses": 1, "Draws": 0,
    ...           "OMWP": 1.0, "GWP": 0.33333333, "OGWP": 0.66666667}]}
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "demo-1-2025-01-10.json"
    >>> _ = p.write_bytes(orjson.dumps(doc))
    >>> v = verify(read_decklist_cache(p))
    >>> v.select("player_id", "ruleset", "omwp", "gwp", "match").rows()
    [('A', 'melee-e2', 0.33333333, 0.66666667, True), ('B', 'melee-e2', 1.0, 0.33333333, True)]
    >>> v.select("player_id", "rank", "published_rank", "rank_match").rows()
    [('A', 1, 1, True), ('B', 2, 2, True)]
    """
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents
    from swissframe.io.trf import TrfEvents

    check_events(ev, (DecklistEvents, TomEvents, TrfEvents), call="verify",
                 hint="ev = sf.read_decklist_cache(path) (or sf.read_tom / sf.read_trf); "
                      "sf.verify(ev)")
    if isinstance(ev, TomEvents):
        from swissframe.verify.reference import verify_tom

        pokemon = rules if isinstance(rules, (str, Ruleset)) else "pokemon"
        return verify_tom(ev, rules=pokemon)
    if isinstance(ev, TrfEvents):
        from swissframe.verify.reference import verify_trf

        return verify_trf(ev)
    assigned, named = _assignment(ev, rules, melee_era)
    results = ev.results.join(assigned.select("event_id", "ruleset"), on="event_id")
    dec = ev.events.select("event_id", "decimals")
    parts: list[pl.DataFrame] = []
    for name in sorted(assigned["ruleset"].unique().to_list()):
        ruleset = named[name]
        sub = results.filter(pl.col("ruleset") == name)
        if not sub.height:
            continue
        vals = platform_values(sub, ruleset)
        got = (vals.select("event_id", "player_id", *_VALUES)
               .join(dec, on="event_id", how="left"))
        got = _as_published(got, ruleset).drop("decimals").join(
            order(sub, vals, ruleset), on=["event_id", "player_id"], how="left")
        parts.append(got)
    got_all = (pl.concat(parts) if parts else pl.DataFrame(
        schema={"event_id": pl.String, "player_id": pl.String, "omwp": pl.Float64,
                "gwp": pl.Float64, "ogwp": pl.Float64, "compared": pl.String,
                "rank": pl.Int64}))
    pub = ev.published.select(
        "event_id", "player_id", *[pl.col(c).alias(f"{c}_published") for c in _VALUES],
        pl.col("rank").cast(pl.Int64).alias("published_rank"),
        pl.lit(True).alias("in_standings"))
    table = (pub.join(got_all.with_columns(pl.lit(True).alias("in_rounds")),
                      on=["event_id", "player_id"], how="full", coalesce=True)
             .join(assigned, on="event_id", how="left")
             .join(dec, on="event_id", how="left")
             .with_columns(pl.col("in_rounds").fill_null(False),
                           pl.col("in_standings").fill_null(False)))
    # events with no rounds at all still need their compared list
    table = table.with_columns(pl.col("compared").fill_null(
        pl.col("compared").drop_nulls().first().over("event_id")))
    table = table.with_columns(_value_match(c).alias(f"{c}_match") for c in _VALUES)
    all_ok = pl.all_horizontal(pl.col(f"{c}_match").fill_null(True) for c in _VALUES)
    table = table.with_columns(all_ok.alias("match"), _rank_match().alias("rank_match"))
    return table.select(VERIFY_COLUMNS).sort("event_id", "player_id")


def _assignment(ev: DecklistEvents, rules: str | Ruleset | Mapping[str, str | Ruleset] | None,
                melee_era: str | None) -> tuple[pl.DataFrame, dict[str, Ruleset]]:
    """Each event's ruleset name, and the rulesets those names stand for (user values are
    passed down, never registered)."""
    if rules is None or isinstance(rules, Mapping):
        return (assign_rulesets(ev.events, melee_era_override=melee_era, overrides=rules),
                rulesets_by_name(rules))
    rs = _get_ruleset(rules)
    base = assign_rulesets(ev.events, melee_era_override=melee_era)
    return (base.with_columns(pl.lit(rs.name).alias("ruleset")),
            rulesets_by_name({rs.name: rs}))


def summarize(table: pl.DataFrame, by: str | Sequence[str] = ("source", "era")
              ) -> pl.DataFrame:
    """Agreement per group: events, players, players matched (all compared values), the
    share, per-value shares, and events reproduced exactly; then the same for the order:
    ``ranked`` (players with a recomputed position), ``order_matched``, ``order_share`` and
    ``events_order_exact`` (every ranked player at their published position).

    Only players listed in the published standings and present in the rounds are counted.

    Examples
    --------
    >>> t = pl.DataFrame({"event_id": ["e", "e"], "source": ["melee"] * 2, "era": ["E2"] * 2,
    ...     "in_rounds": [True] * 2, "in_standings": [True] * 2, "match": [True, False],
    ...     "omwp_match": [True, True], "gwp_match": [True, False], "ogwp_match": [True, True],
    ...     "rank_match": [True, True]})
    >>> summarize(t).select("players", "matched", "share", "events_exact").rows()
    [(2, 1, 0.5, 0)]
    >>> summarize(t).select("ranked", "order_matched", "order_share", "events_order_exact").rows()
    [(2, 2, 1.0, 1)]
    """
    by = check_names("by", by, hint="e.g. by=['source'].")  # (a name alone: not its letters)
    t = as_frame(table, what="table of sf.verify", made_by="sf.verify(paths)")
    # (another table was Polars' bare ColumnNotFoundError: "unable to find column in_rounds")
    check_output(t, ("event_id", *by, "in_rounds", "in_standings", "match",
                     *(f"{v}_match" for v in ("omwp", "gwp", "ogwp"))),
                 what="summarize's table", result="a table of sf.verify",
                 hint="summarize(sf.verify(paths)), or name its columns in by=.")
    t = t.filter(pl.col("in_rounds") & pl.col("in_standings"))
    if "rank_match" not in t.columns:
        t = t.with_columns(pl.lit(None, dtype=pl.Boolean).alias("rank_match"))
    per_event = t.group_by([*by, "event_id"]).agg(
        pl.col("match").all().alias("_exact"),
        (pl.col("rank_match").fill_null(value=True).all()
         & pl.col("rank_match").is_not_null().any()).alias("_order_exact"))
    out = t.group_by(list(by)).agg(
        pl.col("event_id").n_unique().alias("events"),
        pl.len().alias("players"),
        pl.col("match").sum().alias("matched"),
        pl.col("match").mean().alias("share"),
        pl.col("omwp_match").mean().alias("omwp_share"),
        pl.col("gwp_match").mean().alias("gwp_share"),
        pl.col("ogwp_match").mean().alias("ogwp_share"),
        pl.col("rank_match").count().alias("ranked"),
        pl.col("rank_match").sum().alias("order_matched"),
        pl.col("rank_match").mean().alias("order_share"),
    ).join(per_event.group_by(list(by)).agg(pl.col("_exact").sum().alias("events_exact"),
                                           pl.col("_order_exact").sum()
                                           .alias("events_order_exact")),
           on=list(by), how="left", nulls_equal=True)
    ints = ("players", "matched", "events", "events_exact", "ranked", "order_matched",
            "events_order_exact")
    return (out.with_columns(pl.col(c).cast(pl.Int64) for c in ints)
            .select("events", "players", "matched", "share", "omwp_share", "gwp_share",
                    "ogwp_share", "events_exact", "ranked", "order_matched", "order_share",
                    "events_order_exact", *by)
            .select(*by, pl.exclude(*by)).sort(list(by), nulls_last=True))


def matching_rounds(ev: DecklistEvents, *,
                    rules: str | Ruleset | Mapping[str, str | Ruleset] | None = None,
                    melee_era: str | None = None) -> pl.DataFrame:
    """A diagnostic: at which evaluation rounds do a player's recomputed values equal the
    published ones?

    Every player is recomputed as of every round of their event (the platform's rules, the
    opponents' records taken at that same round) and compared with the published values as
    :func:`verify` does. Use it to see *as of when* a platform published a player whom
    :func:`verify` does not reproduce — e.g. melee.gg players frozen at the round before the
    last Swiss round (docs/fidelity.md). It is fitted to the published values by
    construction, so it explains mismatches; it is never used by :func:`verify`.

    Parameters
    ----------
    ev
        Events from :func:`~swissframe.io.decklist.read_decklist_cache`.
    rules, melee_era
        As in :func:`verify`.

    Returns
    -------
    polars.DataFrame
        ``event_id, player_id, rounds`` (sorted list of the matching rounds; empty when no
        round matches), one row per player present in both the rounds and the standings.

    Examples
    --------
    >>> import orjson, tempfile, pathlib
    >>> from swissframe.io.decklist import read_decklist_cache
    >>> m = lambda a, b, r: {"Player1": a, "Player2": b, "Result": r}
    >>> st = lambda p, o, g, og: {"Rank": 1, "Player": p, "Points": 0, "Wins": 0,
    ...     "Losses": 0, "Draws": 0, "OMWP": o, "GWP": g, "OGWP": og}
    >>> doc = {"Tournament": {"Date": "2025-01-10", "Name": "Demo",
    ...        "Uri": "https://melee.gg/Tournament/View/1", "Formats": "Modern"},
    ...        "Rounds": [{"RoundName": "Round 1", "Matches": [m("A", "B", "2-0-0"),
    ...                                                          m("C", "D", "2-0-0")]},
    ...                   {"RoundName": "Round 2", "Matches": [m("B", "C", "2-1-0"),
    ...                                                          m("D", "-", "2-0-0")]}],
    ...        "Standings": [st("B", 0.75, 0.4, 0.8), st("A", 0.33333333, 1.0, 0.33333333)]}
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "demo-1-2025-01-10.json"
    >>> _ = p.write_bytes(orjson.dumps(doc))

    A dropped after round 1 and was published as of round 1 (B then 0-1, so 1/3), not as of
    the end (B 1-1, OMW% 1/2):

    >>> matching_rounds(read_decklist_cache(p)).rows()
    [('demo-1-2025-01-10', 'A', [1]), ('demo-1-2025-01-10', 'B', [2])]
    """
    from swissframe.io.decklist import DecklistEvents

    check_events(ev, (DecklistEvents,), call="matching_rounds",
                 hint="ev = sf.read_decklist_cache(path); sf.matching_rounds(ev)")
    assigned, named = _assignment(ev, rules, melee_era)
    codes = ev.events.select("event_id").unique().with_row_index("_code")
    dec = ev.events.select("event_id", "decimals")
    parts: list[pl.DataFrame] = []
    for name in sorted(assigned["ruleset"].unique().to_list()):
        ruleset = dataclasses.replace(named[name], snapshot="final")
        sub = (ev.results.join(assigned.filter(pl.col("ruleset") == name)
                               .select("event_id"), on="event_id", how="semi")
               .join(codes, on="event_id"))
        if not sub.height:
            continue
        # one copy of each event per cutoff round c holding its rounds <= c; the copy's
        # event_id is "<code>:<c>" so any original id (whatever characters) round-trips
        cuts = sub.select("event_id", pl.col("round").alias("_c")).unique()
        copies = (cutoff_rows(sub.lazy(), ["event_id"], cuts.lazy(), through="_c")
                  .pipe(collect)
                  .with_columns(pl.format("{}:{}", "_code", "_c").alias("event_id"))
                  .drop("_c", "_code"))
        got = platform_values(copies, ruleset).with_columns(
            pl.col("event_id").str.split(":").list.get(0).cast(pl.UInt32).alias("_code"),
            pl.col("event_id").str.split(":").list.get(1).cast(pl.Int64).alias("round"),
        ).drop("event_id").join(codes, on="_code").join(dec, on="event_id", how="left")
        parts.append(_as_published(got, ruleset))
    pub = ev.published.select("event_id", "player_id",
                              *[pl.col(c).alias(f"{c}_published") for c in _VALUES])
    out_schema: dict[str, pl.DataType] = {"event_id": pl.String(), "player_id": pl.String(),
                                          "rounds": pl.List(pl.Int64)}
    if not parts:
        return pl.DataFrame(schema=out_schema)
    table = pl.concat(parts, how="diagonal_relaxed").join(pub, on=["event_id", "player_id"])
    ok = pl.all_horizontal(_value_match(c).fill_null(value=True) for c in _VALUES)
    return (table.group_by("event_id", "player_id")
            .agg(pl.col("round").filter(ok).sort().alias("rounds"))
            .select(list(out_schema)).sort("event_id", "player_id"))
