"""Which characters the machine's fonts draw (``swissframe._fonts``), and the warning of a PNG
or PDF chart whose text would be drawn as empty boxes (bad data 153)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe import _fonts
from swissframe.errors import DataWarning, SwissframeError
from tests.helpers import CLI_IN_A_PROCESS

tt_lib = pytest.importorskip("fontTools.ttLib")
font_builder = pytest.importorskip("fontTools.fontBuilder")
glyph_pen = pytest.importorskip("fontTools.pens.ttGlyphPen")


def _font(chars: set[int], name: str = "SFTest", *, ps_name: bool = True) -> object:
    """A TrueType font (fontTools) mapping exactly ``chars``: format 4 for the BMP, and a
    format 12 map too when one is beyond it (as fontTools writes them); with a PostScript
    name unless ``ps_name`` is False."""
    fb = font_builder.FontBuilder(1000, isTTF=True)
    glyphs = [".notdef", *(f"u{c:05X}" for c in sorted(chars))]
    fb.setupGlyphOrder(glyphs)
    fb.setupCharacterMap({c: f"u{c:05X}" for c in chars})
    pen = glyph_pen.TTGlyphPen(None)
    pen.moveTo((100, 0))
    pen.lineTo((500, 800))
    pen.lineTo((900, 0))
    pen.closePath()
    shape = pen.glyph()
    fb.setupGlyf({g: glyph_pen.TTGlyphPen(None).glyph() if g == ".notdef" else shape
                  for g in glyphs})
    fb.setupHorizontalMetrics(dict.fromkeys(glyphs, (1000, 0)))
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    names = {"familyName": name, "styleName": "Regular"}
    fb.setupNameTable({**names, "psName": f"{name}-Regular"} if ps_name else names)
    fb.setupOS2()
    fb.setupPost()
    return fb.font


def _save(font: object, path: Path) -> Path:
    font.save(str(path))  # type: ignore[attr-defined]
    return path


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A font folder that is the machine's only one (empty), with nothing remembered."""
    folder = tmp_path / "fonts"
    folder.mkdir()
    monkeypatch.setattr(_fonts, "_ADDED", [])
    monkeypatch.setattr(_fonts, "_FOUND", set())
    monkeypatch.setattr(_fonts, "_ABSENT", set())
    monkeypatch.setattr(_fonts, "_READABLE", set())
    monkeypatch.setattr(_fonts, "font_directories", lambda: [*_fonts._ADDED, folder])
    return folder


# (code points of every plane a name may hold: BMP scripts, the private use area, emoji)
_CODES = st.one_of(st.integers(0x100, 0xD7FF), st.integers(0xE000, 0xFFFD),
                   st.integers(0x10000, 0x2FFFF))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mapped=st.sets(_CODES, min_size=1, max_size=40), asked=st.sets(_CODES, max_size=20))
def test_a_font_file_maps_the_characters_its_map_holds(tmp_path: Path, mapped: set[int],
                                                       asked: set[int]) -> None:
    # (asked: some of the font's own characters, and others)
    asked |= set(sorted(mapped)[::3])
    path = _save(_font(mapped), tmp_path / "f.ttf")
    assert _fonts._mapped(path, asked) == asked & mapped


def test_a_font_in_a_linked_folder_is_found_and_a_link_loop_ends(only: Path,
                                                                  tmp_path: Path) -> None:
    # (vl-convert's font database follows links to folders: a font reached through one
    # was drawn while the warning said boxes)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _save(_font({ord("東")}), elsewhere / "east.ttf")
    (only / "linked").symlink_to(elsewhere, target_is_directory=True)
    (only / "loop").symlink_to(only, target_is_directory=True)
    (elsewhere / "back").symlink_to(only, target_is_directory=True)
    assert _fonts.undrawn("東京") == "京"


def test_a_font_without_a_postscript_name_maps_nothing(tmp_path: Path) -> None:
    # (vl-convert's font database leaves such a face out: it drew boxes for the
    # characters its map held, and the chart said nothing)
    chars = {ord("東"), ord("京")}
    assert _fonts._mapped(_save(_font(chars, ps_name=False), tmp_path / "a.ttf"), chars) == set()
    assert _fonts._mapped(_save(_font(chars), tmp_path / "b.ttf"), chars) == chars


def test_a_collection_maps_the_characters_of_each_face(tmp_path: Path) -> None:
    first, second = {0x6771}, {0x4EAC, 0x1F600}
    collection = tt_lib.TTCollection()
    collection.fonts = [_font(first, "A"), _font(second, "B")]
    path = tmp_path / "c.ttc"
    collection.save(str(path))
    assert _fonts._mapped(path, {0x6771, 0x4EAC, 0x1F600, 0x0627}) == first | second


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x00\x00", b"ttcf\x00\x01\x00\x00",
                                     b"not a font at all, but long enough" * 4])
def test_a_file_that_is_no_font_maps_nothing(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.ttf"
    path.write_bytes(content)
    assert _fonts._mapped(path, {0x6771}) == set()


def test_what_is_no_regular_file_is_not_read_as_a_font(only: Path) -> None:
    # (a FIFO named like a font: opening it waited for a writer, forever)
    import os

    os.mkfifo(only / "pipe.ttf")
    (only / "zero.ttf").symlink_to("/dev/zero")
    (only / "loop.ttf").symlink_to(only / "loop.ttf")
    found: list[str] = []
    # (on a thread of its own: a hang fails the test instead of stopping the suite)
    scan = threading.Thread(target=lambda: found.append(_fonts.undrawn("東")), daemon=True)
    scan.start()
    scan.join(timeout=20)
    assert found == ["東"]


def test_a_truncated_font_maps_nothing_or_what_its_map_still_holds(tmp_path: Path) -> None:
    whole = _save(_font({0x6771, 0x4EAC}), tmp_path / "whole.ttf").read_bytes()
    for cut in range(0, len(whole), 97):
        path = tmp_path / "cut.ttf"
        path.write_bytes(whole[:cut])
        assert _fonts._mapped(path, {0x6771, 0x4EAC}) <= {0x6771, 0x4EAC}


def test_the_machines_fonts_map_what_fonttools_reads_in_them() -> None:
    # (the reader against fontTools' own on real fonts: format 4 segments with glyph arrays)
    files = [p for p in _fonts._font_files() if p.suffix.lower() in (".ttf", ".otf")][:12]
    if not files:
        pytest.skip("no font installed on this machine to compare with fontTools")
    asked = set(range(0x20, 0x600)) | set(range(0x2000, 0x2800)) | {0x6771, 0x1F600}
    for path in files:
        cmap = tt_lib.TTFont(str(path), lazy=True).getBestCmap() or {}
        assert _fonts._mapped(path, asked) == {c for c in asked if c in cmap}, path


def test_undrawn_names_the_characters_no_font_has(only: Path) -> None:
    assert _fonts.undrawn("東京 Cup") == "京東"
    _save(_font({ord("東")}), only / "east.ttf")
    _fonts.add_font_directory(only)  # (a folder added: what was absent is looked for again)
    assert _fonts.undrawn("東京 Cup") == "京"
    # the bundled Latin, Greek and Cyrillic need no font; blanks, controls and variation
    # selectors (an emoji's U+FE0F picks its form) are no glyph to draw
    assert _fonts.undrawn("Ørsted Ελένη Юлия – “x” →\t\n\ufe0f\U000e0100") == ""


def _chart() -> object:
    from swissframe import charts

    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["東京", "C", "東京", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    return charts.chart_standings(sf.standings(sf.from_matches(m)), cut=2)


def test_a_png_whose_names_no_font_draws_says_so(only: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    vl_convert = pytest.importorskip("vl_convert")
    from swissframe import charts

    # (vl-convert's registration lasts for the process, and this folder is deleted after
    # the test: recorded, not made)
    registered: list[str] = []
    monkeypatch.setattr(vl_convert, "register_font_directory", registered.append)

    chart = _chart()
    with pytest.warns(DataWarning, match=r"2 characters.*'京', '東'.*fonts-noto-cjk"):
        charts.save(chart, tmp_path / "c.png")  # type: ignore[arg-type]
    assert (tmp_path / "c.png").stat().st_size > 0  # (drawn all the same, with boxes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an SVG keeps the text: the viewer's fonts draw it
        charts.save(chart, tmp_path / "c.svg")  # type: ignore[arg-type]
        _save(_font({ord("東"), ord("京")}), only / "cjk.ttf")
        charts.register_font_directory(only)
        charts.save(chart, tmp_path / "d.png")  # type: ignore[arg-type]
    assert registered == [str(only)]


@pytest.mark.parametrize("path", ["missing-folder", 3, None])
def test_register_font_directory_refuses_what_is_no_folder(only: Path, path: object) -> None:
    pytest.importorskip("vl_convert")
    from swissframe import charts

    with pytest.raises(SwissframeError, match="Hint"):
        charts.register_font_directory(path)  # type: ignore[arg-type]


def _chart_command(*argv: str) -> subprocess.CompletedProcess[str]:
    # (a process of its own: vl-convert's font registration lasts for the process, and the
    # test's folder is deleted after it)
    code = CLI_IN_A_PROCESS
    return subprocess.run([sys.executable, "-c", code, "chart", *argv], capture_output=True,
                          text=True, timeout=300, check=False)


def test_the_chart_command_draws_with_the_fonts_of_a_folder_given(tmp_path: Path) -> None:
    pytest.importorskip("vl_convert")
    m = pl.DataFrame({"round": [1, 1], "player_a": ["東京", "C"], "player_b": ["B", "D"],
                      "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    sf.from_matches(m).write_csv(tmp_path / "e.csv")
    folder = tmp_path / "fonts"
    folder.mkdir()
    _save(_font({ord("東"), ord("京")}), folder / "cjk.ttf")
    if not _fonts.undrawn("東京"):  # (a machine with a CJK font: nothing to warn of)
        pytest.skip("this machine has a font with 東 and 京: no warning to compare")
    boxes = _chart_command("standings", str(tmp_path / "e.csv"), "-o",
                           str(tmp_path / "boxes.png"), "--quiet")
    assert boxes.returncode == 0, boxes.stderr
    assert "warning: 2 characters" in boxes.stderr
    assert "--font-dir DIR" in " ".join(boxes.stderr.split())  # (the hint names the option)
    drawn = _chart_command("standings", str(tmp_path / "e.csv"), "-o",
                           str(tmp_path / "drawn.png"), "--font-dir", str(folder), "--quiet")
    assert drawn.returncode == 0, drawn.stderr
    assert "warning" not in drawn.stderr
    # (the test font draws each character as a triangle, not vl-convert's empty box)
    assert (tmp_path / "drawn.png").read_bytes() != (tmp_path / "boxes.png").read_bytes()


@pytest.mark.parametrize("name", ["no-such-folder", "", "FILE"])
def test_the_chart_command_refuses_a_font_dir_that_is_no_folder(tmp_path: Path,
                                                                name: str) -> None:
    from swissframe.cli import main

    (tmp_path / "e.csv").write_text("x")
    path = str(tmp_path / "e.csv") if name == "FILE" else name
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["chart", "standings", str(tmp_path / "e.csv"), "-o",
                     str(tmp_path / "c.png"), "--font-dir", path])
    assert code == 2
    said = err.getvalue()
    assert said.startswith("swissframe: error: argument --font-dir: ")
    assert "Hint" in said
    assert ("names no file" if name == "" else "is not a folder") in said
    assert not (tmp_path / "c.png").exists()


def test_a_font_dir_for_an_svg_is_said_to_be_unread(tmp_path: Path) -> None:
    from swissframe.cli import main

    m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"], "games_a": [2],
                      "games_b": [0], "games_drawn": [0]})
    sf.from_matches(m).write_csv(tmp_path / "e.csv")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["chart", "standings", str(tmp_path / "e.csv"), "-o",
                     str(tmp_path / "c.svg"), "--font-dir", str(tmp_path)])
    assert code == 0, err.getvalue()
    assert "is not read: a .svg file keeps its text" in " ".join(err.getvalue().split())


def test_a_collection_declaring_more_faces_than_it_holds_is_refused(
        only: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (vl-convert's font database tries every face a collection's header declares: a
    # 12-byte file declaring 4 billion faces made --font-dir hang; bad data 169)
    vl_convert = pytest.importorskip("vl_convert")
    from swissframe import charts

    registered: list[str] = []
    monkeypatch.setattr(vl_convert, "register_font_directory", registered.append)
    _save(_font({ord("東")}), only / "east.ttf")
    (only / "sub").mkdir()
    (only / "sub" / "evil.ttc").write_bytes(b"ttcf\x00\x01\x00\x00\xff\xff\xff\xff")
    assert _fonts.unreadable_collections(only) == [only / "sub" / "evil.ttc"]
    with pytest.raises(SwissframeError, match=r"evil\.ttc.*no font collection.*Hint"):
        charts.register_font_directory(only)
    assert registered == []  # (refused before vl-convert reads the folder)
    (only / "sub" / "evil.ttc").write_bytes(
        _font_collection_bytes(tmp_path))  # (a real collection: read)
    assert _fonts.unreadable_collections(only) == []
    charts.register_font_directory(only)
    assert registered == [str(only)]


def _copies(font: bytes, n: int) -> bytes:
    """A collection of ``n`` faces, each the one face of ``font`` (its tables' offsets
    moved past the collection's header)."""
    import struct

    start = 12 + 4 * n
    (count,) = struct.unpack(">H", font[4:6])
    face = bytearray(font)
    for i in range(count):
        (offset,) = struct.unpack_from(">I", font, 12 + 16 * i + 8)
        struct.pack_into(">I", face, 12 + 16 * i + 8, offset + start)
    return b"ttcf\x00\x01\x00\x00" + struct.pack(f">I{n}I", n, *[start] * n) + bytes(face)


@pytest.mark.parametrize("n", [2, _fonts.MOST_FACES, _fonts.MOST_FACES + 1])
def test_a_collection_of_more_faces_than_a_real_one_holds_is_refused(
        only: Path, tmp_path: Path, n: int) -> None:
    # (vl-convert reads every face a collection declares, and draws more slowly with each:
    # 200,000 copies of one face in 1.4 MB made a chart take 33 s; 4 million, minutes)
    _save(_font({ord("東")}), tmp_path / "one.ttf")
    (only / "many.ttc").write_bytes(_copies((tmp_path / "one.ttf").read_bytes(), n))
    assert _fonts.undrawn("東") == ""  # (a real collection: its faces are read)
    refused = n > _fonts.MOST_FACES
    assert _fonts.unreadable_collections(only) == ([only / "many.ttc"] if refused else [])
    assert _fonts.unreadable_machine_collections() == ([only / "many.ttc"] if refused else [])


def _plain_chart() -> object:
    import altair as alt

    return alt.Chart(pl.DataFrame({"x": [1, 2]})).mark_bar().encode(x="x:Q")


_EVIL = b"ttcf\x00\x01\x00\x00\xff\xff\xff\xff"  # (12 bytes declaring 4 billion faces)


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_an_unreadable_collection_among_the_machines_fonts_is_refused_before_drawing(
        only: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    # (vl-convert reads the machine's fonts before its first image of a process: the file
    # of bad data 169 in ~/.fonts hung every PNG, SVG and PDF export; bad data 170)
    vl_convert = pytest.importorskip("vl_convert")
    from swissframe import charts

    drawn: list[str] = []
    draw = getattr(vl_convert, f"vegalite_to_{suffix}")
    monkeypatch.setattr(vl_convert, f"vegalite_to_{suffix}",
                        lambda *a, **k: drawn.append(suffix) or draw(*a, **k))
    (only / "sub").mkdir()
    (only / "sub" / "evil.otc").write_bytes(_EVIL)
    out = tmp_path / f"c.{suffix}"
    with pytest.raises(SwissframeError, match=(
            r"this machine's fonts hold '.*evil\.otc'.*no font collection.*no chart was "
            r"drawn\. Hint: remove that file \(from '.*fonts'\)")):
        charts.save(_plain_chart(), out)  # type: ignore[arg-type]
    assert drawn == []  # (refused before vl-convert reads a font)
    assert not out.exists()
    (only / "sub" / "evil.otc").unlink()  # (removed: looked for again, and drawn)
    charts.save(_plain_chart(), out)  # type: ignore[arg-type]
    assert drawn == [suffix]
    assert out.stat().st_size > 0
    (only / "sub" / "evil.otc").write_bytes(_EVIL)  # (a clean folder is not read again:
    charts.save(_plain_chart(), out)  # type: ignore[arg-type]  # vl-convert read it already)
    assert drawn == [suffix, suffix]


def test_registering_a_folder_refuses_an_unreadable_collection_of_the_machine(
        only: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (vl-convert's registration of a folder reads the machine's fonts first)
    vl_convert = pytest.importorskip("vl_convert")
    from swissframe import charts

    registered: list[str] = []
    monkeypatch.setattr(vl_convert, "register_font_directory", registered.append)
    (only / "evil.ttc").write_bytes(_EVIL)
    mine = tmp_path / "mine"
    mine.mkdir()
    with pytest.raises(SwissframeError, match=r"this machine's fonts hold .*evil\.ttc"):
        charts.register_font_directory(mine)
    assert registered == []


@pytest.mark.parametrize("where", ["home", "fontconfig"])
def test_the_chart_command_refuses_an_unreadable_collection_of_the_machine(
        tmp_path: Path, where: str) -> None:
    # (a process of its own, with a home of its own: the check reads ~/.fonts and the
    # folders fontconfig's files name, as vl-convert does; a check missing or broken shows
    # as a hang, cut by the timeout)
    pytest.importorskip("vl_convert")
    m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"], "games_a": [2],
                      "games_b": [0], "games_drawn": [0]})
    sf.from_matches(m).write_csv(tmp_path / "e.csv")
    home = tmp_path / "home"
    folder = home / ".fonts" if where == "home" else tmp_path / "elsewhere"
    folder.mkdir(parents=True)
    (folder / "evil.ttc").write_bytes(_EVIL)
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME", "FONTCONFIG_FILE")}
    env["HOME"] = str(home)
    if where == "fontconfig":
        (tmp_path / "fonts.conf").write_text(_conf(f"<dir>{folder}</dir>"))
        env["FONTCONFIG_FILE"] = str(tmp_path / "fonts.conf")
    code = CLI_IN_A_PROCESS
    done = subprocess.run([sys.executable, "-c", code, "chart", "standings",
                           str(tmp_path / "e.csv"), "-o", str(tmp_path / "c.png"), "--quiet"],
                          capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 2, done.stderr
    said = " ".join(done.stderr.split())
    assert f"this machine's fonts hold '{folder / 'evil.ttc'}'" in said
    assert f"Hint: remove that file (from '{folder}')" in said
    assert said.endswith("which the viewer draws.")
    assert not (tmp_path / "c.png").exists()


def _conf(*elements: str) -> str:
    return ('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
            f"<fontconfig>{''.join(elements)}</fontconfig>")


def test_the_folders_fontconfigs_configuration_names_are_font_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (vl-convert's font database reads the folders fontconfig's files name: a broken
    # collection in one hung every image, unseen by a check of the usual folders)
    conf = tmp_path / "conf"
    (conf / "conf.d").mkdir(parents=True)
    (conf / "fonts.conf").write_text(_conf(
        "<dir>/opt/fonts-a</dir>", '<dir prefix="xdg">fonts-x</dir>', "<dir>~/fonts-h</dir>",
        '<dir prefix="relative">near</dir>', "<alias><family>serif</family></alias>",
        '<include ignore_missing="yes">conf.d</include>', "<include>missing.conf</include>",
        "<include>fonts.conf</include>"))  # (itself: read once)
    (conf / "conf.d" / "20-b.conf").write_text(_conf("<dir>/opt/fonts-c</dir>"))
    (conf / "conf.d" / "10-a.conf").write_text(_conf("<dir>/opt/fonts-b</dir>"))
    (conf / "conf.d" / "30-broken.conf").write_text("<fontconfig><dir>/opt/x")
    (conf / "conf.d" / "40-bomb.conf").write_text(
        '<?xml version="1.0"?><!DOCTYPE f [<!ENTITY a "aaaa">]><fontconfig><dir>&a;</dir>'
        "</fontconfig>")  # (entities refused by the safe parser: the file is passed over)
    (conf / "conf.d" / "README").write_text("<fontconfig><dir>/opt/not-a-conf</dir>")
    home = tmp_path / "home"
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf / "fonts.conf"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert _fonts._fontconfig_dirs() == [
        Path("/opt/fonts-a"), tmp_path / "data" / "fonts-x", home / "fonts-h", conf / "near",
        Path("/opt/fonts-b"), Path("/opt/fonts-c")]
    if sys.platform not in ("win32", "darwin"):
        # (none added: a folder another test of this process registered comes first)
        monkeypatch.setattr(_fonts, "_ADDED", [])
        assert _fonts.font_directories()[:2] == [Path("/opt/fonts-a"),
                                                 tmp_path / "data" / "fonts-x"]
    monkeypatch.delenv("FONTCONFIG_FILE")  # (the user's file, then the machine's)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "config" / "fontconfig").mkdir(parents=True)
    (tmp_path / "config" / "fontconfig" / "fonts.conf").write_text(
        _conf("<dir>/opt/users</dir>", '<include prefix="xdg">fontconfig/more.conf</include>'))
    (tmp_path / "config" / "fontconfig" / "more.conf").write_text(
        _conf("<dir>/opt/more</dir>"))  # (an include's xdg prefix: the config home)
    assert _fonts._fontconfig_dirs()[:2] == [Path("/opt/users"), Path("/opt/more")]


def _font_collection_bytes(tmp_path: Path) -> bytes:
    collection = pytest.importorskip("fontTools.ttLib.ttCollection")
    ttc = collection.TTCollection()
    ttc.fonts = [_font({ord("東")}, "A"), _font({ord("京")}, "B")]
    ttc.save(str(tmp_path / "two.ttc"))
    return (tmp_path / "two.ttc").read_bytes()


# --------------------------------------------------------------------------------------------
# No home folder (bad data 171)
# --------------------------------------------------------------------------------------------


@pytest.fixture
def no_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process where Python names no home folder (``HOME`` unset, the user id not in the
    password database: ``Path.home()`` raises)."""
    def fail() -> Path:
        msg = "Could not determine home directory."
        raise RuntimeError(msg)

    monkeypatch.setattr(Path, "home", staticmethod(fail))
    for name in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
                 "SWISSFRAME_CACHE", "FONTCONFIG_FILE", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)


def test_home_is_none_where_python_names_none(no_home: None) -> None:
    from swissframe.io._files import home

    assert home() is None


def test_without_a_home_the_folders_under_it_are_passed_over(no_home: None,
                                                             tmp_path: Path) -> None:
    from swissframe import _fonts
    from swissframe.report import _html

    assert _html._cache_dir() is None  # (the report's bundle is kept in memory only)
    folders = _fonts.font_directories()
    assert folders  # (the machine's own folders stay)
    assert all(not str(f).startswith("~") and f.is_absolute() for f in folders)
    conf = tmp_path / "fonts.conf"
    conf.write_text('<fontconfig><dir>~/fonts</dir><dir prefix="xdg">fonts</dir>'
                    "<dir>/opt/kept</dir></fontconfig>")
    assert _fonts._read_fontconfig((str(conf), None, None, None), str(tmp_path)) == (
        Path("/opt/kept"),)


def test_charts_without_a_home_say_how_to_give_one(no_home: None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # (Altair reads Path.home() as it is imported: a traceback from every chart)
    import importlib.abc
    import sys

    from swissframe import charts

    class HomelessAltair(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, *_: object) -> None:
            if name == "altair":
                msg = "Could not determine home directory."
                raise RuntimeError(msg)

    monkeypatch.delitem(sys.modules, "altair", raising=False)
    monkeypatch.setattr(sys, "meta_path", [HomelessAltair(), *sys.meta_path])
    with pytest.raises(SwissframeError, match=r"without a home folder: HOME is not set.*"
                                              r"Hint: set HOME"):
        charts._alt.__wrapped__()  # type: ignore[attr-defined]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0
                    or not shutil.which("setpriv"),
                    reason="runs the CLI as a user id absent from the password database: needs "
                           "root and setpriv")
def test_the_cli_without_a_home() -> None:
    # (the real condition, end to end: a container run as an arbitrary user id)
    import pwd

    uid = 54_321
    with contextlib.suppress(KeyError):
        pwd.getpwuid(uid)
        pytest.skip(f"user id {uid} is in this machine's password database")
    m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"], "games_a": [2],
                      "games_b": [0], "games_drawn": [0]})
    import tempfile

    # (a folder that user may read and write: pytest's own are the owner's alone)
    with tempfile.TemporaryDirectory() as folder:
        tmp_path = Path(folder)
        tmp_path.chmod(0o777)
        sf.from_matches(m).write_csv(tmp_path / "e.csv")
        _run_homeless(tmp_path, uid)


def _run_homeless(tmp_path: Path, uid: int) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("HOME", "XDG_CACHE_HOME", "SWISSFRAME_CACHE")}
    code = CLI_IN_A_PROCESS

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                               sys.executable, "-c", code, *argv], capture_output=True,
                              text=True, timeout=300, check=False, env=env, cwd=tmp_path)

    report = run("report", str(tmp_path / "e.csv"), "-o", str(tmp_path / "r.html"), "--quiet")
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "r.html").stat().st_size > 0
    chart = run("chart", "standings", str(tmp_path / "e.csv"), "-o", str(tmp_path / "c.png"),
                "--quiet")
    assert chart.returncode == 2, chart.stderr
    assert "Traceback" not in chart.stderr
    assert f"HOME is not set, and user id {uid} has none" in " ".join(chart.stderr.split())
    assert not (tmp_path / "c.png").exists()


def test_a_deleted_working_folder_names_no_font_folder(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # (os.getcwd raises where the working folder was deleted: a chart then said "No such
    # file or directory (writing the output)"; fontconfig's relative entries name nothing)
    conf = tmp_path / "fonts.conf"
    conf.write_text("<fontconfig><dir>relative-fonts</dir><dir>/opt/kept</dir></fontconfig>")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))

    def gone() -> str:
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(os, "getcwd", gone)
    assert _fonts._fontconfig_dirs() == [Path("/opt/kept")]
