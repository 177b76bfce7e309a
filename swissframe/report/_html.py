"""The page around a report: one self-contained HTML document (styles, scripts and the Vega
libraries inline, no network request), and the small builders the sections use."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import unicodedata
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any, Final

from swissframe.errors import SwissframeError

__all__ = ["Table", "chart_block", "page", "page_names", "script_json", "slug", "table_html",
           "vega_bundle", "vega_loader"]

#: No request may leave the page: scripts and styles are inline, images are data:/blob: URLs
#: (chart downloads), nothing is fetched.
CSP: Final = ("default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; "
              "style-src 'unsafe-inline'; img-src data: blob:; font-src data:; "
              "connect-src 'none'; base-uri 'none'; form-action 'none'")

STYLE: Final = """
:root { --ink:#1d1d1f; --muted:#5f6368; --rule:#e3e3e3; --accent:#0072B2; --cut:#D55E00;
        --in:#eef5fb; --g:#009E73; --p:#E69F00; --e:#9a9a9a; }
* { box-sizing: border-box; }
body { margin:0; color:var(--ink); background:#fff;
       font: 16px/1.55 Georgia, "Times New Roman", "DejaVu Serif", serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 28px 60px; }
header.top { border-bottom: 3px solid var(--ink); padding-bottom: 14px; margin-bottom: 18px; }
.kicker { font: 600 12px/1.2 "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
          letter-spacing: .08em; text-transform: uppercase; color: var(--accent); }
h1 { font-size: 34px; line-height: 1.15; margin: 6px 0 8px; }
h2 { font-size: 22px; margin: 34px 0 8px; padding-top: 10px; border-top: 1px solid var(--rule); }
h3 { font: 600 15px/1.3 "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
     margin: 18px 0 6px; }
.meta { font: 14px/1.5 "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
        color: var(--muted); }
.meta b { color: var(--ink); font-weight: 600; }
.lede { font-size: 19px; line-height: 1.5; margin: 14px 0 4px; }
p { margin: 8px 0; max-width: 46em; }
.note { font: 13px/1.45 "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
        color: var(--muted); max-width: 60em; }
.callout { border-left: 4px solid var(--cut); background: #fdf4ee; padding: 10px 14px;
           margin: 12px 0; max-width: 46em; }
.sans, table { font-family: "Helvetica Neue", Arial, "Liberation Sans", sans-serif; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 4px 9px; text-align: right; white-space: nowrap; }
th { font-weight: 600; border-bottom: 2px solid var(--ink); background: #fff;
     position: sticky; top: 0; z-index: 1; }
td.l, th.l { text-align: left; }
tbody tr { border-bottom: 1px solid var(--rule); }
tbody tr:hover { background: #f6f6f6; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #bbb; font-weight: normal; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; color: var(--accent); }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; color: var(--accent); }
tr.in-cut { background: var(--in); }
tr.cut-line td { border-bottom: 2px dashed var(--cut); }
.scroll { max-height: 560px; overflow: auto; border: 1px solid var(--rule); margin: 8px 0;
          display: inline-block; max-width: 100%; }
figure.chart { margin: 22px 0 10px; overflow-x: auto; }
.wide { overflow-x: auto; max-width: 100%; margin: 8px 0; }
td.wrap { white-space: normal; min-width: 16em; max-width: 30em; }
.chart .vega-embed { font-family: "Helvetica Neue", Arial, sans-serif; }
.chip { display: inline-block; min-width: 22px; padding: 0 5px; margin: 0 1px;
        border-radius: 3px; color: #fff; font-size: 12px; text-align: center; }
.chip.g { background: var(--g); } .chip.p { background: var(--p); }
.chip.e { background: var(--e); }
.tag { font-size: 12px; color: var(--muted); }
ul.facts { padding-left: 18px; max-width: 46em; }
footer { margin-top: 40px; border-top: 1px solid var(--rule); padding-top: 10px; }
a { color: var(--accent); }
@media print { .scroll { max-height: none; overflow: visible; border: 0; }
               th { position: static; } }
"""

SCRIPT: Final = """
(function () {
  function key(cell) {
    var v = cell.getAttribute('data-v');
    if (v === null) { v = cell.textContent.trim(); }
    var n = parseFloat(v);
    return (v !== '' && !isNaN(n) && isFinite(v)) ? n : v.toLowerCase();
  }
  function sortBy(table, index, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute('aria-sort') !== 'ascending';
    rows.sort(function (a, b) {
      var x = key(a.cells[index]), y = key(b.cells[index]);
      var c = (typeof x === 'number' && typeof y === 'number') ? x - y
            : String(x).localeCompare(String(y));
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells,
      function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (t) {
    Array.prototype.forEach.call(t.tHead.rows[0].cells, function (th, i) {
      th.tabIndex = 0;
      th.addEventListener('click', function () { sortBy(t, i, th); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(t, i, th); }
      });
    });
  });
  if (typeof vegaEmbed === 'undefined') { return; }
  Array.prototype.forEach.call(document.querySelectorAll('script[data-chart]'), function (s) {
    var target = document.getElementById(s.getAttribute('data-chart'));
    var spec = JSON.parse(s.textContent);
    vegaEmbed(target, spec, {
      renderer: 'svg', downloadFileName: s.getAttribute('data-name') || 'chart',
      actions: {export: true, source: false, compiled: false, editor: false}
    }).then(function () { target.setAttribute('data-rendered', 'true'); })
      .catch(function (err) { console.error('chart ' + target.id + ': ' + err); });
  });
})();
"""


@functools.cache
def vega_bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one inline script (from vl-convert; cached in
    memory and on disk, keyed by the vl-convert version)."""
    try:
        import vl_convert
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = ("the report needs vl-convert-python to inline the chart libraries. Hint: pip "
               "install 'swissframe[charts]'.")
        raise SwissframeError(msg) from exc
    version = getattr(vl_convert, "__version__", "unknown")
    folder = _cache_dir()
    cache = folder / f"vega-bundle-vl-convert-{version}.js" if folder else None
    if cache is not None and (kept := _cached_bundle(cache)) is not None:
        return kept
    # (no "</script" may end the inline element early; the snippet argument is optional)
    js = str(vl_convert.javascript_bundle()).replace(  # type: ignore[call-arg]
        "</script", "<\\/script")
    if cache is None:  # (no home: kept in memory only)
        return js
    try:  # building the bundle takes a second or more: keep it for the next run
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(_DIGEST_LINE % _digest(js.encode("utf-8")) + js.encode("utf-8"))
        tmp.replace(cache)
    except OSError:
        pass
    return js


#: The first line of the cached bundle: the SHA-256 of the rest, so that a damaged copy
#: is known (:func:`_cached_bundle`).
_DIGEST_LINE: Final = b"// sha256 %s\n"


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).hexdigest().encode("ascii")


def _cached_bundle(cache: Path) -> str | None:
    """The bundle kept in ``cache``, or None where it is missing or is not the copy written
    there: its first line's digest is not its content's — empty, cut short, or written
    over by something else (an empty copy gave pages whose charts were never drawn,
    exit 0 and no word; bytes that are not UTF-8 a ``UnicodeDecodeError`` traceback of
    every report) — or it is no regular file of bounded size: the bundle is built again
    and the copy replaced."""
    from swissframe.io._files import read_bytes

    try:
        data = read_bytes(cache)
    except SwissframeError:
        return None
    head, _, js = data.partition(b"\n")
    if head + b"\n" != _DIGEST_LINE % _digest(js):
        return None
    return js.decode("utf-8")


def vega_loader() -> str:
    """:func:`vega_bundle` as a script that may be repeated in a page and runs once.

    The bundle declares its names (``const``, ``function``) at the top level of a classic
    script, which is page-wide: a second copy in the same page (a notebook's next chart
    output) fails with "Identifier … has already been declared". Here the bundle runs in a
    function of its own (its names stay local; it publishes ``window.vegaEmbed``,
    ``window.vega`` and ``window.vegaLite`` itself), and only when ``window.vegaEmbed`` is
    not yet defined.
    """
    return ("(function () {\nif (typeof window.vegaEmbed !== 'undefined') { return; }\n"
            f"{vega_bundle()}\n}})();")


def _cache_dir() -> Path | None:
    """``$SWISSFRAME_CACHE``, else ``$XDG_CACHE_HOME/swissframe``, else
    ``~/.cache/swissframe``; None without a home (nothing is kept on disk then)."""
    from swissframe.io._files import home

    env = os.environ.get("SWISSFRAME_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "swissframe"
    user = home()
    return user / ".cache" / "swissframe" if user else None


def script_json(spec: dict[str, Any]) -> str:
    """JSON safe inside a <script> element (``<``, ``>`` and ``&`` escaped)."""
    text = json.dumps(spec, separators=(",", ":"), allow_nan=False, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def chart_block(chart_id: str, spec: dict[str, Any], name: str, caption: str = "") -> str:
    """A chart's placeholder, its inline spec and an optional caption."""
    cap = f'<p class="note">{escape(caption)}</p>' if caption else ""
    # what a screen reader says: the chart's title and caption (``name`` is a file name)
    title = spec.get("title", "")
    title = title.get("text", "") if isinstance(title, dict) else title
    title = " ".join(title) if isinstance(title, list) else str(title)
    label = ". ".join(x for x in (title.strip(), caption.strip()) if x) or name
    return (f'<figure class="chart"><div id="{chart_id}" '
            f'role="img" aria-label="{escape(label)}"></div>'
            f'<script type="application/json" data-chart="{chart_id}" '
            f'data-name="{escape(name)}">{script_json(spec)}</script>{cap}</figure>')


class Table:
    """A table as header cells and rows of (text, sort key, classes) cells."""

    def __init__(self, header: Sequence[tuple[str, str]], *, sortable: bool = False,
                 scroll: bool = False, table_id: str = "") -> None:
        self.header = list(header)  # (label, "l"|"")
        self.rows: list[tuple[list[tuple[str, object, str]], str]] = []
        self.sortable, self.scroll, self.table_id = sortable, scroll, table_id

    def add(self, cells: Iterable[tuple[str, object, str] | str], row_class: str = "") -> None:
        """Add a row; a cell is raw HTML text, or (html, sort key, css class)."""
        out = [(c, None, "") if isinstance(c, str) else c for c in cells]
        self.rows.append((out, row_class))

    def html(self) -> str:
        """The table element (in a scroll box when ``scroll``)."""
        return table_html(self)


def table_html(t: Table) -> str:
    """Render a :class:`Table`."""
    cls = ' class="sortable"' if t.sortable else ""
    tid = f' id="{t.table_id}"' if t.table_id else ""
    head = "".join(f'<th class="{a}">{escape(h)}</th>' if a else f"<th>{escape(h)}</th>"
                   for h, a in t.header)
    body = []
    for cells, rc in t.rows:
        tds = []
        for text, key, c in cells:
            attrs = f' class="{c}"' if c else ""
            if key is not None:
                attrs += f' data-v="{escape(str(key))}"'
            tds.append(f"<td{attrs}>{text}</td>")
        body.append(f'<tr class="{rc}">' + "".join(tds) + "</tr>" if rc
                    else "<tr>" + "".join(tds) + "</tr>")
    html = f"<table{cls}{tid}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    return f'<div class="{"scroll" if t.scroll else "wide"}">{html}</div>'


def page(title: str, body: str, *, charts: bool = True) -> str:
    """The whole document: CSP, styles, body, the Vega bundle (when charts) and the script."""
    bundle = f"<script>{vega_bundle()}</script>" if charts else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="swissframe">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><main>{body}</main>{bundle}<script>{SCRIPT}</script></body></html>\n")


#: Names Windows refuses for a file, whatever its suffix.
_RESERVED: Final = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                              *(f"lpt{i}" for i in range(10))})
#: A slug's bounds: the atomic writer's temporary name adds ≈ 20 bytes to it, and a file
#: name has at most 255 bytes on most file systems.
_SLUG_CHARS: Final = 60
_SLUG_BYTES: Final = 120


def slug(text: str) -> str:
    """A file-name-safe form of ``text``, for the report's pages and its charts' downloads:
    its letters, marks and digits in any script, case-folded (two names a case-insensitive
    file system takes for one are one slug: ``Straße``, ``STRASSE``), every other run a
    ``-``; at most 60 characters and 120 bytes of UTF-8; ``"event"`` when nothing is left.

    Examples
    --------
    >>> slug("GP Las Vegas 2025: Day 2"), slug("東京 予選"), slug("***")
    ('gp-las-vegas-2025-day-2', '東京-予選', 'event')
    """
    kept = "".join(ch if unicodedata.category(ch)[0] in "LMN" else "-"
                   for ch in unicodedata.normalize("NFC", text.casefold()))
    s = "-".join(part for part in kept.split("-") if part)[:_SLUG_CHARS]
    while len(s.encode()) > _SLUG_BYTES:
        s = s[:-1]
    s = s.strip("-")
    return f"{s}-event" if s in _RESERVED else s or "event"


def page_names(ids: Iterable[str]) -> dict[str, str]:
    """One distinct file name (without suffix) for each of ``ids``: its :func:`slug`, and
    where two slugs are one (ids in a script slugs keep apart only by case or punctuation,
    or nothing left of either), the later one's with 8 hex digits of its id's hash.

    Examples
    --------
    >>> page_names(["Round-up", "round up", "!!", "??"])
    {'Round-up': 'round-up', 'round up': 'round-up-3f520216', '!!': 'event', '??': 'event-16c8f8ac'}
    """
    names: dict[str, str] = {}
    used: set[str] = set()
    for text in ids:  # (one name per event of a season: no engine data)
        name = base = slug(text)
        n = 1
        while name in used:  # (a hash clash too: then a counter)
            tail = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:8]
            name = f"{base}-{tail}" if n == 1 else f"{base}-{tail}-{n}"
            n += 1
        used.add(name)
        names[text] = name
    return names
