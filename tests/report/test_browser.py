"""The report in a real headless browser: it loads with no console error, makes no request
outside file://, renders every chart, sorts its table; screenshots for a person to look at."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import swissframe as sf

DATA = Path(__file__).resolve().parents[2] / "data" / "events"


def _open(browser: Any, page_path: Path) -> tuple[Any, list[str], list[str], float]:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    t0 = time.perf_counter()
    page.goto(page_path.resolve().as_uri())
    page.wait_for_function(
        "document.querySelectorAll('div[id^=chart-]').length === "
        "document.querySelectorAll('[data-rendered]').length", timeout=30_000)
    return page, errors, requests, time.perf_counter() - t0


def _check(page: Any, errors: list[str], requests: list[str]) -> None:
    assert errors == []
    outside = [u for u in requests if not u.startswith(("file://", "data:", "blob:"))]
    assert outside == []
    views = page.eval_on_selector_all(
        "div[id^=chart-]", "els => els.map(e => e.querySelectorAll('svg, canvas').length)")
    assert views
    assert all(v >= 1 for v in views)


def test_event_page_in_chromium(browser: Any, tmp_path: Path, artifacts: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = sf.report(DATA / "store-championship.csv", top=4).save(tmp_path / "event.html")
    page, errors, requests, took = _open(browser, out)
    _check(page, errors, requests)
    assert page.locator("div[id^=chart-]").count() >= 4
    # vega-embed's menu offers the downloads
    assert page.locator(".vega-actions a", has_text="Save as PNG").count() >= 1
    assert page.locator(".vega-actions a", has_text="Save as SVG").count() >= 1
    # sorting: the Player column ascending, then Points descending
    table = page.locator("#standings")
    names = table.locator("tbody tr td:nth-child(2)")
    before = names.all_inner_texts()
    table.locator("th", has_text="Player").click()
    after = names.all_inner_texts()
    assert after == sorted(before, key=str.lower)
    assert table.locator("th", has_text="Player").get_attribute("aria-sort") == "ascending"
    pts = table.locator("th", has_text="Points")
    pts.click()
    pts.click()
    shown = [float(x) for x in table.locator("tbody tr td:nth-child(3)").all_inner_texts()]
    assert shown == sorted(shown, reverse=True)
    shot = artifacts / "event-store-championship.png"
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    with capsys.disabled():
        print(f"\n[report] event page loaded and rendered in {took:.2f} s; screenshot: {shot}")


def test_season_folder_in_chromium(browser: Any, tmp_path: Path, artifacts: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    sim = sf.simulate([24, 40, 64], rules="mtg", n_events=3, seed=3)
    folder = sf.report(sim.results, top=8, n_sims=20).save(tmp_path / "season")
    page, errors, requests, took = _open(browser, folder / "index.html")
    _check(page, errors, requests)
    links = page.locator("a[href^='events/']")
    assert links.count() == 3
    shot = artifacts / "season-index.png"
    page.screenshot(path=str(shot), full_page=True)
    links.first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(".html")
    assert "/events/" in page.url
    page.wait_for_function("document.querySelectorAll('[data-rendered]').length >= 2")
    assert page.locator("a", has_text="all events").count() == 1
    page.close()
    with capsys.disabled():
        print(f"\n[report] season page rendered in {took:.2f} s; screenshot: {shot}")


@pytest.mark.slow
def test_large_event_size_and_load(browser: Any, tmp_path: Path, artifacts: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    sim = sf.simulate(1000, rules="mtg", n_events=1, seed=5)
    out = sf.report(sim.results, top=8).save(tmp_path / "big.html")
    size = out.stat().st_size
    assert size < 3_000_000
    page, errors, requests, took = _open(browser, out)
    _check(page, errors, requests)
    rows = page.locator("#standings tbody tr").count()
    assert rows == sim.results.filter(pl.col("phase") == "swiss")["player_id"].n_unique() \
        if "phase" in sim.results.columns else rows == 1000
    shot = artifacts / "event-1000-players.png"
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    with capsys.disabled():
        print(f"\n[report] 1,000 players: {size / 1e6:.2f} MB, loaded and rendered in "
              f"{took:.2f} s; screenshot: {shot}")
