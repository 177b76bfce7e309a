"""Capabilities declared at registration: the fast paths' whitelists are derived from them."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from unittest import mock

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings

import swissframe as sf
from swissframe.cut import _round, _scenarios
from swissframe.engine import standings as st_mod
from swissframe.engine.tiebreakers import (
    CAPABILITIES,
    TIEBREAKER_SPECS,
    TIEBREAKERS,
    Context,
    TiebreakerSpec,
    omwp,
    register_tiebreaker,
    supporting,
)
from swissframe.errors import RulesetError
from swissframe.rules import Criterion
from tests.engine.test_standings import random_events
from tests.helpers import REPO_ROOT

#: The hand-kept whitelists before capabilities were declared (commit 76cb4ba).
OLD_CUMULATIVE = {"match_points", "mwp", "gwp", "omwp", "ogwp", "match_wins", "game_wins"}
OLD_OWN = {"match_points": "_pts", "mwp": "_x_mw", "gwp": "_x_gw", "match_wins": "wins",
           "game_wins": "games_won"}
OLD_OPP = {"omwp": "mw", "ogwp": "gw"}
OLD_BOUNDS = {"omwp", "ogwp", "gwp", "mwp"}


def _events() -> pl.DataFrame:
    m = pl.DataFrame({"round": [1, 1, 2, 2, 3, 3], "player_a": ["A", "C", "A", "B", "A", "B"],
                      "player_b": ["B", "D", "C", "D", "D", "C"],
                      "games_a": [2, 2, 2, 1, 0, 2], "games_b": [0, 1, 1, 2, 2, 1],
                      "games_drawn": [0, 0, 0, 0, 0, 0]})
    return sf.from_matches(m)


@pytest.fixture
def alias() -> Iterator[str]:
    """An OMW% alias declaring every capability an opponents' mean can have."""
    name = "omw_alias"

    @register_tiebreaker(name, opponent_mean="mwp_opp", running=True, coded=True,
                         bounds=True, fast=True)
    def omw_alias(ctx: Context, *, name: str = name) -> pl.LazyFrame:
        return omwp(ctx, name=name)

    yield name
    TIEBREAKERS.pop(name, None)
    TIEBREAKER_SPECS.pop(name, None)


def test_whitelists_are_derived_and_equal_the_old_lists() -> None:
    # OOMW% joined the running sums with Context.opponent_totals (the grid sums any
    # per-player values over the opponents met so far, not only the base sources)
    assert set(st_mod._CUMULATIVE_CRITERIA) == OLD_CUMULATIVE | {"oomwp"}
    assert set(st_mod._CODED_CRITERIA) == OLD_CUMULATIVE
    assert dict(_scenarios._OWN) == OLD_OWN
    assert dict(_scenarios._OPP) == OLD_OPP
    rs = dataclasses.replace(sf.rules.MTG, name="all", criteria=tuple(
        Criterion(n) for n in ("match_points", "mwp", "gwp", "omwp", "ogwp", "match_wins",
                               "oomwp")))
    bounded = {name for name, lo, _ in _round.criteria_bounds(rs) if lo.meta.root_names()}
    assert bounded == OLD_BOUNDS


def test_every_spec_matches_its_registry_entry() -> None:
    for name, fn in TIEBREAKERS.items():
        spec = TIEBREAKER_SPECS[name]
        assert spec.function is fn, name
        assert not spec.group, name
        assert spec.capabilities <= set(CAPABILITIES)
    for name in sf.tiebreakers.GROUP_TIEBREAKERS:
        assert TIEBREAKER_SPECS[name].group
        assert not TIEBREAKER_SPECS[name].capabilities


def test_a_registered_capability_reaches_every_path(alias: str) -> None:
    assert alias in st_mod._CUMULATIVE_CRITERIA
    assert _scenarios._OPP[alias] == "mw"
    rs = dataclasses.replace(sf.rules.MTG, name="alias", criteria=(
        sf.rules.POINTS, Criterion(alias), sf.rules.GWP))
    assert st_mod._coded_ok(rs)
    assert st_mod._cumulative_ok(rs)
    assert [n for n, *_ in _round.criteria_bounds(rs)] == [alias, "gwp"]
    # and the fast paths give the reference values
    res = _events()
    fast = st_mod._by_round(res, rs, (), cumulative=True)
    ref = st_mod._by_round(res, rs, (), cumulative=False)
    assert fast.sort("round", "player_id").equals(ref.sort("round", "player_id"))
    direct = sf.standings(res, rs)
    assert direct[alias].to_list() == direct["omwp"].to_list()


def test_an_undeclared_criterion_takes_the_reference_path() -> None:
    @register_tiebreaker("omw_plain")
    def omw_plain(ctx: Context, *, name: str = "omw_plain") -> pl.LazyFrame:
        return omwp(ctx, name=name)

    try:
        rs = dataclasses.replace(sf.rules.MTG, name="plain", criteria=(
            sf.rules.POINTS, Criterion("omw_plain")))
        assert not st_mod._coded_ok(rs)
        assert not st_mod._cumulative_ok(rs)
        assert "omw_plain" not in _scenarios._OPP
        assert [n for n, *_ in _round.criteria_bounds(rs)] == ["omw_plain"]
        lo = _round.criteria_bounds(rs)[0][1]
        assert pl.select(lo).item() == _round.UNKNOWN_LO
        res = _events()
        assert sf.standings(res, rs)["omw_plain"].to_list() == \
            sf.standings(res, "mtg")["omwp"].to_list()
    finally:
        TIEBREAKERS.pop("omw_plain", None)
        TIEBREAKER_SPECS.pop("omw_plain", None)


def test_replacing_a_function_drops_its_capabilities(alias: str) -> None:
    TIEBREAKERS[alias] = omwp  # not what was declared
    assert alias not in supporting("fast")
    assert alias not in _scenarios._OPP


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"fast": True}, "need to know what the value is"),
    ({"own": "mwp", "opponent_mean": "mwp_opp"}, "exclude each other"),
    ({"opponent_mean": "_oinner", "running": True}, "running sums exist only"),
])
def test_inconsistent_declarations_are_refused(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(RulesetError, match=match):
        register_tiebreaker("bad", **kwargs)(omwp)  # type: ignore[arg-type]
    assert "bad" not in TIEBREAKERS


def test_group_criteria_declare_nothing() -> None:
    with pytest.raises(RulesetError, match="group-aware"):
        TiebreakerSpec("g", omwp, group=True, fast=True, kind="own", source="mwp")
    with pytest.raises(RulesetError, match="unknown capability"):
        supporting("vectorized")


def test_fide_tie_breaks_are_registered_with_the_registry() -> None:
    # a fresh interpreter importing only the registry (old code: registered by standings'
    # side-effect import of _chess, so this list lacked them), or only _chess first
    for stmt in ("import swissframe.engine.tiebreakers as t",
                 "import swissframe.engine._chess; import swissframe.engine.tiebreakers as t"):
        code = f"{stmt}; print(sorted(set(t.TIEBREAKERS) & {{'buchholz', 'sb', 'ps', 'win'}}))"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, cwd=REPO_ROOT,
                             env={"PYTHONPATH": str(REPO_ROOT), "PATH": ""})
        assert out.stdout.strip() == "['buchholz', 'ps', 'sb', 'win']", out.stderr
    source = (REPO_ROOT / "swissframe" / "engine" / "standings.py").read_text()
    assert "_chess  # noqa" not in source


def test_a_group_criterion_reading_no_ties_gives_what_it_gives_after_the_ranking() -> None:
    """``random`` is registered with ``ties=False``: standings skip the ranking pass that
    forms the tie groups for it, and give what they give with the pass."""
    from polars.testing import assert_frame_equal

    assert not TIEBREAKER_SPECS["random"].ties
    assert TIEBREAKER_SPECS["head_to_head"].ties
    res = _events()
    fast = (sf.standings(res, "pokemon"), sf.standings_by_round(res, "pokemon"))
    # with the pass, and (keys_only=False) on the table with head-to-head materialised
    # instead of beside it in one query
    for spec in (dataclasses.replace(TIEBREAKER_SPECS["random"], ties=True, keys_only=False),
                 dataclasses.replace(TIEBREAKER_SPECS["random"], keys_only=False)):
        with mock.patch.dict(TIEBREAKER_SPECS, {"random": spec}):
            ref = (sf.standings(res, "pokemon"), sf.standings_by_round(res, "pokemon"))
        for got, want in zip(fast, ref, strict=True):
            assert_frame_equal(got, want, check_exact=True)


def test_keys_only_is_for_a_group_criterion_reading_no_ties() -> None:
    with pytest.raises(RulesetError, match="keys_only"):
        dataclasses.replace(TIEBREAKER_SPECS["head_to_head"], keys_only=True)


def test_untied_columns_are_for_a_group_criterion_reading_the_ties() -> None:
    untied = TIEBREAKER_SPECS["direct_encounter"].untied
    assert untied is not None
    with pytest.raises(RulesetError, match="untied"):
        dataclasses.replace(TIEBREAKER_SPECS["random"], untied=untied)


# ------------------------------------------------------------ what a criterion reads

#: Each rate option changed to another value than MTG's.
_OTHER_VALUE = {"floor": Fraction(1, 3), "floor_own_gw": False, "bye_in_own_rate": False,
                "drawn_game_value": Fraction(0)}


def test_every_rate_option_has_a_changed_value() -> None:
    from swissframe.engine.tiebreakers import RATE_OPTIONS

    assert set(_OTHER_VALUE) == set(RATE_OPTIONS)
    for option, value in _OTHER_VALUE.items():
        assert getattr(sf.rules.MTG, option) != value


def test_reads_must_name_rate_options() -> None:
    with pytest.raises(RulesetError, match="reads="):
        TiebreakerSpec("x", omwp, reads=frozenset({"points_win"}))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(res=random_events())
def test_a_criterion_declaring_what_it_reads_ignores_every_other_rate_option(
        res: pl.DataFrame) -> None:
    """``TiebreakerSpec.reads`` (what ``sensitivity.standard_variants`` trusts to leave a
    variant out) is checked against the engine: ranked by points then the criterion alone,
    changing a rate option it does not declare leaves its values as they were."""
    from swissframe.engine.tiebreakers import RATE_OPTIONS

    for name, spec in TIEBREAKER_SPECS.items():
        if spec.reads is None:
            continue
        crit = (Criterion("match_points"), Criterion(name))
        base = dataclasses.replace(sf.rules.MTG, name=f"reads-{name}",
                                   criteria=crit if name != "match_points" else crit[:1])
        before = sf.standings(res, base).sort("event_id", "player_id")
        for option in set(RATE_OPTIONS) - spec.reads:
            changed = dataclasses.replace(base, name=f"reads-{name}-{option}",
                                          **{option: _OTHER_VALUE[option]})
            after = sf.standings(res, changed).sort("event_id", "player_id")
            if name in after.columns:  # (a criterion's column is named as it)
                assert after[name].equals(before[name]), (name, option)
            assert after["rank"].equals(before["rank"]), (name, option)
