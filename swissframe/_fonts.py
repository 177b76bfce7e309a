"""Which characters this machine's fonts can draw: for the warning of a PNG or PDF chart whose
text vl-convert would draw as empty boxes (a Japanese event's names on a machine with no
Japanese font), ``charts._drawable``.

vl-convert draws an image's text with the fonts it finds on the machine (the folders read
below, as its font database reads them) plus those registered with
:func:`swissframe.charts.register_font_directory`, and its own Liberation Sans; a character
no font has is drawn as an empty box, silently. An SVG or HTML export keeps the text, which
the viewer's fonts draw.

Only a font's character map is read (its ``cmap`` table, formats 4 and 12, in every face of
a collection), and only for the characters asked: a machine with thousands of fonts is
scanned once, each file until every character asked is found.
"""

from __future__ import annotations

import bisect
import functools
import os
import struct
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, Final
from xml.etree import ElementTree

from swissframe.io._files import home as user_home

__all__ = ["MOST_FACES", "add_font_directory", "font_directories", "undrawn",
           "unreadable_collections", "unreadable_machine_collections"]

#: What vl-convert draws with no font installed: its bundled Liberation Sans (ranges of
#: Liberation Sans 1.07.4's map — Latin, Greek, Cyrillic, common punctuation and arrows —,
#: which its later versions extend).
BUNDLED: Final = ((0x20, 0x7E), (0xA0, 0x17F), (0x384, 0x3CE), (0x400, 0x45F),
                  (0x2010, 0x2027), (0x2030, 0x203A), (0x20AC, 0x20AC), (0x2190, 0x2195))
#: The most faces a font collection is read for (real ones hold a few dozen): vl-convert's
#: font database reads every face a collection's header declares, and draws more slowly
#: with each (a chart took 33 s with 200,000 copies of one face, 4 s with none).
MOST_FACES: Final = 1024
_FONT_SUFFIXES: Final = (".ttf", ".otf", ".ttc", ".otc")
#: Folders the user added (:func:`add_font_directory`), searched first.
_ADDED: list[Path] = []
#: Code points found in some font, and those no font had at the last full scan.
_FOUND: set[int] = set()
_ABSENT: set[int] = set()
#: Font folders found free of unreadable collections (vl-convert reads the machine's fonts
#: once a process, at its first image or first registered folder: a clean one is not read
#: again).
_READABLE: set[Path] = set()


def font_directories() -> list[Path]:
    """The folders searched for fonts: those added, then the system's and the user's (as
    vl-convert's font database lists them for this platform: on Linux and the BSDs the
    folders fontconfig's configuration names, then the usual ones)."""
    home = user_home()

    def under(*parts: str) -> list[Path]:  # (a folder under the home; none without one)
        return [home.joinpath(*parts)] if home else []

    if sys.platform == "win32":
        windir = Path(os.environ.get("WINDIR", r"C:\Windows"))
        local = os.environ.get("LOCALAPPDATA")
        system = [windir / "Fonts",
                  *([Path(local) / "Microsoft" / "Windows" / "Fonts"] if local else
                    under("AppData", "Local", "Microsoft", "Windows", "Fonts"))]
    elif sys.platform == "darwin":
        system = [Path("/Library/Fonts"), Path("/System/Library/Fonts"),
                  Path("/Network/Library/Fonts"), *under("Library", "Fonts")]
    else:
        data = os.environ.get("XDG_DATA_HOME")
        dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
        system = [*_fontconfig_dirs(),
                  *([Path(data) / "fonts"] if data else under(".local", "share", "fonts")),
                  *(Path(d) / "fonts" for d in dirs.split(":") if d), *under(".fonts")]
    return list(dict.fromkeys([*_ADDED, *system]))


def _fontconfig_dirs() -> list[Path]:
    """:func:`_read_fontconfig` under the environment it reads (24 ms to read this machine's
    35 files: read once a process, as vl-convert reads them once)."""
    env = tuple(os.environ.get(k) for k in ("FONTCONFIG_FILE", "XDG_CONFIG_HOME",
                                            "XDG_DATA_HOME", "HOME"))
    try:
        cwd: str | None = os.getcwd()
    except OSError:  # (a working folder deleted since: its relative entries name nothing)
        cwd = None
    return list(_read_fontconfig(env, cwd))


@functools.lru_cache(maxsize=4)
def _read_fontconfig(env: tuple[str | None, ...], cwd: str | None) -> tuple[Path, ...]:
    """The font folders fontconfig's configuration names (its ``<dir>`` elements, through
    its ``<include>``s), read from the files vl-convert's font database reads:
    ``$FONTCONFIG_FILE``, else the user's ``fontconfig/fonts.conf`` (or, without one,
    ``/etc/fonts/local.conf``) and ``/etc/fonts/fonts.conf``. A file that cannot be read is
    passed over, as vl-convert passes it over."""
    fontconfig_file, config_home, data_home, _ = env
    home = user_home()
    # (without a home, what is under it is passed over, as vl-convert passes it over)
    config = Path(config_home) if config_home else home / ".config" if home else None
    data = Path(data_home) if data_home else home / ".local" / "share" if home else None
    if fontconfig_file:
        files = [Path(fontconfig_file)]
    else:
        user = config / "fontconfig" / "fonts.conf" if config else None
        files = [user if user and user.is_file() else Path("/etc/fonts/local.conf"),
                 Path("/etc/fonts/fonts.conf")]
    found: list[Path] = []
    read: set[Path] = set()
    todo = files
    while todo and len(read) < 1_000:  # (an include naming its own file is read once)
        path = todo.pop(0)
        if path in read or not path.is_file():
            continue
        read.add(path)
        root = _config_root(path)
        if root is None:
            continue
        base = path.parent
        for element in root:
            text = (element.text or "").strip()
            if not text or element.tag not in ("dir", "include"):
                continue
            prefix = element.get("prefix", "default")
            named = Path(text)
            if prefix == "xdg":  # (a folder of fonts under the data home, a file under the
                root_of = data if element.tag == "dir" else config  # config home)
                if root_of is None:
                    continue
                named = root_of / text
            elif text.startswith("~"):
                if home is None:
                    continue
                named = home / text[1:].lstrip("/")
            elif not named.is_absolute():
                if prefix == "relative" or element.tag == "include":
                    named = base / named
                elif cwd is None:
                    continue
                else:
                    named = Path(cwd) / named
            if element.tag == "dir":
                found.append(named)
            elif named.is_dir():  # (a folder's *.conf files, in name order)
                todo[:0] = sorted(p for p in named.iterdir() if p.suffix == ".conf")
            else:
                todo.insert(0, named)
    return tuple(found)


def _config_root(path: Path) -> ElementTree.Element | None:
    """The root element of a fontconfig file, or None when it cannot be read as XML."""
    from defusedxml import ElementTree as SafeTree
    from defusedxml.common import DefusedXmlException

    try:
        with path.open("rb") as f:
            root: ElementTree.Element = SafeTree.fromstring(f.read(1_000_000))
    except (OSError, ElementTree.ParseError, DefusedXmlException, ValueError):
        return None
    return root


def add_font_directory(path: Path) -> None:
    """Search ``path`` too (first); characters no font had are looked for again."""
    _ADDED.insert(0, path)
    _ABSENT.clear()


def undrawn(chars: Iterable[str]) -> str:
    """The characters of ``chars`` (in code point order, each once) that neither the bundled
    font nor any font of :func:`font_directories` maps: an image draws them as boxes.
    Blanks and control characters (drawn as nothing, or escaped before) are not counted.

    >>> undrawn("Alice Ørsted – Ελένη")
    ''
    """
    wanted = {ord(c) for c in set(chars) if c.isprintable() and not c.isspace()
              and not _selector(ord(c))}
    need = {c for c in wanted if not _bundled(c)} - _FOUND
    unknown = need - _ABSENT  # (absent at the last scan: still absent, unless a font is added)
    if unknown:
        missing = set(unknown)
        for path in _font_files():
            if not missing:
                break
            missing -= _mapped(path, missing)
        _FOUND.update(unknown - missing)
        _ABSENT.update(missing)
    return "".join(chr(c) for c in sorted(need & _ABSENT))


def _selector(cp: int) -> bool:
    """A variation selector (an emoji's U+FE0F): it picks a glyph's form and is no glyph
    of its own, whether a font maps it or not."""
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def _bundled(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in BUNDLED)


def _font_files(folders: Iterable[Path] | None = None) -> Iterator[Path]:
    """The font files of ``folders`` (default: :func:`font_directories`) and their
    subfolders, each once."""
    seen: set[Path] = set()
    walked: set[str] = set()
    for folder in font_directories() if folders is None else folders:
        if not folder.is_dir():
            continue
        # (links to folders are followed, as vl-convert's font database follows them — a
        # font reached through one was drawn while this said boxes —, each folder once: a
        # link to a parent is no endless walk)
        for root, dirs, files in os.walk(folder, onerror=None, followlinks=True):
            here = os.path.realpath(root)
            if here in walked:
                dirs.clear()
                continue
            walked.add(here)
            dirs.sort()
            for name in sorted(files):
                path = Path(root) / name
                # (regular files only: opening a FIFO named like a font waited forever)
                if (name.lower().endswith(_FONT_SUFFIXES) and path not in seen
                        and path.is_file()):
                    seen.add(path)
                    yield path


def _mapped(path: Path, cps: set[int]) -> set[int]:
    """The code points of ``cps`` some face of the font file ``path`` maps to a glyph (none
    when the file cannot be read as a font: it draws nothing either)."""
    try:
        with path.open("rb") as f:
            found: set[int] = set()
            for face in _faces(f):
                table = _cmap(f, face) if _named(f, face) else None
                if table is not None:
                    found |= {c for c in cps if _has(table, c)}
            return found
    except (OSError, struct.error, ValueError, IndexError):
        return set()


def _read(f: BinaryIO, offset: int, size: int) -> bytes:
    f.seek(offset)
    data = f.read(size)
    if len(data) != size:
        msg = "truncated font"
        raise ValueError(msg)
    return data


def unreadable_collections(folder: Path) -> list[Path]:
    """The font collections under ``folder`` whose table of faces does not fit in the file
    (a header declaring 4 billion faces in 12 bytes), or declaring more faces than
    :data:`MOST_FACES` (copies of one face): vl-convert's font database tries every face
    such a header declares, and never returns.

    >>> import tempfile
    >>> unreadable_collections(Path(tempfile.mkdtemp()))
    []
    """
    bad = []
    for path in _font_files([folder]):
        try:
            with path.open("rb") as f:
                head = f.read(12)
                size = os.fstat(f.fileno()).st_size
        except OSError:
            continue
        n = _declared_faces(head)
        if n is not None and (n > MOST_FACES or 12 + 4 * n > size):
            bad.append(path)
    return bad


def unreadable_machine_collections() -> list[Path]:
    """The unreadable collections (:func:`unreadable_collections`) of every folder of
    :func:`font_directories` — the machine's and the user's, which vl-convert reads before
    its first image of a process, or its first folder registered —, each once; ``[]``
    without reading again a folder found free of one (a folder that held one is read again:
    the file may have been removed since).

    >>> isinstance(unreadable_machine_collections(), list)
    True
    """
    bad: dict[Path, None] = {}
    for folder in font_directories():
        if folder not in _READABLE:
            found = unreadable_collections(folder)
            bad.update(dict.fromkeys(found))
            if not found:
                _READABLE.add(folder)
    return list(bad)


def _declared_faces(head: bytes) -> int | None:
    """How many faces a font file's first 12 bytes declare it holds when it is a
    collection (``ttcf``), else None."""
    if len(head) < 12 or head[:4] != b"ttcf":
        return None
    (n,) = struct.unpack(">I", head[8:12])
    return int(n)


def _faces(f: BinaryIO) -> list[int]:
    """The offsets of the table directories of a font file's faces (one, or a collection's)."""
    n = _declared_faces(_read(f, 0, 12))
    if n is None:
        return [0]
    n = min(n, MOST_FACES)
    return list(struct.unpack(f">{n}I", _read(f, 12, 4 * n)))


#: The character maps read, by preference: Unicode full repertoire (format 12), then BMP.
_PREFERRED: Final = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def _table(f: BinaryIO, face: int, name: bytes) -> bytes | None:
    """The face's table ``name`` (e.g. ``b"cmap"``), or None."""
    (count,) = struct.unpack(">H", _read(f, face + 4, 2))
    directory = _read(f, face + 12, 16 * count)
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", directory, 16 * i)
        if tag == name:
            return _read(f, offset, length)
    return None


def _named(f: BinaryIO, face: int) -> bool:
    """Whether the face's ``name`` table gives a family name (ID 1 or 16) and a PostScript
    name (ID 6): vl-convert's font database leaves out a face without both, whatever its
    character map holds (a font built with only a family name drew boxes)."""
    table = _table(f, face, b"name")
    if table is None:
        return False
    (n,) = struct.unpack_from(">H", table, 2)
    ids = {struct.unpack_from(">HH", table, 6 + 12 * i + 6) for i in range(n)}
    given = {name_id for name_id, length in ids if length}
    return 6 in given and bool(given & {1, 16})


def _cmap(f: BinaryIO, face: int) -> tuple[int, bytes] | None:
    """``(format, subtable)`` of the face's preferred Unicode character map, or None."""
    table = _table(f, face, b"cmap")
    if table is None:
        return None
    (n,) = struct.unpack_from(">H", table, 2)
    records = {struct.unpack_from(">HH", table, 4 + 8 * i): struct.unpack_from(
        ">I", table, 8 + 8 * i)[0] for i in range(n)}
    for key in _PREFERRED:
        if key in records:
            sub = records[key]
            (fmt,) = struct.unpack_from(">H", table, sub)
            if fmt == 4:
                (size,) = struct.unpack_from(">H", table, sub + 2)
                return 4, table[sub:sub + size]
            if fmt == 12:
                (size,) = struct.unpack_from(">I", table, sub + 4)
                return 12, table[sub:sub + size]
    return None


def _has(table: tuple[int, bytes], cp: int) -> bool:
    """Whether the character map ``table`` gives ``cp`` a glyph (not glyph 0, the box)."""
    fmt, data = table
    if fmt == 12:
        (n,) = struct.unpack_from(">I", data, 12)
        ends = _Column(data, 16 + 4, 12, n, ">I")
        i = bisect.bisect_left(ends, cp)
        if i == n:
            return False
        start: int
        glyph: int
        start, _, glyph = struct.unpack_from(">III", data, 16 + 12 * i)
        return start <= cp and glyph + cp - start != 0
    if cp > 0xFFFF:
        return False
    (seg2,) = struct.unpack_from(">H", data, 6)
    segs = seg2 // 2
    ends = _Column(data, 14, 2, segs, ">H")
    i = bisect.bisect_left(ends, cp)
    if i == segs:
        return False
    starts, deltas, ranges = 16 + seg2, 16 + 2 * seg2, 16 + 3 * seg2
    (start,) = struct.unpack_from(">H", data, starts + 2 * i)
    delta: int
    offset: int
    if cp < start:
        return False
    (delta,) = struct.unpack_from(">h", data, deltas + 2 * i)
    (offset,) = struct.unpack_from(">H", data, ranges + 2 * i)
    if offset == 0:
        return (cp + delta) & 0xFFFF != 0
    (found,) = struct.unpack_from(">H", data, ranges + 2 * i + offset + 2 * (cp - start))
    glyph = found
    return glyph != 0 and (glyph + delta) & 0xFFFF != 0


class _Column:
    """The ``n`` big-endian integers of a font table at ``start`` every ``step`` bytes, as a
    sequence ``bisect`` searches without reading them all."""

    def __init__(self, data: bytes, start: int, step: int, n: int, kind: str) -> None:
        self.data, self.start, self.step, self.n, self.kind = data, start, step, n, kind

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        value: int = struct.unpack_from(self.kind, self.data, self.start + self.step * i)[0]
        return value
