"""Public parameters out of range are a DataError naming the parameter, never NumPy's or
Polars' own error (a negative seed, a negative skill, names of the wrong kind, attendance
as text, a negative simulation count)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

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
    "simulate skill": (lambda: sf.simulate(8, skill=-1), "skill must be a number from 0"),
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
    # (a number or None for keys ended in a bare TypeError; a player as a number in a
    # Polars ComputeError)
    "standings keys int": (lambda: sf.standings(_res(), keys=5), "keys must be column names"),
    "by round keys None": (lambda: sf.standings_by_round(_res(), "mtg", keys=None),
                           "keys must be column names, got None"),
    "explain player int": (lambda: sf.explain(_res(), 5), "player_id must be an id as text"),
    "explain event int": (lambda: sf.explain(_res(), "Alice", event_id=3),
                          "event_id must be an id as text"),
    "explain through text": (lambda: sf.explain(_res(), "Alice", through_round="2"),
                             "through_round must be a whole"),
    # (each ended in a bare TypeError or ValueError from int(), iter(), a comparison or
    # NumPy)
    "cut_status outcomes text": (lambda: sf.cut_status(_res(), _pairs(), top=4,
                                                       outcomes="2-0"),
                                 "outcomes must be \\(games won, lost, drawn\\) triples"),
    "id_report source number": (lambda: sf.id_report(_res(), source=5),
                                "source must be \\(games won"),
    "pair_round seed text": (lambda: sf.pair_round(_res(), seed="x"), "seed must be"),
    "sensitivity one name": (lambda: sf.sensitivity(_res(), "mtg"),
                             "rulesets must be a list of rulesets"),
    "simulate n_events text": (lambda: sf.simulate(8, n_events="10"), "n_events must be"),
    "simulate rounds float": (lambda: sf.simulate(8, rounds=2.5), "rounds must be"),
    "simulate drop_rate text": (lambda: sf.simulate(8, drop_rate="0.1"),
                                "drop_rate must be a probability"),
    "simulate awarded text": (lambda: sf.simulate(8, awarded_bye_rate="x"),
                              "awarded_bye_rate must be a probability"),
    "simulate drop_multiplier": (lambda: sf.simulate(8, drop_multiplier="x"),
                                 "drop_multiplier must be a finite number"),
    "report names columns": (lambda: sf.report(_res(), names=pl.DataFrame({"a": [1]})),
                             r"names must map .*got a DataFrame with columns \['a'\]"),
    "use_theme table": (lambda: sf.charts.use_theme("no"), "use_theme takes True or False"),
}




def test_compare_names_its_arguments() -> None:
    res = _res()
    for kwargs, needle in (({"through_round": "1"}, "through_round must be a whole"),
                           ({"through_round": 0}, "through_round must be ≥ 1")):
        with pytest.raises(sf.DataError, match=needle):
            sf.compare(res, "Alice", "Bob", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(sf.DataError, match="a player id must be an id as text, got None"):
        sf.compare(res, "Alice", None)  # type: ignore[arg-type]
    two = pl.concat([res, res.with_columns(event_id=pl.lit(None, dtype=pl.String))])
    with pytest.raises(sf.DataError, match=r"the results hold 2 \(store-championship, None\)"):
        sf.compare(two, "Alice", "Bob")


def test_report_refuses_a_negative_simulation_count() -> None:
    with pytest.raises(sf.DataError, match="n_sims must be"):
        sf.report(_res(), n_sims=-1)


def test_a_wrong_table_or_ruleset_argument_is_named() -> None:
    """Pairings given as a path ended in "AttributeError: 'str' object has no attribute
    'columns'"; a list of ruleset names in "TypeError: unhashable type: 'list'"."""
    with pytest.raises(sf.SchemaError, match=r"the pairings table must be a polars DataFrame "
                                             r"or LazyFrame, got a path \('pairings\.csv'\)"):
        sf.cut_status(_res(), "pairings.csv", top=4)  # type: ignore[arg-type]
    with pytest.raises(sf.SchemaError, match=r"the players table must be .* got a list of 1 "):
        sf.pair_round(_res(), ["Alice"])  # type: ignore[arg-type]
    with pytest.raises(sf.SchemaError, match=r"status lacks column\(s\).*not a cut_status "
                                             r"result"):
        sf.id_advice(_res(), _pairs(), top=4, status=pl.DataFrame({"a": [1]}))
    for read in (sf.read, sf.read_results, sf.read_tom, sf.read_trf, sf.read_decklist_cache):
        with pytest.raises(sf.ImportFormatError, match=r"expected a file, folder or glob "
                                                       r"path .*got NoneType"):
            read(None)  # type: ignore[arg-type]
    with pytest.raises(sf.RulesetError, match=r"unknown ruleset \['mtg'\]"):
        sf.standings(_res(), ["mtg"])  # type: ignore[arg-type]
    # one key named as text is that key (it was read letter by letter)
    keyed = _res().with_columns(scenario=pl.lit("s"))
    assert sf.standings(keyed, "mtg", keys="scenario").equals(  # type: ignore[arg-type]
        sf.standings(keyed, "mtg", keys=["scenario"]))


B70 = 2**70  # past 64 bits: NumPy, Polars and orjson ended in a bare OverflowError/TypeError

#: A count too large for the one check's upper bound (64 bits, or the table it sizes).
TOO_LARGE: dict[str, tuple[Callable[[], Any], str]] = {
    "simulate n_players": (lambda: sf.simulate(B70),
                           r"n_players must be a whole number from 2 to 4,294,967,295, got "
                           r"1180591620717411303424\. Hint"),
    "simulate n_players list": (lambda: sf.simulate([8, B70]), "n_players must be"),
    # (read by its ends: listing it hung)
    "simulate n_players range": (lambda: sf.simulate(range(8, B70)), "n_players must be"),
    "simulate n_events": (lambda: sf.simulate(8, n_events=B70), "n_events must be"),
    "simulate rounds": (lambda: sf.simulate(8, rounds=B70), "rounds must be"),
    "simulate seed": (lambda: sf.simulate(8, seed=B70), "seed must be"),
    "simulate id rounds": (lambda: sf.simulate(100, id_policy=sf.IdPolicy(rounds=B70)),
                           "id_policy.rounds must be a whole number from 0 to "
                           "9,223,372,036,854,775,807"),
    "cut_status n_sims": (lambda: sf.cut_status(_res(), _pairs(), top=4, exact_limit=0,
                                                n_sims=B70), "n_sims must be a whole number"),
    "id_report n_sims": (lambda: sf.id_report(_res(), top=4, n_sims=B70), "n_sims must be"),
    # (its replays are one table of n_sims × the rows of the events with IDs: NumPy's
    # "Unable to allocate 8.00 TiB")
    "id_report n_sims table": (lambda: sf.id_report(_res(), top=4, n_sims=2**40),
                               r"n_sims must be a whole number from 0 to [\d,]+, got "
                               r"1099511627776\. Hint: n_sims × \d+ result rows"),
    "report n_sims": (lambda: sf.report(_res(), n_sims=B70), "n_sims must be"),
    # (Polars' TypeError building the Int64 column)
    "recommended_rounds": (lambda: sf.recommended_rounds(10**30),
                           r"players must be a whole number from 0 to 9,223,372,036,854,775,"
                           r"807, got 1000000000000000000000000000000\. Hint"),
    "recommended_rounds list": (lambda: sf.recommended_rounds([64, 10**30]), "players must"),
    "chart top": (lambda: sf.charts.chart_standings(sf.standings(_res()), top=B70),
                  "chart_standings: top must be a whole number from 1"),
    "chart cut": (lambda: sf.charts.chart_standings(sf.standings(_res()), cut=B70),
                  "chart_standings: cut must be"),
}


#: Every case by a name of its own (``TOO_LARGE`` names the same arguments as ``CASES``).
ALL_CASES: Final = {**CASES, **{f"{k} too large": v for k, v in TOO_LARGE.items()}}


@pytest.mark.parametrize("case", list(ALL_CASES))
def test_a_parameter_out_of_range_is_named(case: str) -> None:
    """Out of range, or (``… too large``) past 64 bits or past the table it sizes."""
    fn, needle = ALL_CASES[case]
    with pytest.raises(sf.DataError, match=needle):
        fn()



#: A keyword flag or choice given a value it does not take (class 89): each was read by its
#: truth, or as one of the other choices, and did what was not asked without a word.
FLAGS: Final[dict[str, tuple[Callable[[], Any], str]]] = {
    "read on_error": (lambda: sf.read(STORE, on_error="rais"),
                      r"on_error='rais' is not one of 'raise' \(default\), 'collect'\. "
                      r"Hint: did you mean 'raise'\?"),
    "read validate": (lambda: sf.read(STORE, validate="false"),
                      r"validate takes True or False, got 'false'\. Hint: validate=False\."),
    "standings lazy": (lambda: sf.standings(_res(), lazy="no"), "lazy takes True or False"),
    "standings lazy 1": (lambda: sf.standings(_res(), lazy=1), "lazy takes True or False"),
    "by_round lazy": (lambda: sf.standings_by_round(_res(), lazy="yes"), "lazy takes"),
    "next_round_ranges by_score": (lambda: sf.next_round_ranges(_res(), _pairs(),
                                                                by_score="no"), "by_score"),
    "cut_status progress": (lambda: sf.cut_status(_res(), _pairs(), top=4, progress="no"),
                            "progress takes True or False"),
    "report season": (lambda: sf.report(_res(), season="no"),
                      "season takes True, False or None"),
    "pair_round form": (lambda: sf.pair_round(None, pl.DataFrame({"player_id": ["a", "b"]}),
                                              form="matches"),
                        r"form='matches' is not one of 'long' \(default\), 'match'"),
    "simulate id_policy mode": (lambda: sf.simulate(8, id_policy=sf.IdPolicy(mode="safest")),  # type: ignore[arg-type]
                                "id_policy.mode='safest' is not one of"),
    "simulate late_entry": (lambda: sf.simulate(8, rules=sf.SimRules(
        "mtg", "mtg", late_entry="losses")),  # type: ignore[arg-type]
                            "SimRules.late_entry='losses' is not one of"),
    "recompute engine": (lambda: sf.recompute(STORE, "out", engine="polar"),  # type: ignore[arg-type]
                         "did you mean 'polars'"),
    "recompute overwrite": (lambda: sf.recompute(STORE, "out", overwrite="no"),
                            "overwrite takes True or False"),
    "chart_sensitivity baseline": (lambda: sf.charts.chart_sensitivity(
        sf.sensitivity(_res(), top=4), baseline="no"), "baseline takes True or False"),
    "chart race log_rank": (lambda: sf.charts.chart_standings_race(
        sf.standings_by_round(_res()), log_rank="no"), "log_rank takes True, False or None"),
    "pokemon drop_freeze": (lambda: sf.rules.pokemon(drop_freeze="no"), "drop_freeze takes"),
}


@pytest.mark.parametrize("case", list(FLAGS))
def test_a_flag_or_choice_of_another_value_is_named(case: str) -> None:
    fn, needle = FLAGS[case]
    with pytest.raises(sf.DataError, match=needle):
        fn()


@pytest.mark.parametrize("field", ["floor_own_gw", "bye_in_own_rate", "points_first"])
def test_a_ruleset_flag_of_another_value_is_named(field: str) -> None:
    import dataclasses

    with pytest.raises(sf.RulesetError, match=f"ruleset 'mtg': {field} takes True or False, "
                       "got 'no'. Hint:"):
        dataclasses.replace(sf.rules.MTG, **{field: "no"})
    with pytest.raises(sf.RulesetError, match="criterion 'omwp': descending takes True"):
        sf.rules.Criterion("omwp", descending="no")  # type: ignore[arg-type]


def test_a_number_too_long_to_print_is_named_by_its_size() -> None:
    """(Python refuses to print an int of more than 4,300 digits: the message itself ended
    in a ValueError.)"""
    with pytest.raises(sf.DataError, match=r"got a number of 16,610 bits"):
        sf.simulate(8, n_events=10**5000)


def test_a_drawn_total_too_large_for_a_table_is_refused() -> None:
    """Sizes drawn from a range are checked as drawn: the least size fits, their sum not."""
    with pytest.raises(sf.DataError, match=r"3 events of [\d,]+ players in all make"):
        sf.simulate(range(8, 2**32 - 1), n_events=3, rounds=3)


def test_memory_the_replays_lack_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that fits the row bound but not memory is a DataError naming n_sims, not
    NumPy's or Polars' bare MemoryError."""
    from swissframe.cut import _ids

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(_ids, "_replayed", no_memory)
    with pytest.raises(sf.DataError, match=r"n_sims=1,000 replays [\d,]+ result rows, more "
                                           r"than memory holds"):
        sf.id_report(_res(), top=4, n_sims=1000)


TRF = REPO_ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf"


@pytest.mark.parametrize(("call", "said"), [
    (lambda: sf.read(STORE, workers="4"), "workers must be a whole number ≥ 1, got '4'"),
    (lambda: sf.read(STORE, workers=2.5), "workers must be a whole number ≥ 1, got 2.5"),
    (lambda: sf.read(STORE, workers=0), "workers must be a whole number ≥ 1, got 0"),
    (lambda: sf.read(STORE, workers=True), "workers must be a whole number ≥ 1, got True"),
    # (the decklist reader's own argument: the same check, before any file is read)
    (lambda: sf.read_decklist_cache(STORE, workers="4"),
     "workers must be a whole number ≥ 1, got '4'"),
    (lambda: sf.read_decklist_cache(STORE, workers=-3),
     "workers must be a whole number ≥ 1, got -3"),
    (lambda: sf.read_trf([TRF], event_ids=[None]), r"event_ids must be ids as text, one per "
                                                   r"path; got \[None\]"),
    (lambda: sf.read_tom([REPO_ROOT / "tests" / "fixtures" / "tom" / "all_codes.tdf"],
                         event_ids=[7]), r"event_ids must be ids as text.*got \[7\]"),
    (lambda: sf.read_trf([TRF], event_ids=5), r"event_ids must be ids as text.*got 5"),
])
def test_a_reader_argument_of_the_wrong_kind_is_named(call: Callable[[], Any],
                                                      said: str) -> None:
    """Class 108: ``workers="4"`` or ``2.5`` ended in a bare ``TypeError`` on 64+ decklist
    files, ``0`` and ``-3`` ran one process (the CLI's ``--workers 0`` is refused); an
    ``event_ids`` item None was the file's "null_value" error, a number read as the
    event's id. Each is a ``DataError`` naming the argument; one id as text is that id."""
    with pytest.raises(sf.DataError, match=rf"{said}.*Hint: "):
        call()
    assert sf.read_trf(TRF, event_ids="club").results["event_id"].unique().to_list() == [
        "club"]
    assert sf.read(STORE, workers=1).results.height


#: A table given as another library's data or plain Python (bad data 240): each kind is
#: named with its library, on one line, with the call that makes a polars table of it (a
#: pandas frame was "got DataFrame", a dict was told to use pl.from_pandas, and validate
#: and report had messages of their own).
TABLE_KINDS: Final[dict[str, tuple[Callable[[pl.DataFrame], object], str, str]]] = {
    "pandas": (lambda df: pytest.importorskip("pandas").DataFrame(df.to_dict(as_series=False)),
               "a pandas DataFrame", r"pl\.from_pandas\(df\)"),
    "arrow": (lambda df: df.to_arrow(), "a pyarrow Table", r"pl\.from_arrow\(table\)"),
    "arrow batch": (lambda df: df.to_arrow().to_batches()[0], "a pyarrow RecordBatch",
                    r"pl\.from_arrow"),
    "dict": (lambda df: df.to_dict(as_series=False), "a dict", r"pl\.DataFrame\(data\)"),
    "rows": (lambda df: df.to_dicts(), r"a list of \d+ items?", r"pl\.DataFrame\(rows\)"),
    "series": (lambda df: df["player_id"], r"a polars Series \(one column\)",
               "pass the whole table"),
    "numpy": (lambda df: df.to_numpy(), "a NumPy ndarray", "name its columns"),
}


@pytest.mark.parametrize("kind", list(TABLE_KINDS))
def test_a_table_of_another_kind_is_named_with_its_conversion(kind: str) -> None:
    make, said, hint = TABLE_KINDS[kind]
    data = make(_res())
    for call, start in ((sf.standings, "the results table must be a polars DataFrame or "
                                       "LazyFrame, got "),
                        (sf.validate, r"validate takes a polars DataFrame or LazyFrame \(or "
                                      r"what sf\.read returns\), got "),
                        (lambda d: sf.cut_status(_res(), d, top=4),
                         "the pairings table must be a polars DataFrame or LazyFrame, got ")):
        with pytest.raises(sf.SchemaError, match=f"^{start}{said}\\. Hint: .*{hint}") as exc:
            call(data)  # type: ignore[operator]
        assert "\n" not in str(exc.value)
    if kind not in ("rows",):
        with pytest.raises(sf.DataError, match=f"^cannot build a report from {said}\\. Hint: "
                                               f".*{hint}.*then sf\\.report\\(table\\)"):
            sf.report(data)


def test_cut_status_without_pairings_is_refused_as_such() -> None:
    """None is not "no pairings" to cut_status (bad data 241): it reached the cut's shared
    round code as the unknown next round and ended in a ValidationError of 31
    "unpaired_draw" rows of the results table, which has none."""
    for call in (lambda: sf.cut_status(_res(), None, top=4),  # type: ignore[arg-type]
                 lambda: sf.id_advice(_res(), None, top=4)):  # type: ignore[arg-type]
        with pytest.raises(sf.SchemaError, match=r"^the pairings table must be a polars "
                                                 r"DataFrame or LazyFrame, got None\. Hint: "
                                                 r"pass the table itself, e\.g\. sf\.read_res"):
            call()


@pytest.mark.parametrize("weights", [["0.5"] * 4, [True] * 4, "1111", [1, "1", 1, 1]])
def test_outcome_weights_are_numbers(weights: object) -> None:
    """cut_status's weights were read by float() (bad data 242): text and flags were
    taken as numbers, and a text "1111" letter by letter as four weights."""
    outs = [(2, 0, 0), (0, 2, 0), (1, 1, 0), (0, 0, 3)]
    with pytest.raises(sf.DataError, match=r"must be 4 finite non-negative numbers \(not "
                                           r"text or flags\)"):
        sf.cut_status(_res(), _pairs(), top=4, outcomes=outs, weights=weights)  # type: ignore[arg-type]


def test_outcome_weights_of_numpy_are_its_numbers() -> None:
    np = pytest.importorskip("numpy")
    outs = [(2, 0, 0), (0, 2, 0), (1, 1, 0), (0, 0, 3)]
    want = sf.cut_status(_res(), _pairs(), top=4, outcomes=outs, weights=[1, 1, 2, 2])
    got = sf.cut_status(_res(), _pairs(), top=4, outcomes=outs,
                        weights=np.array([1.0, 1.0, 2.0, 2.0]))  # type: ignore[arg-type]
    assert got.equals(want)


def test_id_advice_names_its_own_options() -> None:
    """id_advice passes its keywords to cut_status (bad data 248): a misspelt one was
    "TypeError: cut_status() got an unexpected keyword argument 'n_sim'", and one given
    beside status= was dropped without a word."""
    with pytest.raises(sf.DataError, match=r"^id_advice takes no option 'n_sim'\. Hint: did "
                                           r"you mean 'n_sims'\?"):
        sf.id_advice(_res(), _pairs(), top=4, n_sim=3)
    status = sf.cut_status(_res(), _pairs(), top=4)
    with pytest.raises(sf.DataError, match=r"given status= and cut_status options \(n_sims\)"):
        sf.id_advice(_res(), _pairs(), top=4, status=status, n_sims=1000)
    assert sf.id_advice(_res(), _pairs(), top=4, status=status).equals(
        sf.id_advice(_res(), _pairs(), top=4))


def test_a_seed_of_none_is_in_the_signature_that_takes_it() -> None:
    """simulate, pair_round and report take seed=None (fresh entropy, as cut_status and
    id_report say) where their signatures and docstrings said a whole number and "the
    same arguments give the same tables" (bad data 249)."""
    import inspect

    for fn in (sf.simulate, sf.pair_round, sf.report, sf.cut_status, sf.id_report):
        seed = inspect.signature(fn).parameters["seed"]
        assert "None" in str(seed.annotation), fn.__name__
        lines = (inspect.getdoc(fn) or "").splitlines()
        said = lines[lines.index("seed") + 1:]
        said = said[:next(i for i, line in enumerate(said) if not line.startswith(" "))]
        assert "None" in " ".join(said), fn.__name__
    assert sf.simulate(8, seed=None).results.height
    assert sf.pair_round(_res(), seed=None).height


def test_outcomes_of_a_numpy_array_are_its_rows() -> None:
    """A 2-D array of game scores was refused, its repr quoted over two lines
    (bad data 242)."""
    np = pytest.importorskip("numpy")
    outs = [(2, 0, 0), (0, 2, 0), (2, 1, 0), (1, 2, 0)]
    pairs = sf.pair_round(_res())
    assert sf.cut_status(_res(), pairs, top=4, outcomes=np.array(outs)).equals(  # type: ignore[arg-type]
        sf.cut_status(_res(), pairs, top=4, outcomes=outs))
    with pytest.raises(sf.DataError, match=r"got array\(\[\[2\.5, 0\. , 0\. \], \[") as exc:
        sf.cut_status(_res(), pairs, top=4, outcomes=np.array([[2.5, 0, 0], [0, 2.5, 0]]))  # type: ignore[arg-type]
    assert "\n" not in str(exc.value)
