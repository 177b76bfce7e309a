"""The ruleset's opponent options (``distinct_opponents``, ``unopposed_loss_games``,
``opponent_mw_rounds``) against a plain reference: the formulation ``platform_values`` used
before they were engine fields (the engine's per-player rates with the options off, the
no-show rows left out of a second call for GW%, and the opponents' means taken by hand),
on random events with rematches, byes, no-shows and missed rounds; one event and several,
through ``standings`` and ``standings_by_round``."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from unittest import mock

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe.engine import _exact as ex_mod
from swissframe.engine._record import clamp_float, opponents_as_met
from swissframe.engine.standings import _by_round
from swissframe.rules import MTG_DCI_REPORTER

KEEP = ("event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
        "games_drawn", "phase", "unplayed")
#: The options on, each alone and together (the MTR's own values otherwise).
VARIANTS = {
    "distinct": {"distinct_opponents": True},
    "ignore": {"unopposed_loss_games": "ignore"},
    "event": {"opponent_mw_rounds": "event"},
    "all": {"distinct_opponents": True, "unopposed_loss_games": "ignore",
            "opponent_mw_rounds": "event"},
}


def _event(seed: int, ev: str, players: int, rounds: int) -> list[dict[str, object]]:
    """Random pairings each round (so rematches happen), a bye for the odd player out,
    no-shows (an unopposed 0-2 forfeit loss), and players who miss a round or leave."""
    rng = random.Random(seed)
    ids = [f"{ev}p{i}" for i in range(players)]
    rows: list[dict[str, object]] = []

    def row(r: int, p: str, o: str | None, w: int, lo: int, d: int,
            kind: str | None) -> None:
        rows.append({"event_id": ev, "round": r, "player_id": p, "opponent_id": o,
                     "games_won": w, "games_lost": lo, "games_drawn": d, "phase": "swiss",
                     "unplayed": kind})

    gone: set[str] = set()
    for r in range(1, rounds + 1):
        here = [p for p in ids if p not in gone and rng.random() > 0.1]
        gone |= {p for p in here if rng.random() < 0.1}
        rng.shuffle(here)
        if len(here) % 2:
            lone = here.pop()
            if rng.random() < 0.5:
                row(r, lone, None, 2, 0, 0, "pairing_bye")
            else:
                row(r, lone, None, 0, 2, 0, "forfeit_loss")
        for a, b in zip(here[::2], here[1::2], strict=True):
            w, lo, d = rng.choice([(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (1, 1, 1),
                                   (0, 0, 3), (1, 0, 0)])
            row(r, a, b, w, lo, d, None)
            row(r, b, a, lo, w, d, None)
    return rows


def _results(seed: int, events: int) -> pl.DataFrame:
    rng = random.Random(seed)
    rows = [r for e in range(events)
            for r in _event(rng.randrange(2**32), f"e{e}", rng.randint(3, 9), rng.randint(1, 5))]
    return pl.DataFrame(rows, schema={"event_id": pl.String, "round": pl.Int64,
                                      "player_id": pl.String, "opponent_id": pl.String,
                                      "games_won": pl.Int64, "games_lost": pl.Int64,
                                      "games_drawn": pl.Int64, "phase": pl.String,
                                      "unplayed": pl.String})


def _reference(df: pl.DataFrame, rules: sf.Ruleset) -> pl.DataFrame:
    """OMW%, GW%, OGW% as ``platform_values`` computed them before the engine had the
    options: the engine's own rates with the options off, the opponents' means by hand."""
    plain = dataclasses.replace(rules, name="plain", distinct_opponents=False,
                                unopposed_loss_games="count", opponent_mw_rounds="played")
    base = sf.standings(df, plain).select("event_id", "player_id", "mwp", "gwp",
                                          "match_points", "dropped")
    if rules.unopposed_loss_games == "ignore":
        no_show = (pl.col("unplayed") == "forfeit_loss") & pl.col("opponent_id").is_null()
        sub = df.filter(~no_show)
        gw = (sf.standings(sub, plain).select("event_id", "player_id", pl.col("gwp").alias("_g"))
              if sub.height else pl.DataFrame(schema={"event_id": pl.String,
                                                      "player_id": pl.String,
                                                      "_g": pl.Float64}))
        hit = df.filter(no_show).select("event_id", "player_id").unique()
        base = (base.join(hit.with_columns(_hit=pl.lit(value=True)),
                          on=["event_id", "player_id"], how="left")
                .join(gw, on=["event_id", "player_id"], how="left")
                .with_columns(gwp=pl.when(pl.col("_hit")).then(pl.col("_g"))
                              .otherwise(pl.col("gwp"))).drop("_hit", "_g"))
    om = pl.col("mwp")
    if rules.opponent_mw_rounds == "event":
        n = df.group_by("event_id").agg(_n=pl.col("round").n_unique())
        base = base.join(n, on="event_id")
        om = clamp_float(pl.col("match_points") / (float(rules.points_win) * pl.col("_n")),
                         rules, pl.col("dropped"))
    opp = base.select("event_id", pl.col("player_id").alias("opponent_id"), om.alias("_om"),
                      clamp_float(pl.col("gwp"), rules, pl.col("dropped")).alias("_og"))
    faced = df.filter(pl.col("opponent_id").is_not_null()).select(
        "event_id", "player_id", "opponent_id")
    if rules.distinct_opponents:
        faced = faced.unique()
    means = (faced.join(opp, on=["event_id", "opponent_id"], how="left")
             .group_by("event_id", "player_id")
             .agg(omwp=pl.col("_om").mean(), ogwp=pl.col("_og").mean()))
    return (base.join(means, on=["event_id", "player_id"], how="left")
            .select("event_id", "player_id", "omwp", "gwp", "ogwp"))


def _close(got: pl.DataFrame, want: pl.DataFrame, what: str) -> None:
    both = got.join(want, on=["event_id", "player_id"], how="full", coalesce=True,
                    suffix="_ref")
    assert both.height == got.height == want.height, what
    for c in ("omwp", "gwp", "ogwp"):
        a, b = pl.col(c), pl.col(f"{c}_ref")
        bad = both.filter((a.is_null() != b.is_null())
                          | ((a - b).abs() > 1e-12).fill_null(value=False))
        assert bad.height == 0, (what, c, bad)


def _ruleset(variant: str) -> sf.Ruleset:
    return dataclasses.replace(MTG_DCI_REPORTER, name=f"mtg-{variant}", bye_games=None,
                               **VARIANTS[variant])  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), events=st.integers(1, 3),
       variant=st.sampled_from(sorted(VARIANTS)))
def test_options_equal_the_plain_reference(seed: int, events: int, variant: str) -> None:
    df = _results(seed, events)
    rules = _ruleset(variant)
    want = _reference(df, rules)
    got = sf.standings(df, rules)
    _close(got.select("event_id", "player_id", "omwp", "gwp", "ogwp"), want, "standings")
    # the by-round path at each event's last round, and the keyed path (every event a key)
    last = (sf.standings_by_round(df, rules)
            .filter(pl.col("round") == pl.col("round").max().over("event_id")))
    _close(last.select("event_id", "player_id", "omwp", "gwp", "ogwp"), want, "by_round")
    keyed = sf.standings(df.with_columns(k=pl.col("event_id")), rules, keys=["k"])
    _close(keyed.select("event_id", "player_id", "omwp", "gwp", "ogwp"), want, "keys")
    # the fast paths asked for as on a large table (packed seats and sums, running sums):
    # each hands these rulesets to the general path
    with mock.patch.object(ex_mod, "PACK_MIN_ROWS", 0):
        packed = sf.standings(df, rules)
    _close(packed.select("event_id", "player_id", "omwp", "gwp", "ogwp"), want, "packed")
    running = _by_round(df, rules, (), cumulative=True).filter(
        pl.col("round") == pl.col("round").max().over("event_id"))
    _close(running.select("event_id", "player_id", "omwp", "gwp", "ogwp"), want, "running")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_options_off_are_the_default_paths(seed: int) -> None:
    # an event without rematches, no-shows or missed rounds: every option gives the MTR's
    # values (nothing to count once, no games to leave out, every round played)
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(2 * rng.randint(2, 4))]
    rows = []
    for r in (1, 2):
        order = players[r - 1:] + players[:r - 1] if r == 2 else players
        for a, b in zip(order[::2], order[1::2], strict=True):
            w, lo = rng.choice([(2, 0), (2, 1), (1, 2), (0, 2)])
            rows += [("e", r, a, b, w, lo), ("e", r, b, a, lo, w)]
    df = pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
                                                  "opponent_id", "games_won", "games_lost"]
                      ).with_columns(games_drawn=pl.lit(0), phase=pl.lit("swiss"))
    cols = ["player_id", "omwp", "gwp", "ogwp"]
    plain = sf.standings(df, _ruleset("all")).sort("player_id").select(cols)
    off = dataclasses.replace(_ruleset("all"), name="off", distinct_opponents=False,
                              unopposed_loss_games="count", opponent_mw_rounds="played")
    assert opponents_as_met(off)
    assert plain.equals(sf.standings(df, off).sort("player_id").select(cols))


def test_each_option_changes_what_it_says() -> None:
    # A beats B twice (rounds 1 and 3) and C once; B then C... one table per option, by hand
    rows = [("e", 1, "A", "B", 2, 0, None), ("e", 1, "B", "A", 0, 2, None),
            ("e", 1, "C", None, 0, 2, "forfeit_loss"),
            ("e", 2, "A", "C", 2, 1, None), ("e", 2, "C", "A", 1, 2, None),
            ("e", 2, "B", None, 2, 0, "pairing_bye"),
            ("e", 3, "A", "B", 2, 1, None), ("e", 3, "B", "A", 1, 2, None)]
    df = pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
                                                  "opponent_id", "games_won", "games_lost",
                                                  "unplayed"]
                      ).with_columns(games_drawn=pl.lit(0), phase=pl.lit("swiss"))

    def a_values(variant: str) -> tuple[float, float, float]:
        got = sf.standings(df, _ruleset(variant)).filter(pl.col("player_id") == "A")
        return got.select("omwp", "gwp", "ogwp").row(0)

    third = float(Fraction(1, 3))
    # B: L, bye, L = 1/3; C: no-show L, L (2 rounds) = 0 -> 1/3
    # C's games: 0-2 and 1-2 = 1/5 -> 1/3; without the no-show's: 1/3
    omw_plain, _, _ = a_values("event")
    omw_distinct, _, ogw_distinct = a_values("distinct")
    assert omw_distinct == pytest.approx((third + third) / 2)
    # C, who played 2 of the 3 rounds: 0 points / 9 -> floored 1/3 either way; B over 3
    assert omw_plain == pytest.approx((third * 2 + third) / 3)
    # B's games (0-2, bye 2-0, 1-2): 3/7; C's with the no-show ignored: 1/3
    _, _, ogw_ignore = a_values("ignore")
    assert ogw_ignore == pytest.approx((3 / 7 * 2 + third) / 3)
    assert ogw_distinct == pytest.approx((3 / 7 + third) / 2)
    c = sf.standings(df, _ruleset("ignore")).filter(pl.col("player_id") == "C")
    assert c["gwp"].item() == pytest.approx(third)  # 1/3 of C's own games, the no-show's out
    assert c["match_points"].item() == 0  # the no-show is still a loss


def test_explain_shows_each_option() -> None:
    # A meets B twice; C misses round 2 (event rounds: C's rate over 3 rounds)
    rows = [("e", 1, "A", "B", 2, 0), ("e", 1, "B", "A", 0, 2),
            ("e", 1, "C", "D", 2, 0), ("e", 1, "D", "C", 0, 2),
            ("e", 2, "A", "D", 2, 1), ("e", 2, "D", "A", 1, 2),
            ("e", 3, "A", "B", 2, 1), ("e", 3, "B", "A", 1, 2),
            ("e", 3, "C", "D", 2, 0), ("e", 3, "D", "C", 0, 2)]
    df = pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
                                                  "opponent_id", "games_won", "games_lost"]
                      ).with_columns(games_drawn=pl.lit(0), phase=pl.lit("swiss"))
    ex = sf.explain(df, "A", rules=_ruleset("all"))
    body = ex.filter(pl.col("round").is_not_null()).sort("round")
    assert body["excluded"].to_list() == [False, False, True]
    assert "counts once" in body["note"][2]
    total = ex.filter(pl.col("round").is_null())
    assert total["opp_mwp"].item() == pytest.approx(body["opp_mwp"].drop_nulls().mean())
    assert total["opp_mwp"].item() == sf.standings(df, _ruleset("all")).filter(
        pl.col("player_id") == "A")["omwp"].item()
    ex_c = sf.explain(df, "D", rules=_ruleset("all"))
    note_c = ex_c.filter(pl.col("opponent_id") == "C").sort("round")["note"].to_list()
    # C won both rounds played (rate 1), 2 of the event's 3 (2/3); met again in round 3
    assert "all 3 rounds" in note_c[0]
    assert note_c[0].endswith(": 0.666667")
    assert "counts once" in note_c[1]
