"""The fast paths of swissframe.io.decklist give what the value-by-value path gives.

``_plain_file`` reads files as the platforms write them; anything else goes back through
``_parse_file``. In a pool, chunks are assembled as they arrive; an assembly error is
produced by one whole-table call. These tests pin that both paths agree, values and errors.
"""

from __future__ import annotations

import math
import re
import shutil
import signal
from pathlib import Path
from typing import Any

import orjson
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swissframe.errors import ImportFormatError
from swissframe.io import _files, decklist
from swissframe.io.decklist import read_decklist_cache
from tests.helpers import FIXTURES, SHARED_ROOT

FIX = FIXTURES / "decklist"
GOOD = sorted(FIX.glob("*.json"))


def _doc(name: str = "melee-draws-2-2024-07-13") -> dict[str, Any]:
    doc: dict[str, Any] = orjson.loads((FIX / f"{name}.json").read_bytes())
    return doc


def _many(tmp: Path, n: int = 70) -> list[Path]:
    """``n`` events: copies of every fixture, each under its own name (so a pool is used)."""
    out = []
    for i in range(n):
        src = GOOD[i % len(GOOD)]
        dst = tmp / f"{src.stem.rsplit('-', 3)[0]}-c{i:03d}-2024-07-13.json"
        shutil.copy(src, dst)
        out.append(dst)
    return out


def _tables(ev: decklist.DecklistEvents) -> list[Any]:
    return [ev.results, ev.published, ev.events, ev.report]


def _same(a: decklist.DecklistEvents, b: decklist.DecklistEvents) -> bool:
    return all(x.schema == y.schema and x.equals(y) for x, y in zip(_tables(a), _tables(b),
                                                                     strict=True))


ODD_VALUES: list[tuple[str, Any]] = [
    ("Rank", "3"), ("Rank", 3.0), ("Points", "1e1"), ("Wins", None), ("OMWP", "0.5"),
    ("OMWP", 1), ("GWP", 2**63), ("Player", 17), ("Player", 1.5),
]


@pytest.mark.parametrize(("key", "value"), ODD_VALUES)
def test_odd_standings_values_are_read_value_by_value(tmp_path: Path, key: str,
                                                      value: Any) -> None:
    doc = _doc()
    doc["Standings"][1][key] = value
    path = tmp_path / "odd-1-2024-07-13.json"
    path.write_bytes(orjson.dumps(doc))
    plain = decklist._parse_chunk([path], None)
    assert plain == decklist._gathered([decklist._parse_file(path)])


@pytest.mark.parametrize(("seat", "value"), [("Player1", 7), ("Player2", 2.5),
                                              ("Result", 210)])
def test_numeric_seats_and_results_are_converted_as_before(tmp_path: Path, seat: str,
                                                           value: Any) -> None:
    doc = _doc()
    doc["Rounds"][0]["Matches"][0][seat] = value
    path = tmp_path / "num-1-2024-07-13.json"
    path.write_bytes(orjson.dumps(doc))
    assert decklist._plain_file(path, None) is None
    exact = decklist._parse_file(path)
    assert decklist._parse_chunk([path], None) == decklist._gathered([exact])


def test_plain_files_take_the_fast_reader() -> None:
    for f in GOOD:
        got = decklist._plain_file(f, None)
        assert got is not None
        assert got == decklist._parse_file(f)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bad_value_in_the_middle_of_a_big_chunk_names_its_file(tmp_path: Path,
                                                                 workers: int) -> None:
    files = _many(tmp_path)
    bad = files[37]
    doc = orjson.loads(bad.read_bytes())
    doc["Standings"][0]["Wins"] = "two"
    bad.write_bytes(orjson.dumps(doc))
    later = files[60]
    later.write_bytes(b'{"Tournament": ')  # a later broken file does not win
    name = repr(doc["Standings"][0]["Player"])
    with pytest.raises(ImportFormatError, match=re.escape(
            f"event '{bad.stem}': standings row #1 ({name}): Wins is 'two', not a number")):
        read_decklist_cache(tmp_path, workers=workers)


def test_pool_and_one_process_give_the_same_tables(tmp_path: Path) -> None:
    _many(tmp_path, 90)
    one = read_decklist_cache(tmp_path, workers=1)
    pool = read_decklist_cache(tmp_path, workers=2)
    assert _same(one, pool)
    assert one.report.height > 0
    assert pool.events.height == 90


def _error(path: Path, workers: int) -> str:
    with pytest.raises(Exception) as info:  # noqa: PT011 - the message is what is compared
        read_decklist_cache(path, workers=workers)
    return f"{type(info.value).__name__}: {info.value}"


def test_assembly_errors_in_a_pool_are_those_of_one_call(tmp_path: Path) -> None:
    """With two bad events, one call names either of them (a hash pass picks it, before and
    after the pool work) and counts both: the pool gives that same message."""
    files = _many(tmp_path)
    bad = (files[12], files[50])

    def shown(msg: str) -> str:
        for f in bad:
            msg = msg.replace(str(f), "<file>").replace(f.stem, "<event>")
        return msg

    for f in bad:
        shutil.copy(FIX / "bad" / "bad-roundname-11-2024-07-13.json", f)
    one = shown(_error(tmp_path, 1))
    assert "neither numbered nor a known playoff name (2 such rounds in total)" in one
    assert one.startswith("ImportFormatError: <file>: event '<event>': round name 'Bonus")
    assert shown(_error(tmp_path, 2)) == one
    for f in bad:  # a bad result instead: the message counts every file's matches
        shutil.copy(FIX / "bad" / "bad-result-10-2024-07-13.json", f)
    one = shown(_error(tmp_path, 1))
    assert "'2:1'" in one
    assert "(2 such match(es))" in one
    assert shown(_error(tmp_path, 2)) == one


def test_a_parse_error_wins_over_an_assembly_error_in_a_pool(tmp_path: Path) -> None:
    files = _many(tmp_path)
    shutil.copy(FIX / "bad" / "bad-roundname-11-2024-07-13.json", files[3])
    files[66].write_bytes(b"{not json")
    one = _error(tmp_path, 1)
    assert "JSONDecodeError" in one
    assert files[66].stem in one
    assert _error(tmp_path, 2) == one


def test_chunks_keep_file_order_and_cover_every_file(tmp_path: Path) -> None:
    files = _many(tmp_path, 70)
    for n in (1, 3, 8, 100):
        chunks = decklist._chunks(files, n)
        assert [f for c in chunks for f in c] == files
        assert all(chunks)


def test_resolved_paths_are_path_resolve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    real = tmp_path / "real" / "sub"
    real.mkdir(parents=True)
    (real / "a-1-2024-07-13.json").write_bytes(b"{}")
    (tmp_path / "linkdir").symlink_to(tmp_path / "real")
    (real / "b-1-2024-07-13.json").symlink_to(real / "a-1-2024-07-13.json")
    (real / "loop.json").symlink_to(real / "loop.json")
    monkeypatch.chdir(tmp_path)
    paths = [Path("linkdir/sub/a-1-2024-07-13.json"), Path("real/sub/b-1-2024-07-13.json"),
             Path("real/../linkdir/sub/a-1-2024-07-13.json"), Path("a-1-2024-07-13.json"),
             tmp_path / "linkdir" / "sub" / ".." / "sub" / "a-1-2024-07-13.json"]
    assert _files.resolved_paths(paths) == [p.resolve() for p in paths]
    loop = Path("real/sub/loop.json")  # refused as every reader refuses it (class 190: it
    # was _files.resolved's bare OSError from read_decklist_cache)
    with pytest.raises(ImportFormatError, match=r"^real/sub/loop\.json: cannot read the file "
                       r"\(Too many levels of symbolic links\)"):
        _files.resolved_paths([loop])


@pytest.mark.parametrize("order", ["files", "reversed", "interleaved"])
def test_chunk_tables_combine_to_one_call(tmp_path: Path, order: str) -> None:
    """Chunks whose events come in any order give the tables of one call."""
    files = _many(tmp_path, 24)
    if order == "reversed":
        files = files[::-1]
    elif order == "interleaved":
        files = files[::2] + files[1::2]
    chunks = [files[i:i + 6] for i in range(0, len(files), 6)]
    outs = [decklist._assemble(*decklist._frames(decklist._parse_chunk(c, None)))
            for c in chunks]
    whole = decklist._assemble(*decklist._frames(decklist._parse_chunk(files, None)))
    assert _same(decklist._combine(outs), whole)
    assert _same(whole, read_decklist_cache(files, workers=1))


def _frames_alike(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(x.schema == y.schema and x.equals(y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("columns", [
    [["a", "b"]], [[]], [[""]], [["", ""]], [[None]], [["a", None, "", None], ["", "b"]],
    [[None, None], []], [["x\x00y", "z"]], [["\x00"]], [["é", "名前", None], ["名前", "Z"]],
    [["b", "a", "b"], ["a", "c", None]]])
def test_coded_texts_read_back_as_the_lists(columns: list[list[str | None]]) -> None:
    """A worker's columns of texts, coded by one dictionary (distinct texts and places),
    read back as the lists would, in an Enum whose order is the texts' order."""
    texts, codes = decklist._coded(columns)
    assert len(texts) == len(set(texts))
    dictionary = pl.Series(texts, dtype=pl.String)
    order = decklist._text_order(dictionary)
    assert order.categories.to_list() == sorted(t for t in set(texts) if t is not None)
    dictionary = dictionary.cast(order)
    for column, coded in zip(columns, codes, strict=True):
        got = decklist._decoded("c", dictionary, coded)
        assert got.dtype == order
        assert got.cast(pl.String).to_list() == column
        assert got.sort(nulls_last=True).cast(pl.String).to_list() == pl.Series(
            column, dtype=pl.String).sort(nulls_last=True).to_list()


def test_a_worker_chunk_gives_the_frames_of_the_lists(tmp_path: Path) -> None:
    """Files with null seats and results, a round without matches, a file without rounds or
    standings and a name holding a NUL: the packed chunk a worker sends back gives the same
    frames as the chunk's lists."""
    doc = _doc()
    doc["Rounds"][0]["Matches"][0]["Player2"] = None
    doc["Rounds"][0]["Matches"][1]["Result"] = None
    doc["Rounds"][1]["Matches"][0]["Player1"] = "nul\x00name"
    doc["Rounds"].insert(1, {"RoundName": "Round 9", "Matches": []})
    (tmp_path / "odd-1-2024-07-13.json").write_bytes(orjson.dumps(doc))
    (tmp_path / "bare-2-2024-07-13.json").write_bytes(orjson.dumps(
        {"Tournament": {}, "Rounds": [], "Standings": []}))
    files = sorted(tmp_path.iterdir()) + GOOD
    lists = decklist._frames(decklist._parse_chunk(files, None))
    packed = decklist._frames(decklist._packed_chunk(files, None))
    assert _frames_alike(lists, packed)
    raw = lists[0]
    assert raw.filter(pl.col("event_id") == "odd-1-2024-07-13")[
        "match_pos"].head(3).to_list() == [0, 1, 2]
    assert raw["p2"].null_count() >= 1
    assert raw["result"].null_count() == 1


@pytest.mark.slow
def test_the_real_corpus_reads_alike_in_a_pool_and_in_one_process() -> None:
    """The 2,249 files of the shared decklist cache: the pool's chunks (their texts packed,
    their tables put end to end) give the tables of one process."""
    root = SHARED_ROOT / "data" / "realworld" / "fbettega_MTG_decklistcache"
    if not root.is_dir():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    pool = read_decklist_cache(root, workers=2)
    one = read_decklist_cache(root, workers=1)
    assert _same(pool, one)
    assert pool.results.height > 600_000


#: Seats, standings players and results that exercise every quirk the assembly resolves:
#: the bye markers of each source, a null seat, names that disambiguation also writes
#: ("A [2]"), a name sorting before and after the others, and results that are not W-L-D.
_SEATS = st.sampled_from(["A", "B", "C", "D", "A [2]", "B [1]", "é", "Z", "-", "", "Bye",
                          None])
_RESULTS = st.sampled_from(["2-0-0", "2-1-0", "1-2-0", "1-1-1", "0-0-0", "1-0-0", "0-1-0",
                            "0-0-1", "0-2-0", "2:1", None])
_ROUND_NAMES = ["Round 1", "Round 2", "Round 3", "4", "Round 5", "Top 8", "Finals",
                "Top Power", "Bonus"]
_URIS = ["https://melee.gg/x", "https://topdeck.gg/x", "https://cardsrealm.com/x",
         "https://manatraders.com/x", None]


@st.composite
def _event_columns(draw: st.DrawFn, pos: int) -> decklist._Parsed:
    """One event's parsed columns (as a file gives them to ``_frames``)."""
    names = draw(st.lists(st.sampled_from(_ROUND_NAMES), max_size=5, unique=True).map(
        sorted) | st.lists(st.sampled_from(_ROUND_NAMES), max_size=4))
    rounds = [draw(st.lists(st.tuples(_SEATS, _SEATS, _RESULTS), max_size=8))
              for _ in names]
    players = draw(st.lists(_SEATS.filter(lambda x: x is not None), max_size=8))
    whole = st.none() | st.integers(-1, 12)
    rate = st.none() | st.floats(-0.5, 1.5, allow_nan=False, width=32)
    m: dict[str, list[Any]] = {
        "round_name": names, "matches": [len(r) for r in rounds],
        "p1": [x[0] for r in rounds for x in r], "p2": [x[1] for r in rounds for x in r],
        "result": [x[2] for r in rounds for x in r]}
    s: dict[str, list[Any]] = {"player": players}
    for col in ("rank", "points", "wins", "losses", "draws"):
        s[col] = [draw(whole) for _ in players]
    for col in ("omwp", "gwp", "ogwp"):
        s[col] = [draw(rate) for _ in players]
    uri = draw(st.sampled_from(_URIS))
    source = decklist._source_of(Path("x.json"), uri)
    ev = {"event_id": f"e{pos}-{draw(st.sampled_from(['a', 'b', 'é']))}", "source": source,
          "name": "n", "datetime": draw(st.sampled_from(["2024-07-13", None, "x"])),
          "format": "Modern", "url": uri, "path": f"e{pos}.json"}
    return m, s, ev


def _outcome(fn: Any) -> Any:
    try:
        return _tables(fn())
    except ImportFormatError as exc:
        return f"ImportFormatError: {exc}"


def _alike(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    return all(x.schema == y.schema and x.equals(y) for x, y in zip(a, b, strict=True))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_coded_assembly_gives_the_tables_of_the_text_assembly(data: st.DataObject) -> None:
    """Names, results and event ids held as codes in text order give the tables (or the
    error) of the assembly on texts, on events mixing every source's bye markers, null
    seats, repeated and self pairings, duplicated names (and names their renaming
    writes), bad results and bad round names; so do frames of texts the assembly codes
    itself (a pool's chunks put together after an error)."""
    n = data.draw(st.integers(1, 3))
    files = [data.draw(_event_columns(pos)) for pos in range(n)]
    if len({ev["event_id"] for _, _, ev in files}) < n:
        return
    frames = decklist._frames(decklist._gathered(files))
    assert frames[0]["p1"].dtype == frames[1]["player"].dtype
    assert isinstance(frames[0]["p1"].dtype, pl.Enum)
    text = _outcome(lambda: decklist._assemble(*frames, coded=False))
    coded = _outcome(lambda: decklist._assemble(*frames))
    assert _alike(coded, text), (coded, text)
    as_text = tuple(decklist._as_text(f) for f in frames)
    assert _alike(_outcome(lambda: decklist._assemble(*as_text)), text)


# --------------------------------------------------------------------------------------------
# _read_parts: the parts read, from simdjson, are orjson's (or the whole parse decides)
# --------------------------------------------------------------------------------------------

#: Number texts, some orjson refuses (infinite), some it reads as floats (beyond 64 bits).
_NUMBERS = ["0", "-0", "-0.0", "7", "2.5", "1E+2", "1e-400", "0.1e-5", "1e999", "-1e999",
            "18446744073709551615", "18446744073709551616", "-9223372036854775809",
            "1" * 400, "0." + "3" * 30, "1.7976931348623157e308", "1.7976931348623159e308"]
#: String texts: root keys inside texts, escapes (a letter, a pair, lone surrogates, a quote
#: before a key's bytes), a colon, a control character, bytes that are not UTF-8.
_TEXTS = ['"Rounds"', '"\\"Rounds\\":["', '"Tournament"', '"Decks"', '"a:b"', '"\\\\"',
          '"\\u0052ounds"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00x"', '"é"', '"\t"',
          '"\\"Decks"', '""', '"-"', '"2-1-0"']
_RAW_TEXTS = [b'"\xff"', b'"\xed\xa0\x80"', b'"\xc0\x80"']
_KEYS = ["Tournament", "Decks", "Rounds", "Standings", "RoundName", "Matches", "Player1",
         "Player2", "Result", "Player", "Rank", "Points", "OMWP", "Count", "CardName", "Date"]


def _key_text(key: str, escaped: bool) -> bytes:
    """A key's JSON text, its first letter written as a ``\\u`` escape when ``escaped``."""
    if escaped:
        return b'"\\u%04x' % ord(key[0]) + key[1:].encode() + b'"'
    return orjson.dumps(key)


@st.composite
def _json_text(draw: st.DrawFn, depth: int = 0) -> bytes:
    """JSON-like text (valid or not): objects may repeat a key, write it with an escape,
    and hold any value, numbers and texts orjson reads and some it refuses."""
    kind = draw(st.sampled_from(["scalar", "list", "object"] if depth < 4 else ["scalar"]))
    blank = draw(st.sampled_from([b"", b" ", b"\n  "]))
    if kind == "list":
        items = draw(st.lists(_json_text(depth + 1), max_size=3))
        return b"[" + (b"," + blank).join(items) + b"]"
    if kind == "object":
        pairs = draw(st.lists(st.tuples(st.sampled_from(_KEYS), st.booleans(),
                                        _json_text(depth + 1)), max_size=4))
        return b"{" + b",".join(blank + _key_text(k, e) + blank + b":" + v
                                for k, e, v in pairs) + b"}"
    return draw(st.one_of(
        st.sampled_from([b"null", b"true", b"false"]),
        st.sampled_from(_NUMBERS).map(str.encode),
        st.sampled_from(_TEXTS).map(str.encode),
        st.sampled_from(_RAW_TEXTS),
        st.integers(-(2**70), 2**70).map(lambda i: str(i).encode()),
        st.floats(allow_nan=False, allow_infinity=False).map(lambda f: repr(f).encode()),
        st.text(max_size=5).map(orjson.dumps)))


@st.composite
def _decklist_text(draw: st.DrawFn) -> bytes:
    """A decklist-cache file's text: its root parts in any order, repeated or left out,
    ``Decks`` anywhere (missing, null, after ``Rounds``), plain or odd values."""
    match = draw(st.lists(st.tuples(st.sampled_from(["Player1", "Player2", "Result"]),
                                    st.booleans(), _json_text(3)), max_size=4))
    match_text = b"{" + b",".join(_key_text(k, e) + b":" + v for k, e, v in match) + b"}"
    parts = {
        "Tournament": draw(st.sampled_from([b'{"Date":"2024-07-13","Name":"N"}', b"null",
                                            b'{"Date":1,"Date":2}', b"[]"])
                           | _json_text(2)),
        "Decks": draw(st.sampled_from([b"[]", b"null", b'[{"Player":"A","Mainboard":[{"Count":'
                                       b'4,"CardName":"Rounds"}]}]']) | _json_text(1)),
        "Rounds": b'[{"RoundName":"Round 1","Matches":[' + match_text + b"]}]",
        "Standings": draw(st.sampled_from([b'[{"Rank":1,"Player":"A","Points":3}]', b"null",
                                           b'[{"Player":"A","Player":"B"}]'])
                          | _json_text(2)),
    }
    keys = draw(st.lists(st.sampled_from([*parts, "Other"]), max_size=6))
    pairs = [_key_text(k, draw(st.booleans())) + b":" + parts.get(k, b"1") for k in keys]
    text = b"{" + b",".join(pairs) + b"}"
    if draw(st.booleans()):  # one byte changed, taken out or put in
        at = draw(st.integers(0, len(text) - 1))
        byte = bytes([draw(st.integers(0, 255))])
        text = draw(st.sampled_from([text[:at] + byte + text[at + 1:], text[:at] + text[at + 1:],
                                     text[:at] + byte + text[at:]]))
    return text


def _check_parts(data: bytes) -> bool:
    """``_read_parts`` on ``data`` gives None, or the parts orjson's document holds (same
    keys in the same order, same values and types) of a text no key of which is read twice;
    True when it gave them."""
    got = decklist._read_parts(data)
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        assert got is None, data
        return False
    if got is None:
        return False
    assert type(doc) is dict
    want = {k: v for k, v in doc.items() if k in decklist._PARTS}
    assert repr(got) == repr(want), data  # (repr: 1 and 1.0, 0.0 and -0.0 differ)
    assert decklist._twice_exact(data) == "", data
    return True


@settings(max_examples=600, deadline=None)
@given(_decklist_text())
def test_read_parts_are_orjsons_or_nothing(data: bytes) -> None:
    """On generated files (parts in any order, repeated or missing, ``Decks`` null or after
    ``Rounds``, root keys written with escapes or inside texts, keys repeated in objects
    read or not, numbers beyond 64 bits or infinite, lone surrogates, bytes that are not
    UTF-8, a byte changed): every text orjson refuses gives None (the whole parse then
    raises its error), and any parts given are orjson's, of a text repeating no key read."""
    _check_parts(data)


@settings(max_examples=300, deadline=None)
@given(_json_text())
def test_read_parts_of_any_json_value_are_orjsons_or_nothing(data: bytes) -> None:
    """The same on any generated value at the root (a list, a number, an object of any
    keys)."""
    _check_parts(data)


def test_read_parts_take_the_corpus_layout_and_its_hostile_texts() -> None:
    """The files as written (and with a deck naming a card ``"Rounds"``, a root key spelled
    with an escape, ``Decks`` last or missing) are read by ``_read_parts``, not left to the
    whole parse; a key repeated in a match, a row or ``Tournament``, or at the root, is."""
    for f in GOOD:
        assert _check_parts(f.read_bytes()), f
    base = (FIX / "melee-draws-2-2024-07-13.json").read_bytes()
    doc = orjson.loads(base)
    decks = [{"Player": "A", "Mainboard": [{"Count": 4, "CardName": '"Rounds":[{'}]}]
    variants = [
        orjson.dumps({**doc, "Decks": decks}),
        orjson.dumps({k: v for k, v in doc.items() if k != "Decks"}),
        orjson.dumps({**{k: v for k, v in doc.items() if k != "Decks"}, "Decks": None}),
        orjson.dumps(doc, option=orjson.OPT_INDENT_2).replace(b'"Rounds"', b'"\\u0052ounds"'),
    ]
    for text in variants:
        assert _check_parts(text), text
    repeated = [
        base.replace(b'"Result":', b'"Result":"0-0-0","Result":', 1),
        base.replace(b'"Points":', b'"Points":0,"Points":', 1),
        base.replace(b'"Name":', b'"Name":"x","Name":', 1),
        base.replace(b'"Rounds":', b'"Rounds":[],"Rounds":', 1),
        base.replace(b'"Rounds":', b'"Decks":[],"Decks":[],"Rounds":', 1),
    ]
    for text in repeated:
        assert text != base
        assert decklist._read_parts(text) is None, text


def test_without_simdjson_files_are_parsed_whole_to_the_same_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simdjson is optional: without it every file takes the whole parse, same tables."""
    for f in GOOD:
        shutil.copy(f, tmp_path / f.name)
    fast = read_decklist_cache(tmp_path, workers=1)
    monkeypatch.setattr(decklist, "_simdjson", None)
    assert decklist._read_parts(GOOD[0].read_bytes()) is None
    assert _same(read_decklist_cache(tmp_path, workers=1), fast)


def test_deep_decklists_are_read_when_simdjson_finds_no_repeat(tmp_path: Path) -> None:
    """Decklists nested 1,000 levels deep (orjson and simdjson read 1,024, Python's json
    about 990) with a ``\\u`` escape (which the byte screen leaves to Python's json): read
    when ``_read_parts`` sees no key repeated where the reader reads; a match repeating
    ``Result`` is still refused as too deep to check (class 93)."""
    deep = "[" * 1000 + "]" * 1000
    text = ('{"Tournament":{"Date":"2024-07-13","Name":"N","Uri":"https://melee.gg/Tournament/'
            'View/1","Formats":"Modern"},"Decks":[' + deep + ',"\\u0041"],"Rounds":[{"RoundName":'
            '"Round 1","Matches":[{"Player1":"A","Player2":"B","Result":"2-1-0"}]}],'
            '"Standings":[{"Rank":1,"Player":"A","Points":3},{"Rank":2,"Player":"B","Points":0}]}')
    path = tmp_path / "melee-deep-2-2024-07-13.json"
    path.write_text(text)
    assert decklist._read_parts(text.encode()) is not None
    assert read_decklist_cache(path).results.height == 2
    path.write_text(text.replace('"Result":"2-1-0"', '"Result":"2-1-0","Result":"0-2-0"'))
    with pytest.raises(ImportFormatError, match="are nested too deeply"):
        read_decklist_cache(path)


_FLOAT = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_FLOAT.map(repr), _FLOAT.map(lambda f: f"{f:.25e}"),
                          _FLOAT.map(lambda f: f"{f:.3E}"), st.integers(-(2**65), 2**65).map(str)),
                max_size=20))
def test_read_parts_numbers_are_orjsons_to_the_bit(numbers: list[str]) -> None:
    """Numbers written back by simdjson (shortest exact form) and read by orjson are the
    numbers orjson reads in the file: the same floats (``-0.0`` too) and ints, never an int
    for a float; integers beyond 64 bits (orjson reads floats) and infinite numbers (orjson
    refuses them) give None."""
    data = ('{"Tournament":{"x":[' + ",".join(numbers) + ']},"Decks":[1],"Rounds":[]}').encode()
    if _check_parts(data):
        return
    finite = all(math.isfinite(float(n)) for n in numbers)  # (else orjson refuses it)
    assert not finite or any(n.lstrip("-").isdigit() and not -(2**63) <= int(n) < 2**64
                             for n in numbers), data


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks here")
def test_an_interrupt_while_the_workers_fork_is_raised_after_it() -> None:
    """A Ctrl-C during a fork ran in Python's after-fork handlers, which swallow it: the read
    went on (bad data 225). Held while the workers are forked, it is raised as the block
    ends, and each worker starts with the interrupts let through again."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    reached = []

    def held() -> None:
        with decklist._interrupts_held():
            signal.raise_signal(signal.SIGINT)  # (pending: not raised here)
            reached.append(True)

    try:
        with pytest.raises(KeyboardInterrupt):
            held()
        assert reached == [True]
    finally:
        signal.signal(signal.SIGINT, previous)
    with decklist._pool(1) as pool:
        with decklist._interrupts_held():
            mask = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, [])
        assert not {signal.SIGINT, signal.SIGTERM} & set(mask.result(timeout=60))
