"""File names of the report's pages and chart downloads (``report._html.slug``,
``page_names``): bounded, distinct, safe on every file system (bad data 168)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from swissframe.report._html import _RESERVED, page_names, slug

#: Characters a file name may not hold somewhere (Windows' and every system's separators).
_UNSAFE = set('/\\:*?"<>|\0') | {chr(c) for c in range(32)}


@given(st.lists(st.text(max_size=300), max_size=40))
def test_page_names_are_distinct_bounded_and_safe(ids: list[str]) -> None:
    names = page_names(ids)
    assert set(names) == set(ids)
    assert len(set(names.values())) == len(names)
    for name in names.values():
        assert name
        assert not _UNSAFE & set(name)
        assert name == name.strip("-.")  # (no hidden file, no leading option-like dash)
        # (the atomic writer's temporary name adds ≈ 20 bytes; 255 is the usual limit)
        assert len(name.encode()) <= 120 + 18
        assert name not in {"con", "nul", "aux", "prn"}
    assert page_names(ids) == names  # (the same ids give the same names: stable links)


@given(st.text(max_size=200))
@example(text="LPT0")  # (a device name of Windows: "lpt0-event", the name kept before it)
def test_a_slug_keeps_letters_and_digits_of_any_script(text: str) -> None:
    s = slug(text)
    words = [c for c in unicodedata.normalize("NFC", text.casefold())
             if unicodedata.category(c)[0] in "LMN"]
    base = s.removesuffix("-event") if s.removesuffix("-event") in _RESERVED else s
    if words and s != "event":
        assert base.replace("-", "")[:10] == "".join(words)[:10]


def test_a_season_of_names_in_one_script_has_short_distinct_names() -> None:
    # (the old rule kept ASCII letters only: 130 events named in Japanese were "event",
    # "event-x", "event-x-x", … until a page's name was too long to write)
    ids = ["予選" + chr(0x4E00 + i) for i in range(300)] + ["!!"] * 2 + ["A b", "a-B"]
    names = page_names(ids)
    assert names["予選一"] == "予選一"
    assert len(set(names.values())) == len(set(ids))
    assert max(len(n) for n in names.values()) <= 20
    assert names["A b"] == "a-b"
    assert names["a-B"].startswith("a-b-")


def test_names_one_only_by_case_are_told_apart_beyond_case() -> None:
    # (a case-insensitive file system — macOS', Windows' — takes "Straße.html" and
    # "strasse.html" for one file: the second page would replace the first)
    names = page_names(["Straße Open", "STRASSE OPEN", "Σίσυφος", "ΣΊΣΥΦΟΣ"])
    assert names["Straße Open"] == "strasse-open"
    assert names["STRASSE OPEN"].startswith("strasse-open-")
    assert names["ΣΊΣΥΦΟΣ"].startswith(names["Σίσυφος"] + "-")
    assert len({n.casefold() for n in names.values()}) == 4


@pytest.mark.parametrize("damage", ["not utf-8", "empty", "cut short", "no digest",
                                    "a folder", "/dev/zero"])
def test_a_damaged_bundle_copy_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              damage: str) -> None:
    """Class 192: the report's copy of the chart libraries (``$SWISSFRAME_CACHE``,
    ``~/.cache/swissframe``) was read as it was: bytes that are not UTF-8 ended every
    ``swissframe report`` in a ``UnicodeDecodeError`` traceback, and an empty or cut copy
    gave pages whose charts were never drawn (exit 0, no word). The copy carries its
    content's digest; one that does not match is built again and replaced."""
    import vl_convert

    from swissframe.report import _html

    bundle = "const vegaEmbed = function () {}; // " + "x" * 1000
    built: list[int] = []

    def build() -> str:
        built.append(1)
        return bundle

    monkeypatch.setattr(vl_convert, "javascript_bundle", build)
    monkeypatch.setenv("SWISSFRAME_CACHE", str(tmp_path))
    _html.vega_bundle.cache_clear()
    assert _html.vega_bundle() == bundle
    assert len(built) == 1
    cache = next(tmp_path.glob("vega-bundle-*.js"))
    _html.vega_bundle.cache_clear()
    assert _html.vega_bundle() == bundle
    assert len(built) == 1  # (the copy is read)
    whole = cache.read_bytes()
    cache.unlink()
    if damage == "a folder":
        cache.mkdir()
    elif damage == "/dev/zero":
        cache.symlink_to("/dev/zero")
    else:
        cache.write_bytes({"not utf-8": b"\xff\xfe garbage", "empty": b"",
                           "cut short": whole[:len(whole) // 2],
                           "no digest": bundle[:100].encode()}[damage])
    _html.vega_bundle.cache_clear()
    try:
        assert _html.vega_bundle() == bundle
        assert len(built) == 2
    finally:
        _html.vega_bundle.cache_clear()
    if damage not in ("a folder", "/dev/zero"):
        assert cache.read_bytes() == whole  # (replaced)
