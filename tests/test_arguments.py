"""Public parameters out of range are a DataError naming the parameter, never NumPy's or
Polars' own error (a negative seed, a negative skill, names of the wrong kind, attendance
as text, a negative simulation count)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

import swissframe as sf
from tests.helpers import REPO_ROOT

STORE = REPO_ROOT / "data" / "events" / "store-championship.csv"


def _res() -> pl.DataFrame:
    return sf.read_results(STORE)


def _pairs() -> pl.DataFrame:
    a, b = ["Alice", "Farid", "Grace", "Ines"], ["Bob", "Chandra", "Dmitri", "Hiro"]
    return pl.DataFrame({"player_id": a + b, "opponent_id": b + a})


CASES: dict[str, tuple[Callable[[], Any], str]] = {
    "simulate seed": (lambda: sf.simulate(8, seed=-1), "seed must be a whole number"),
    "simulate seed text": (lambda: sf.simulate(8, seed="x"), "seed must be"),
    "simulate skill": (lambda: sf.simulate(8, skill=-1), "skill must be a finite number"),
    "simulate skill nan": (lambda: sf.simulate(8, skill=float("nan")), "skill must be"),
    "cut_status seed": (lambda: sf.cut_status(_res(), _pairs(), top=4, seed=-1), "seed"),
    "cut_status n_sims": (lambda: sf.cut_status(_res(), _pairs(), top=4, n_sims=-1),
                          "n_sims must be"),
    "cut_status batch": (lambda: sf.cut_status(_res(), _pairs(), top=4, batch=0),
                         "batch must be"),
    "cut_status exact_limit": (lambda: sf.cut_status(_res(), _pairs(), top=4,
                                                     exact_limit=-1), "exact_limit must be"),
    "id_report top": (lambda: sf.id_report(_res(), top=0), "top must be"),
    "id_report seed": (lambda: sf.id_report(_res(), seed=-2), "seed must be"),
    "report seed": (lambda: sf.report(_res(), seed=-1), "seed must be"),
    "report names": (lambda: sf.report(_res(), names=["x"]), "names must map"),
    "sensitivity top bool": (lambda: sf.sensitivity(_res(), top=True), "top must be"),
    "sensitivity top float": (lambda: sf.sensitivity(_res(), top=2.5), "top must be"),
    "cut_status top float": (lambda: sf.cut_status(_res(), _pairs(), top=2.5), "top must be"),
    "rounds text": (lambda: sf.recommended_rounds("x"), "cannot read attendance"),
    "rounds float": (lambda: sf.recommended_rounds([12.5]), "whole numbers"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_parameter_out_of_range_is_named(case: str) -> None:
    fn, needle = CASES[case]
    with pytest.raises(sf.DataError, match=needle):
        fn()


def test_compare_names_its_arguments() -> None:
    res = _res()
    for kwargs, needle in (({"through_round": "1"}, "through_round must be a whole"),
                           ({"through_round": 0}, "through_round must be ≥ 1")):
        with pytest.raises(sf.DataError, match=needle):
            sf.compare(res, "Alice", "Bob", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(sf.DataError, match="player ids as text"):
        sf.compare(res, "Alice", None)  # type: ignore[arg-type]
    two = pl.concat([res, res.with_columns(event_id=pl.lit(None, dtype=pl.String))])
    with pytest.raises(sf.DataError, match=r"the results hold 2 \(store-championship, None\)"):
        sf.compare(two, "Alice", "Bob")


def test_report_refuses_a_negative_simulation_count() -> None:
    with pytest.raises(sf.DataError, match="n_sims must be"):
        sf.report(_res(), n_sims=-1)
