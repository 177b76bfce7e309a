"""Result objects print a short summary (text and notebook HTML); df.swiss is registered."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import swissframe as sf
from tests.helpers import FIXTURES, REPO_ROOT

EVENT = REPO_ROOT / "data" / "events" / "store-championship.csv"


def _check(obj: object, name: str, frames: list[str]) -> None:
    text = repr(obj)
    assert text.startswith(f"{name}: ")
    assert "\n" not in text  # one line, not four frames
    assert len(text) < 240
    for f in frames:
        assert f".{f}" in text
    html = obj._repr_html_()  # type: ignore[attr-defined]
    assert html.startswith(f"<div><strong>{name}</strong>")
    assert html.count("<details>") == len(frames)
    assert "<script" not in html  # nothing to load in an offline notebook


def test_decklist_events_summary() -> None:
    files = sorted((FIXTURES / "decklist").glob("*.json"))
    if not files:
        pytest.skip("no decklist fixtures")
    ev = sf.read_decklist_cache(files[:2], workers=1)
    _check(ev, "DecklistEvents", ["results", "published", "events", "report"])
    assert f"{ev.events.height} event" in repr(ev)
    assert str(ev) == repr(ev)


def test_validation_report_summary_and_full_text() -> None:
    rep = sf.validate(sf.read_results(EVENT))
    _check(rep, "ValidationReport", ["problems", "summary"])
    assert repr(rep).startswith("ValidationReport: clean, 34 rows, 1 event")
    assert str(rep).startswith("swissframe validate:")  # str stays the full report


def test_simulation_and_id_report_summaries() -> None:
    sim = sf.simulate(16, rules="mtg", n_events=2, seed=3)
    _check(sim, "Simulation", ["results", "players", "events"])
    assert repr(sim).startswith("Simulation: 2 events (mtg), 32 players")
    rep = sf.id_report(sim.results, 4, "mtg", n_sims=2)
    _check(rep, "IdReport", ["events", "draws"])
    assert repr(rep).startswith("IdReport: 2 events, ")


def test_polars_namespace_on_data_and_lazy_frames() -> None:
    res = sf.read_results(EVENT)
    want = sf.standings(res, "mtg")
    assert res.swiss.standings("mtg").equals(want)
    assert res.lazy().swiss.standings("mtg").equals(want)
    assert res.swiss.standings("mtg", through_round=2).equals(
        sf.standings(res, "mtg", through_round=2))
    assert res.swiss.explain("Alice").equals(sf.explain(res, "Alice"))
    assert res.lazy().swiss.compare("Alice", "Bob").criterion == "match_points"
    assert res.swiss.validate().ok
    assert isinstance(res.lazy().swiss.standings_by_round("mtg"), pl.DataFrame)
    assert set(res.swiss.sensitivity(["mtg", "pokemon"], top=4)["ruleset"]) == {"mtg",
                                                                                 "pokemon"}


def test_the_terminal_and_the_reports_write_a_number_alike() -> None:
    """One rule (``_display.number_text``) behind the terminal's ``format_cell`` and the
    reports' ``format_value``; only their decimals and null text differ. A negative value
    rounded to zero read "-0" (a cut gap or a lower-is-better difference of 1e-9)."""
    from swissframe.cli._common import format_cell
    from swissframe.compare import format_value

    cases = [("omwp", 2 / 3, "66.67%"), ("omwp", 1, "100.00%"), ("bh", 8.5, "8.5"),
             ("bh", 13.0, "13"), ("match_points", 36, "36"), ("sb", -1e-9, "0"),
             ("omwp", -1e-9, "0.00%"), ("bh", float("nan"), "NaN"),
             ("dropped", True, "yes"), ("match_points", 2**70 + 1, str(2**70 + 1)),
             # (near a bound, not on it: more places; float noise is the bound)
             ("kendall_tau", 0.99960036, "0.9996"), ("omwp", 0.99996, "99.996%"),
             ("omwp", 3e-5, "0.003%"), ("kendall_tau", 1 - 1e-15, "1"),
             ("omwp", 1 - 1e-15, "100.00%")]
    for name, value, want in cases:
        assert format_value(name, value) == want, (name, value)
        if not (isinstance(value, int) and name == "omwp"):  # (an int column: no percent)
            assert format_cell(name, value) == want, (name, value)
    assert (format_cell("omwp", None), format_value("omwp", None)) == ("", "–")
    assert (format_cell("ctb", 3.890625), format_value("ctb", 3.890625)) == ("3.8906", "3.89")
    # (a chance short of certain, as `cut` prints it)
    assert (format_cell("probability", 0.99996), format_cell("probability", 1.0)) == (
        "99.996%", "100.00%")


def test_bounded_cuts_only_runs_longer_than_a_path() -> None:
    """Class 77: a run of more than MAX_RUN characters without a space is cut; a long
    path (class 69: kept whole) and ordinary text are left as they are."""
    from swissframe._display import MAX_RUN, bounded

    path = "/data/" + "a" * (MAX_RUN - 20) + ".csv"
    assert bounded(f"cannot read {path}: truncated") == f"cannot read {path}: truncated"
    text = bounded("x " + "Z" * (MAX_RUN + 1) + " y\n" + "W" * 3 * MAX_RUN)
    assert text.count("more characters)…") == 2
    assert text.startswith("x ZZZ")
    assert text.split("\n")[0].endswith("ZZZ y")
    assert len(text) < 400


def test_the_engines_and_the_cuts_messages_quote_names_as_the_tables_show_them() -> None:
    """An event or player named with an ideographic space (or a zero-width joiner) is
    quoted as it is in the engine's and the cut analysis' messages, as in the tables and
    the readers' messages (bad data 155; these used ``repr``: ``'東京\\u3000杯'``)."""
    event, player = "東京\u3000杯", "علی\u200cرضا"
    m = pl.DataFrame({"round": [1], "player_a": [player], "player_b": ["B"], "games_a": [2],
                      "games_b": [0], "games_drawn": [0]})
    results = sf.from_matches(m).with_columns(event_id=pl.lit(event))
    with pytest.raises(sf.SwissframeError) as exc:
        sf.explain(results, "nobody", event_id=event)
    assert f"in event '{event}'" in str(exc.value)
    pairs = pl.DataFrame({"event_id": [event], "round": [2], "player_id": [player],
                          "opponent_id": [player]})  # (paired with themself)
    with pytest.raises(sf.SwissframeError) as exc:
        sf.cut_status(results, pairs, 1)
    assert f"event '{event}': player '{player}'" in str(exc.value)


def test_wrap_measures_columns_and_keeps_paths_whole() -> None:
    """``_display.wrap``, every CLI line's wrap: a Japanese run breaks between its
    characters within the width in columns; text without wide characters breaks where
    textwrap breaks, so ``swissframe rules`` keeps ``docs/fidelity-tom-trf.md`` whole
    (Unicode's line breaking broke it after the ``/``)."""
    import textwrap

    from swissframe._display import text_width, wrap

    jp = wrap("ジャパンスタンダードカップ：『カルロフ邸殺人事件』 Japan Standard Cup", 40,
              break_long_words=False, break_on_hyphens=False)
    assert all(text_width(line) <= 40 for line in jp), jp
    assert "".join(jp).replace(" ", "") == ("ジャパンスタンダードカップ：『カルロフ邸殺人事件』"
                                            "JapanStandardCup")
    for text in ("TOM's behaviour: docs/fidelity-tom-trf.md", "a/b/c d-e-f g " * 9):
        for width in (12, 30, 41):
            assert wrap(text, width) == textwrap.wrap(text, width)


@given(st.lists(st.one_of(st.none(), st.integers(0, 10**18)), max_size=30),
       st.sampled_from([("row", None), ("match", "matches"), ("round", None)]))
def test_count_expr_is_count(ns: list[int | None], noun: tuple[str, str | None]) -> None:
    """``_display.count_expr``, the Polars twin of ``count`` for messages built per row
    (validate's details said "row(s)", "round(s)"), says each count as ``count`` does."""
    from swissframe._display import count, count_expr

    got = pl.DataFrame({"n": ns}, schema={"n": pl.Int64}).select(
        count_expr(pl.col("n"), *noun))["n"].to_list()
    assert got == [None if n is None else count(n, *noun) for n in ns]
