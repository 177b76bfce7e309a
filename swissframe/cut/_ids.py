"""Intentional draws: advice per final-round table (:func:`id_advice`), detection by
source (:func:`detect_intentional_draws`) and a report over past events (:func:`id_report`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

import polars as pl

from swissframe._collect import collect, scoped
from swissframe.cut._round import (
    KEY,
    PAIRINGS_MADE_BY,
    Frame,
    check_pairing_types,
    keyed_uniform,
)
from swissframe.cut._scenarios import ROW_BUDGET
from swissframe.cut._status import cut_status
from swissframe.cut._words import A_SAFE, B_SAFE, BOTH_OUT, BOTH_SAFE, NEITHER_SAFE
from swissframe.engine.standings import standings
from swissframe.errors import (
    MAX_TABLE_ROWS,
    DataError,
    check_game_triples,
    check_seed,
    check_top,
    check_whole,
    did_you_mean,
)
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import (
    FLAG_COLUMNS,
    GAME_COLUMNS,
    OPTIONAL_COLUMNS,
    RESULT_COLUMNS,
    as_frame,
    check_output,
    validate_results,
)

__all__ = ["ID_SCORES", "IdReport", "detect_intentional_draws", "id_advice", "id_report"]

#: How each source records an intentional draw (games won, lost, drawn of either seat).
#: EventLink/melee.gg report 0-0-3 (MTR §2.5); WER before 2019 also allowed a 0-0 "draw
#: button"; Topdeck.gg reports matches only (0-0-1 = any draw, so every draw is flagged).
ID_SCORES: Final[Mapping[str, tuple[tuple[int, int, int], ...]]] = MappingProxyType({
    "mtg": ((0, 0, 3),),
    "melee": ((0, 0, 3),),
    "eventlink": ((0, 0, 3),),
    "wer": ((0, 0, 3), (0, 0, 0)),
    "topdeck": ((0, 0, 1),),
    "cardsrealm": ((0, 0, 3),),
    "manatraders": ((0, 0, 3),),
})


def _advice_text(a_draw: pl.Expr, b_draw: pl.Expr) -> pl.Expr:
    g = pl.lit("guaranteed")
    return (pl.when((a_draw == g) & (b_draw == g)).then(pl.lit(BOTH_SAFE))
            .when(a_draw == g).then(pl.lit(A_SAFE))
            .when(b_draw == g).then(pl.lit(B_SAFE))
            .when((a_draw == "eliminated") & (b_draw == "eliminated"))
            .then(pl.lit(BOTH_OUT))
            .otherwise(pl.lit(NEITHER_SAFE)))


def _given_status(status: pl.DataFrame, pairings: pl.DataFrame) -> pl.DataFrame:
    """A ``status`` table given to :func:`id_advice`, checked as a cut_status result, and
    the pairings checked as :func:`cut_status` checks them (it does so itself when it
    computes the status)."""
    st = as_frame(status, what="status table", made_by="sf.cut_status(results, pairings)")
    # (a table of another analysis ended in Polars' ColumnNotFoundError, a mistyped one in
    # its bare join, cast or comparison errors deeper in)
    check_output(st, (*KEY, "outcome", "status", "probability", "match_points"),
                 what="status", result="a cut_status result",
                 hint="status=sf.cut_status(results, pairings, top), or leave it out.")
    check_pairing_types(pairings)
    return st


def _check_status_options(kwargs: Mapping[str, object], *, given: bool) -> None:
    """``id_advice``'s keywords for :func:`cut_status`: each one of its options, and none
    beside a ``status`` already computed, or a :class:`DataError` (bad data 248). A
    misspelt one was Python's ``TypeError`` naming ``cut_status()``, a function the caller
    did not call, and one given with ``status=`` was dropped without a word."""
    import inspect

    options = [p.name for p in inspect.signature(cut_status).parameters.values()
               if p.kind is inspect.Parameter.KEYWORD_ONLY]
    for name in kwargs:
        if name not in options:
            msg = (f"id_advice takes no option {name!r}. Hint: "
                   + did_you_mean(name, options, f"its cut_status options are {options}"))
            raise DataError(msg + ("" if msg.endswith("?") else "."))
    if given and kwargs:
        msg = (f"id_advice was given status= and cut_status options ({', '.join(kwargs)}), "
               "which only make a status: they would be ignored. Hint: pass them to the "
               "cut_status call that made status, or leave status out.")
        raise DataError(msg)


@scoped
def id_advice(results: Frame, pairings: Frame, top: int = 8, rules: str | Ruleset = "mtg",
              *, status: pl.DataFrame | None = None, **kwargs: object) -> pl.DataFrame:
    """Per final-round table: can both players draw into the cut, and what a draw is worth.

    Parameters
    ----------
    results, pairings, top, rules
        As for :func:`cut_status`.
    status
        A :func:`cut_status` result to reuse (computed when absent; ``kwargs`` are passed).

    Returns
    -------
    DataFrame
        One row per match: ``event_id, table, player_a, player_b``, each seat's status
        after a win / draw / loss (``a_win`` … ``b_loss``), the probabilities
        (``a_p_win`` …), ``advice`` and each seat's ``*_gain_draw``: the probability of
        making the cut after a draw minus the probability when playing it out (the
        mean over win and loss, i.e. an even match).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    >>> pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
    ...                       "opponent_id": ["C", "A", "D", "B"]})
    >>> adv = sf.cut.id_advice(sf.from_matches(m), pairs, top=2)
    >>> adv.select("player_a", "player_b", "a_draw", "b_draw", "advice").row(0)
    ('A', 'C', 'guaranteed', 'guaranteed', 'both can draw in')
    """
    _check_status_options(kwargs, given=status is not None)
    pr = as_frame(pairings, what="pairings table", made_by=PAIRINGS_MADE_BY)
    if status is None:  # (cut_status checks the pairings and writes its table as it should)
        st = cut_status(results, pr, top, rules, **kwargs)  # type: ignore[arg-type]
    else:
        st = _given_status(status, pr)
    if "event_id" not in pr.columns:
        pr = pr.with_columns(event_id=pl.lit(st["event_id"][0] if st.height else "event"))
    wide = (st.filter(pl.col("outcome").is_in(["win", "draw", "loss"]))
            .pivot(on="outcome", index=KEY, values=["status", "probability"],
                   aggregate_function="first"))
    for o in ("win", "draw", "loss"):
        for v in ("status", "probability"):
            if f"{v}_{o}" not in wide.columns:
                dt = pl.String if v == "status" else pl.Float64
                wide = wide.with_columns(pl.lit(None, dtype=dt).alias(f"{v}_{o}"))
    a = wide.select(*KEY, *(pl.col(f"status_{o}").alias(f"a_{o}") for o in ("win", "draw", "loss")),
                    *(pl.col(f"probability_{o}").alias(f"a_p_{o}")
                      for o in ("win", "draw", "loss")))
    b = a.rename({c: "b" + c[1:] for c in a.columns if c.startswith("a_")})
    pts = st.group_by(KEY).agg(pl.col("match_points").max().alias("_mp"))
    matches = (pr.filter(pl.col("opponent_id").is_not_null()
                         & (pl.col("player_id").cast(pl.String)
                            < pl.col("opponent_id").cast(pl.String)))
               .select(pl.col("event_id").cast(pl.String),
                       pl.col("player_id").cast(pl.String).alias("player_a"),
                       pl.col("opponent_id").cast(pl.String).alias("player_b")))
    out = (matches.join(a.rename({"player_id": "player_a"}), on=["event_id", "player_a"],
                        how="left")
           .join(b.rename({"player_id": "player_b"}), on=["event_id", "player_b"], how="left")
           .join(pts.rename({"player_id": "player_a", "_mp": "_ma"}),
                 on=["event_id", "player_a"], how="left")
           .join(pts.rename({"player_id": "player_b", "_mp": "_mb"}),
                 on=["event_id", "player_b"], how="left")
           .with_columns(_top=pl.max_horizontal("_ma", "_mb"))
           .sort(["event_id", "_top", "player_a"], descending=[False, True, False])
           .with_columns(table=pl.int_range(1, pl.len() + 1).over("event_id"))
           .with_columns(
               advice=_advice_text(pl.col("a_draw"), pl.col("b_draw")),
               a_gain_draw=pl.col("a_p_draw") - (pl.col("a_p_win") + pl.col("a_p_loss")) / 2,
               b_gain_draw=pl.col("b_p_draw") - (pl.col("b_p_win") + pl.col("b_p_loss")) / 2))
    return out.select("event_id", "table", "player_a", "player_b", "a_win", "a_draw", "a_loss",
                      "b_win", "b_draw", "b_loss", "a_p_win", "a_p_draw", "a_p_loss",
                      "b_p_win", "b_p_draw", "b_p_loss", "a_gain_draw", "b_gain_draw",
                      "advice")


@scoped
def detect_intentional_draws(results: Frame, source: str | Iterable[tuple[int, int, int]]
                             = "mtg") -> pl.DataFrame:
    """Flag intentional draws with a documented, source-aware rule.

    A Swiss match is an intentional draw when its game score (either seat) is one of the
    source's ID scores (:data:`ID_SCORES`): 0-0-3 for EventLink / melee.gg (MTR §2.5), also
    0-0 on WER (its "draw button"), any 0-0-1 draw on match-level sources (Topdeck.gg) —
    there every draw is flagged since the source cannot tell them apart. Other draws (1-1-0,
    1-1-1, …) are played-out draws. When ``results`` has a ``source`` column, each event
    uses its own source's rule.

    Returns
    -------
    DataFrame
        The input rows with a boolean ``intentional_draw`` column (in place of an input
        column of that name).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [0, 1], "games_b": [0, 1], "games_drawn": [3, 1]})
    >>> r = detect_intentional_draws(sf.from_matches(m))
    >>> r.filter(pl.col("intentional_draw"))["player_id"].sort().to_list()
    ['A', 'B']
    """
    df = validate_results(results).pipe(collect)
    # (an input column of the output's name was the join's left side: its values came
    # back as the flags, or the flag's & failed on its dtype)
    df = df.drop("intentional_draw", strict=False)

    def table(name: str, scores: Iterable[tuple[int, int, int]]) -> pl.DataFrame:
        return pl.DataFrame(
            [(name, int(s[0]), int(s[1]), int(s[2])) for s in scores],
            schema={"_src": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
                    "games_drawn": pl.Int64}, orient="row")

    if isinstance(source, str):
        if source not in ID_SCORES:
            msg = (f"unknown source {source!r} for intentional-draw detection. Hint: one of "
                   f"{sorted(ID_SCORES)}, or pass the ID game scores themselves.")
            raise DataError(msg)
        default = source
        rules_t = pl.concat([table(k, v) for k, v in ID_SCORES.items()])
    else:
        default = "custom"
        rules_t = table("custom", check_game_triples(
            "source", source, hint=f"one of {sorted(ID_SCORES)}, or the ID scores, e.g. "
            "[(0, 0, 3)]"))
    src = (pl.col("source").cast(pl.String).str.to_lowercase().fill_null(default)
           if "source" in df.columns and isinstance(source, str) else pl.lit(default))
    flagged = (df.with_columns(_src=src)
               .join(rules_t.with_columns(_flag=pl.lit(value=True)),
                     on=["_src", "games_won", "games_lost", "games_drawn"], how="left")
               .with_columns(intentional_draw=pl.col("_flag").fill_null(value=False)
                             & pl.col("opponent_id").is_not_null()
                             & (pl.col("games_won") == pl.col("games_lost"))))
    return flagged.drop("_src", "_flag")


@dataclass(frozen=True)
class IdReport:
    """Result of :func:`id_report`.

    Attributes
    ----------
    events
        One row per event: final Swiss round, number of IDs (final round / earlier), the
        cut line (points, OMW%, GW%, OGW% of places N and N+1), how many final-round IDs
        were safe, and the counterfactual (IDs played out): mean cut-line points, the share
        of simulations whose top-N set differs, the mean number of players replaced
        (``cf_*`` columns, null for an event without IDs or with ``n_sims=0``).
    draws
        One row per intentional draw (per match): event, round, the two players, whether
        each seat was safe (status "guaranteed" with a draw, from the results before that
        round; final round only — null for earlier rounds), and each seat's share of
        counterfactual simulations in which they still make the top N.
    """

    events: pl.DataFrame
    draws: pl.DataFrame

    def _facts(self) -> list[str]:
        from swissframe._display import count

        final = self.draws.filter(pl.col("final_round")) if "final_round" in \
            self.draws.columns else self.draws
        safe = (final.filter(pl.col("safe_a") & pl.col("safe_b")).height
                if {"safe_a", "safe_b"} <= set(final.columns) else 0)
        return [count(self.events.height, "event"),
                count(self.draws.height, "intentional draw"),
                f"{final.height:,} in a final round ({safe:,} safe for both players)"]

    def __repr__(self) -> str:
        """A one-line summary (the frames are ``.events`` and ``.draws``).

        >>> d = pl.DataFrame({"final_round": [True], "safe_a": [True], "safe_b": [False]})
        >>> IdReport(pl.DataFrame({"event_id": ["e"]}), d)
        IdReport: 1 event, 1 intentional draw, 1 in a final round (0 safe for both players)
        — .events, .draws
        """
        from swissframe._display import summary_text

        return summary_text("IdReport", self._facts(), ["events", "draws"])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("IdReport", self._facts(), {"events": self.events,
                                                        "draws": self.draws})


def _cut_line(st: pl.DataFrame, top: int) -> pl.DataFrame:
    pos = st.with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id"))
    cols = ["match_points", "omwp", "gwp", "ogwp"]
    n = pos.filter(pl.col("_pos") == top).select(
        "event_id", *(pl.col(c).alias(f"{c}_n") for c in cols))
    n1 = pos.filter(pl.col("_pos") == top + 1).select(
        "event_id", *(pl.col(c).alias(f"{c}_n1") for c in cols))
    return n.join(n1, on="event_id", how="full", coalesce=True)


@scoped
def id_report(results: Frame, top: int = 8, rules: str | Ruleset = "mtg", *,
              source: str | Iterable[tuple[int, int, int]] = "mtg", n_sims: int = 50,
              seed: int | None = 0, exact_limit: int = 0) -> IdReport:
    """Historical intentional draws and the cut, over many past events.

    Parameters
    ----------
    results
        Complete events (Swiss rows are used; playoff rows are ignored).
    top
        Size of the cut.
    rules
        Ruleset.
    source
        Source name (or ID game scores) for :func:`detect_intentional_draws`.
    n_sims
        Counterfactual simulations: every ID is replaced by a played-out result drawn
        uniformly from the ruleset's decisive ``match_outcomes`` (a best-of-three's 2-0,
        2-1, 1-2, 0-2; a two-game match's 2-0, 0-2, 1-0-1, 0-1-1); standings per
        ``scenario_id`` in one pass.
    seed
        Random seed (None: fresh entropy, other counterfactuals on each call).
    exact_limit
        Passed to :func:`cut_status` for the safety check (0 = ranges only, fastest).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 0, 2],
    ...     "games_b": [0, 0, 0, 0], "games_drawn": [0, 0, 3, 0]})
    >>> rep = sf.cut.id_report(sf.from_matches(m), top=2, n_sims=10)
    >>> rep.draws.select("round", "player_a", "player_b", "safe_a", "safe_b").row(0)
    (2, 'A', 'C', True, True)
    """
    # (checked up front: with no intentional draw to judge they would pass unseen)
    check_top(top)
    check_whole("n_sims", n_sims, hint="e.g. n_sims=100")
    check_seed(seed)
    rs = get(rules)
    # the contract's columns only: an input column named like one of the analysis's own
    # (scenario_id, a key of the counterfactual standings) failed or changed the report
    flagged = detect_intentional_draws(results, source)
    df = flagged.select(c for c in (*RESULT_COLUMNS, *OPTIONAL_COLUMNS, *FLAG_COLUMNS,
                                    "intentional_draw") if c in flagged.columns
                        ).filter(pl.col("phase") == "swiss")
    final = df.group_by("event_id").agg(pl.col("round").max().alias("_R"))
    df = df.join(final, on="event_id")
    ids = (df.filter(pl.col("intentional_draw")
                     & (pl.col("player_id") < pl.col("opponent_id")))
           .select("event_id", "round", pl.col("player_id").alias("player_a"),
                   pl.col("opponent_id").alias("player_b"),
                   (pl.col("round") == pl.col("_R")).alias("final_round")))
    base = standings(df.drop("_R", "intentional_draw"), rs)
    line = _cut_line(base, top)
    # safety of final-round IDs, judged from the rounds before
    prior = df.filter(pl.col("round") < pl.col("_R")).drop("_R", "intentional_draw")
    pair = df.filter(pl.col("round") == pl.col("_R")).select(
        "event_id", "round", "player_id", "opponent_id")
    with_ids = ids.filter(pl.col("final_round"))["event_id"].unique()
    safe = pl.DataFrame(schema={"event_id": pl.String, "player_id": pl.String,
                                "_safe": pl.Boolean})
    if with_ids.len():
        multi = prior.filter(pl.col("event_id").is_in(with_ids.implode()))
        # (an event whose final round is its first has no rounds before it to judge the
        # draw from: its safety stays null, as when it is the only event — its pairings
        # beside the others' made cut_status refuse them as an event the results lack)
        judged = multi.get_column("event_id").unique()
        if multi.height:
            st = cut_status(multi, pair.filter(pl.col("event_id").is_in(judged.implode())),
                            top, rs, exact_limit=exact_limit, n_sims=0)
            safe = st.filter(pl.col("outcome") == "draw").select(
                *KEY, (pl.col("status") == "guaranteed").alias("_safe"))
    # counterfactual: every ID played out
    cf = _counterfactual(df.drop("_R"), base, rs, top, n_sims=n_sims, seed=seed)
    top_base = base.with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id")).filter(
        pl.col("_pos") <= top)
    draws = (ids.join(safe.rename({"player_id": "player_a", "_safe": "safe_a"}),
                      on=["event_id", "player_a"], how="left")
             .join(safe.rename({"player_id": "player_b", "_safe": "safe_b"}),
                   on=["event_id", "player_b"], how="left")
             .with_columns(pl.when(pl.col("final_round")).then(pl.col(c)).alias(c)
                           for c in ("safe_a", "safe_b")))
    if cf is not None:
        share = cf["player_share"]
        draws = (draws.join(share.rename({"player_id": "player_a", "_share": "cf_top_a"}),
                            on=["event_id", "player_a"], how="left")
                 .join(share.rename({"player_id": "player_b", "_share": "cf_top_b"}),
                       on=["event_id", "player_b"], how="left"))
    else:
        draws = draws.with_columns(cf_top_a=pl.lit(None, dtype=pl.Float64),
                                   cf_top_b=pl.lit(None, dtype=pl.Float64))
    in_top = top_base.select("event_id", "player_id", _in=pl.lit(value=True))
    draws = (draws
             .join(in_top.rename({"player_id": "player_a", "_in": "in_top_a"}),
                   on=["event_id", "player_a"], how="left")
             .join(in_top.rename({"player_id": "player_b", "_in": "in_top_b"}),
                   on=["event_id", "player_b"], how="left")
             .with_columns(pl.col("in_top_a", "in_top_b").fill_null(value=False)))
    counts = ids.group_by("event_id").agg(
        ids_final=pl.col("final_round").sum(), ids_earlier=(~pl.col("final_round")).sum())
    safe_ct = draws.filter(pl.col("final_round")).group_by("event_id").agg(
        final_ids_safe_both=(pl.col("safe_a") & pl.col("safe_b")).sum())
    events = (final.rename({"_R": "swiss_rounds"}).join(counts, on="event_id", how="left")
              .join(safe_ct, on="event_id", how="left").join(line, on="event_id", how="left")
              .with_columns(pl.col("ids_final", "ids_earlier", "final_ids_safe_both")
                            .fill_null(0)))
    # (always the counterfactual's columns, null where no ID was played out: an event's
    # columns do not depend on whether another event of the call had IDs)
    events = (events.join(cf["event"], on="event_id", how="left") if cf is not None
              else events.with_columns(pl.lit(None, dtype=pl.Float64).alias(c) for c in CF_EVENT))
    return IdReport(events=events.sort("event_id"),
                    draws=draws.sort("event_id", "round", "player_a"))


#: The counterfactual's columns of :attr:`IdReport.events`.
CF_EVENT: Final = ("cf_cut_points_mean", "cf_topn_changed_share", "cf_players_replaced_mean")


def _counterfactual(df: pl.DataFrame, base: pl.DataFrame, rules: Ruleset, top: int, *,
                    n_sims: int, seed: int | None) -> dict[str, pl.DataFrame] | None:
    """Replay every ID as a random decisive result, ``n_sims`` times, in one engine pass."""
    is_id = pl.col("intentional_draw")
    # (a match space without a decisive result has nothing to play an ID out to)
    decisive = any(o[0] != o[1] for o in rules.match_outcomes)
    if n_sims <= 0 or not decisive or not df.filter(is_id).height:
        return None
    pairs = (df.filter(is_id & (pl.col("player_id") < pl.col("opponent_id")))
             .select("event_id", "round", "player_id", "opponent_id"))
    events = pairs["event_id"].unique().implode()
    # every scenario repeats the rows of the events with IDs: checked before any array
    # (n_sims=2**40 ended in NumPy's "Unable to allocate 8.00 TiB", 2**70 in a ValueError)
    per = df.filter(pl.col("event_id").is_in(events)).height
    check_whole("n_sims", n_sims, high=MAX_TABLE_ROWS // per,
                hint=f"n_sims × {per:,} result rows of the events with IDs make one table, "
                     f"at most {MAX_TABLE_ROWS:,} rows; e.g. n_sims=100")
    try:
        return _replayed(df, base, rules, top, pairs=pairs, events=events, n_sims=n_sims,
                         seed=seed)
    except MemoryError:
        msg = (f"n_sims={n_sims:,} replays {n_sims * per:,} result rows, more than memory "
               "holds. Hint: fewer simulations, e.g. n_sims=100.")
        raise DataError(msg) from None


def _replayed(df: pl.DataFrame, base: pl.DataFrame, rules: Ruleset, top: int, *,
              pairs: pl.DataFrame, events: pl.Series, n_sims: int, seed: int | None
              ) -> dict[str, pl.DataFrame]:
    """:func:`_counterfactual`'s replays of the ID ``pairs`` of ``events``."""
    import numpy as np

    is_id = pl.col("intentional_draw")
    # each ID's score is drawn from the scenario and the ID's place among its event's IDs
    # (keyed_uniform): an event's replays are the same alone and beside other events
    grid = (pairs.sort("event_id", "round", "player_id")
            .with_columns(_i=pl.int_range(pl.len()).over("event_id"))
            .join(pl.DataFrame({"scenario_id": np.arange(n_sims)}), how="cross"))
    # (the ruleset's decisive results, Ruleset.match_outcomes: a best-of-three's 2-0, 2-1,
    # 1-2, 0-2 — the replays were those in every game, a 2-1 in a two-game match too)
    scores = np.array([o for o in rules.match_outcomes if o[0] != o[1]], dtype=np.int64)
    u = keyed_uniform(seed, grid["scenario_id"], grid["_i"])
    pick = scores[(u * len(scores)).astype(np.int64)]
    grid = grid.with_columns(games_won=pl.Series(pick[:, 0]), games_lost=pl.Series(pick[:, 1]),
                             games_drawn=pl.Series(pick[:, 2]))
    mirror = grid.select("event_id", "round", pl.col("opponent_id").alias("player_id"),
                         pl.col("player_id").alias("opponent_id"), "scenario_id",
                         pl.col("games_lost").alias("games_won"),
                         pl.col("games_won").alias("games_lost"), "games_drawn")
    # the rows keep their other columns (a melee ruleset reads `stage`, chess `unplayed`):
    # only an ID's games are replaced
    games = list(GAME_COLUMNS)
    pair = ["event_id", "round", "player_id", "opponent_id"]
    cols = ["scenario_id", *(c for c in df.columns if c not in ("intentional_draw", "phase"))]
    played = df.filter(~is_id & pl.col("event_id").is_in(events))
    replays = pl.concat([grid.select(*pair, "scenario_id", *games),
                         mirror.select(*pair, "scenario_id", *games)])
    ids = (df.filter(is_id & pl.col("event_id").is_in(events)).drop(games)
           .join(replays.with_columns(*(pl.col(c).cast(df.schema[c]) for c in games)),
                 on=pair, how="inner").select(cols))
    base_top = (base.with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id"))
                .filter(pl.col("_pos") <= top).select("event_id", "player_id",
                                                      _in_base=pl.lit(value=True)))
    # the scenarios in chunks of about ROW_BUDGET replayed rows: each scenario's standings
    # are its own, so chunks give the same values as one pass, in bounded memory (one
    # pass of 50 scenarios of a 20,000-player event held 3.2 GB)
    size = max(1, ROW_BUDGET // max(played.height + ids.height // n_sims, 1))
    per_s_parts, counts = [], []
    for lo in range(0, n_sims, size):
        chunk = pl.DataFrame({"scenario_id": np.arange(lo, min(lo + size, n_sims))})
        keep = played.join(chunk, how="cross").select(cols)
        sim = pl.concat([keep, ids.filter(pl.col("scenario_id").is_between(
            lo, lo + size - 1))]).with_columns(phase=pl.lit("swiss"))
        st = standings(sim, rules, keys=["scenario_id"]).with_columns(
            _pos=pl.int_range(1, pl.len() + 1).over("event_id", "scenario_id"))
        top_sim = st.filter(pl.col("_pos") <= top)
        per_s_parts.append(
            top_sim.join(base_top, on=KEY, how="left")
            .group_by("event_id", "scenario_id")
            .agg(_new=pl.col("_in_base").is_null().sum(),
                 _line=pl.col("match_points").sort_by("_pos").last()))
        counts.append(top_sim.group_by(KEY).agg(_n=pl.len()))
    per_s = pl.concat(per_s_parts)
    event = per_s.group_by("event_id").agg(
        cf_cut_points_mean=pl.col("_line").cast(pl.Float64).mean(),
        cf_topn_changed_share=(pl.col("_new") > 0).mean(),
        cf_players_replaced_mean=pl.col("_new").cast(pl.Float64).mean())
    share = pl.concat(counts).group_by(KEY).agg(_share=pl.col("_n").sum() / n_sims)
    return {"event": event, "player_share": share}
