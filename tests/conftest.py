"""Fixtures shared by the test folders: a headless Chromium driven by Playwright, or a skip
(the report's pages and the charts' notebook outputs are checked in a real browser)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# No per-example deadline anywhere: a test's examples are timed by the machine's load
# (CI runs one pytest worker a core), and hypothesis' default 200 ms deadline failed a
# fast-path property once under load on a shared machine. A hang is caught by the fuzz
# tests' own timeouts, not by the deadline.
settings.register_profile("swissframe", deadline=None)
settings.load_profile("swissframe")

BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """The OS Chromium (``SWISSFRAME_CHROMIUM`` overrides), or None."""
    env = os.environ.get("SWISSFRAME_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium (session-wide), skipping with the reason when it cannot be had."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser test skipped: playwright is not installed "
                    "(pip install 'swissframe[report]')")
    exe = chromium_path()
    if exe is None:
        pytest.skip("browser test skipped: no chromium executable "
                    "(apt-get install chromium, or set SWISSFRAME_CHROMIUM)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=BROWSER_ARGS)
        except Exception as exc:
            pytest.skip(f"browser test skipped: chromium at {exe} did not start ({exc})")
        yield b
        b.close()
