"""Publication-quality charts of standings, cut analyses and rule sensitivity (Altair).

Altair is imported lazily, inside the functions: ``import swissframe`` never imports it.
Install the ``charts`` extra (``pip install 'swissframe[charts]'``: altair and vl-convert).

Every ``chart_*`` function takes a tidy frame returned by the public API and returns an
Altair chart object (a layered or concatenated chart where the figure needs several marks);
none displays or saves anything by itself. :func:`save` writes PNG, SVG, PDF, HTML or the
Vega-Lite JSON, offline (vl-convert bundles the renderer).

- :func:`chart_standings` (``standings``): points and the ruleset's own tiebreakers (in its
  order, with their usual labels: OMW%, OOMW%, BH-C1, CTB…) of the top ~32 of one event,
  the cut line marked, points groups and exact ties visible, and what decided the cut;
- :func:`chart_standings_race` (``standings_by_round``): rank by round of the final top N,
  from the round where ranks start to carry information, shared ranks drawn as bars;
- :func:`chart_omw_ranges` (``cut.next_round_ranges`` + ``standings``): each contender's
  OMW% now and its exact min–max after the next round, per own result (rulesets that rank
  by OMW% only: :func:`check_omw_ranges`);
- :func:`chart_cut_status` (``cut.cut_status``): guaranteed / possible / eliminated and the
  probability of making the cut, by points group and own final-round result;
- :func:`chart_cut_lines` (``cut.id_report(...).events`` + field size): points needed for
  the top N versus players across events, intentional draws and their counterfactual marked;
- :func:`chart_sensitivity` (``sensitivity``): events x alternative rulesets heatmap of
  top-N changes.

Titles: the event's name when the frame has an ``event_name`` column (else its
``event_id``), or ``title=``; players show by ``name`` when the frame has that column.
Criterion labels come from :data:`swissframe.rules.LABELS` (one place); words that differ
by game (a chess score is "points", a chess draw no "ID"), read off the ruleset's values,
from :func:`swissframe.compare.criterion_label` and
:func:`swissframe.compare.knows_intentional_draws`.

The house theme ``"swissframe"`` (legible in print, colour-blind-safe Okabe-Ito palette) is
registered with Altair the first time a chart function runs and is opt-in: call
:func:`use_theme` to enable it. Semantic colours (cut status, zones) are fixed in the charts
themselves, so they stay the same under any theme. In Jupyter, :func:`enable_offline` renders
charts with no network (Vega inlined, or static SVG/PNG).
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import textwrap
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import polars as pl

from swissframe import rules as _rules
from swissframe._display import count, escaped, quoted, told_apart
from swissframe.compare import criterion_label, knows_intentional_draws
from swissframe.cut._words import CutWords, cut_words, draw_word
from swissframe.engine.tiebreakers import drawn_by_lot
from swissframe.errors import (
    DataError,
    DataWarning,
    RulesetError,
    SchemaError,
    SwissframeError,
    check_flag,
    check_names,
    check_real,
    check_whole,
)
from swissframe.schema import as_frame, check_output

if TYPE_CHECKING:  # pragma: no cover - typing only
    from types import ModuleType

__all__ = [
    "OFFLINE_RENDERER",
    "OKABE_ITO",
    "STATUS_COLORS",
    "THEME",
    "chart_cut_lines",
    "chart_cut_status",
    "chart_omw_ranges",
    "chart_sensitivity",
    "chart_standings",
    "chart_standings_race",
    "check_omw_ranges",
    "enable_offline",
    "register_font_directory",
    "save",
    "theme_config",
    "use_theme",
]

#: Name of the house theme registered with Altair (enable it with :func:`use_theme`).
THEME: Final = "swissframe"

#: Name of the offline HTML renderer registered with Altair (:func:`enable_offline`).
OFFLINE_RENDERER: Final = "swissframe-offline"

#: The Okabe-Ito colour-blind-safe palette (blue first), used for categories.
OKABE_ITO: Final = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                    "#F0E442", "#000000")

#: Cut-status colours (fixed in the charts, independent of the theme).
STATUS_COLORS: Final = {"guaranteed": "#009E73", "possible": "#E69F00",
                        "eliminated": "#BBBBBB"}

#: Colours of the standings chart's zones: inside the cut (or the top N places of a game
#: without a playoff, :func:`swissframe.cut._words.cut_words`), tied across it, outside.
_ZONE_COLORS: Final = ("#0072B2", "#E69F00", "#BBBBBB")


def _zones(words: CutWords) -> dict[str, str]:
    """The standings chart's zone names, in the ruleset's words, with their colours.

    >>> from swissframe.cut._words import CutWords
    >>> list(_zones(CutWords(8, playoff=False)))
    ['in the top 8', 'tied at place 8', 'outside']
    """
    names = (words.inside, f"tied at {words.line}", "outside")
    return dict(zip(names, _ZONE_COLORS, strict=True))
_OUTCOME_ORDER: Final = ("win", "draw", "loss")
_OUTCOME_COLORS: Final = ("#009E73", "#E69F00", "#D55E00")
_FONT: Final = "Helvetica Neue, Helvetica, Arial, Liberation Sans, DejaVu Sans, sans-serif"
_SAVE_FORMATS: Final = ("png", "svg", "pdf", "html", "json")
#: Characters an image's text cannot hold: XML 1.0 forbids the C0 controls other than tab,
#: line feed and carriage return, U+FFFE/U+FFFF and lone surrogates, and vl-convert's SVG
#: text parser panicked on them (a NUL in a player's name aborted the process, a partial
#: file left beside the output).
_NOT_DRAWABLE: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: Longest text an image draws (a name, a title); longer text is cut with an ellipsis:
#: a 5-million-character id kept vl-convert measuring it for minutes.
MAX_DRAWN_TEXT: Final = 200
#: The parts of a Vega-Lite spec whose text is drawn as it is: the data and the titles.
_SHOWN_KEYS: Final = frozenset({"datasets", "values", "title", "subtitle"})
#: Standings columns every ruleset has (README "Standings"); the others are its criteria.
_STABLE: Final = frozenset({"event_id", "player_id", "rank", "match_points", "wins", "losses",
                            "draws", "byes", "rounds_played", "dropped", "mwp", "gwp", "omwp",
                            "ogwp"})
#: Criteria that order players but have no value worth a dot (pairwise or arbitrary).
_NOT_PLOTTED: Final = frozenset({"random", "head_to_head", "direct_encounter"})
#: Criteria computed from the opponents' results rather than the player's own.
_OPPONENT_BASED: Final = frozenset({"omwp", "ogwp", "oomwp", "omlp", "octb", "omp",
                                    "buchholz", "sb"})
_MAX_PANELS: Final = 4
#: Most names one chart orders on an axis or in a legend (places, contenders, finishers,
#: players who move): a chart draws them in an explicit order, which Vega parses as one
#: expression, and vl-convert's parser overflowed its stack past about 1,450 names
#: ("RangeError: Maximum call stack size exceeded", a traceback of `chart --top 5000`;
#: bad data 261). A thousand places at 16 pixels is a chart 16,000 pixels tall already.
MAX_DRAWN_NAMES: Final = 1000

Frame = pl.DataFrame | pl.LazyFrame
Chart = Any  # an altair top-level chart (Chart, LayerChart, HConcatChart, ...)


# --------------------------------------------------------------------------------------------
# Altair, lazily, and the house theme
# --------------------------------------------------------------------------------------------


def theme_config() -> dict[str, Any]:
    """The house theme as a Vega-Lite config: print-legible sizes, Okabe-Ito categories.

    Examples
    --------
    >>> cfg = theme_config()
    >>> cfg["config"]["range"]["category"][:2]
    ['#0072B2', '#E69F00']
    >>> cfg["config"]["axis"]["labelFontSize"]
    11
    """
    return {
        "config": {
            "font": _FONT,
            "background": "white",
            "view": {"stroke": None, "continuousWidth": 420, "continuousHeight": 280},
            "title": {"fontSize": 15, "fontWeight": "bold", "anchor": "start",
                      "subtitleFontSize": 12, "subtitleColor": "#555555", "offset": 10},
            "axis": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal",
                     "gridColor": "#E6E6E6", "domainColor": "#888888", "tickColor": "#888888",
                     "labelColor": "#222222", "titleColor": "#222222"},
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal",
                       "symbolSize": 90},
            "header": {"labelFontSize": 12, "titleFontSize": 12},
            "range": {"category": list(OKABE_ITO)},
            "line": {"strokeWidth": 2},
            "point": {"size": 45, "filled": True},
            "text": {"fontSize": 10},
        },
    }


def _register(alt: ModuleType) -> None:
    """Register (not enable) the house theme, with the API of the installed Altair, and the
    offline renderer (:func:`enable_offline`)."""
    if OFFLINE_RENDERER not in alt.renderers.names():
        alt.renderers.register(OFFLINE_RENDERER, _offline_html)
    api = getattr(alt, "theme", None)
    if api is not None and hasattr(api, "register"):  # altair >= 5.5
        if THEME not in api.names():
            api.register(THEME, enable=False)(theme_config)
    else:  # pragma: no cover - altair < 5.5
        alt.themes.register(THEME, theme_config)


@functools.cache
def _alt() -> ModuleType:
    """Import Altair (once) and register the house theme."""
    try:
        import altair as alt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = ("charts need Altair, which is not installed. Hint: pip install "
               "'swissframe[charts]' (altair and vl-convert-python).")
        raise SwissframeError(msg) from exc
    except RuntimeError as exc:
        # (Altair names its datasets' cache from the home folder as it is imported, and
        # Python names none where HOME is unset and the user id has no entry in the
        # password database — a container run as an arbitrary user: a traceback from
        # every chart and report; bad data 171)
        from swissframe.io._files import home

        if home() is not None:  # pragma: no cover - another failure of Altair's import
            raise
        uid = getattr(os, "getuid", lambda: None)()
        who = f"user id {uid}" if uid is not None else "this user"
        msg = ("charts need Altair, which cannot be imported without a home folder: HOME is "
               f"not set, and {who} has none in the password database. Hint: set HOME to a "
               "folder (e.g. `HOME=/tmp swissframe chart …`, or os.environ['HOME'] in "
               "Python before the first chart).")
        raise SwissframeError(msg) from exc
    _register(alt)
    return alt


def use_theme(enable: bool = True) -> str:
    """Enable the house theme for every Altair chart (or go back to Altair's default).

    Parameters
    ----------
    enable
        True enables ``"swissframe"``; False re-enables Altair's ``"default"`` theme.

    Returns
    -------
    str
        The name of the theme now active.

    Examples
    --------
    >>> use_theme()
    'swissframe'
    >>> use_theme(False)
    'default'
    """
    if not isinstance(enable, bool):  # (a table here ended in "truth value … ambiguous")
        msg = f"use_theme takes True or False, got {enable!r:.40}. Hint: use_theme(False)."
        raise DataError(msg)
    alt = _alt()
    name = THEME if enable else "default"
    api = getattr(alt, "theme", None)
    if api is not None and hasattr(api, "enable"):
        api.enable(name)
    else:  # pragma: no cover - altair < 5.5
        alt.themes.enable(name)
    return name


def _offline_html(spec: dict[str, Any],
                  embed_options: dict[str, Any] | None = None) -> dict[str, str]:
    """Altair renderer of :func:`enable_offline`: a chart's HTML output that renders
    offline, however many such outputs share a page (a notebook in JupyterLab, its
    nbconvert HTML export).

    Each output carries Vega (vl-convert's bundle, :func:`swissframe.report._html.vega_loader`:
    the first output to run loads it for the page, the others skip it) and draws its chart
    into its own element (a unique id; its variables in a function of their own). Altair's
    ``template="inline"`` put the bundle and a ``const spec`` at a script's top level, so
    the second chart of a page stopped at "Identifier … has already been declared".

    Parameters
    ----------
    spec
        The Vega-Lite spec Altair passes a renderer.
    embed_options
        vega-embed options (``alt.renderers.set_embed_options``); the chart is drawn as SVG
        unless they say otherwise.

    Returns
    -------
    dict
        The mimebundle: ``{"text/html": …}``.
    """
    import uuid

    from swissframe.report._html import script_json, vega_loader

    chart_id = f"swissframe-chart-{uuid.uuid4().hex}"
    options = {"mode": "vega-lite", "renderer": "svg", **(embed_options or {})}
    draw = (
        "(function () {\n"
        "  var here = document.currentScript;\n"
        "  var el = here && here.previousElementSibling;\n"
        f"  if (!el || el.id !== '{chart_id}') {{ el = document.getElementById('{chart_id}'); }}\n"
        f"  var spec = {script_json(spec)};\n"
        f"  var options = {script_json(options)};\n"
        "  window.vegaEmbed(el, spec, options)\n"
        "    .then(function () { el.setAttribute('data-rendered', 'true'); })\n"
        "    .catch(function (err) {\n"
        "      el.textContent = 'The chart could not be drawn: ' + err.message;\n"
        "      console.error(err);\n"
        "    });\n"
        "})();")
    html = (f'<script type="text/javascript">{vega_loader()}</script>\n'
            f'<div id="{chart_id}" class="swissframe-chart"></div>\n'
            f'<script type="text/javascript">{draw}</script>')
    return {"text/html": html}


def enable_offline(renderer: Literal["html", "svg", "png"] = "html") -> Any:
    """Render charts in Jupyter with no network (Altair's default HTML loads Vega from a CDN).

    ``"html"`` keeps the charts interactive (tooltips): each output carries Vega, Vega-Lite
    and vega-embed (vl-convert's bundle, ~1 MB), which the first chart of a page loads and
    the others reuse, so every chart of a notebook renders, in JupyterLab and in an
    nbconvert HTML export alike (swissframe's renderer :data:`OFFLINE_RENDERER`; Altair's
    own inline template drew only a page's first chart). ``"svg"`` and ``"png"`` are
    static images rendered by vl-convert (small; shown by any viewer, GitHub included).
    It enables a renderer of Altair's registry: call it once, or scope it with ``with``.

    Parameters
    ----------
    renderer
        ``"html"`` (default), ``"svg"`` or ``"png"``.

    Returns
    -------
    altair.utils.plugin_registry.PluginEnabler
        Altair's enabler: a context manager that restores the previous renderer on exit.

    Examples
    --------
    >>> import altair as alt
    >>> before = alt.renderers.active
    >>> with enable_offline("svg"):
    ...     alt.renderers.active
    'svg'
    >>> alt.renderers.active == before
    True
    """
    if not isinstance(renderer, str):  # (a table compared with "html" raised in Polars)
        msg = (f"enable_offline: the renderer is a name, got {type(renderer).__name__}. "
               "Hint: use 'html', 'svg' or 'png'.")
        raise SwissframeError(msg)
    alt = _alt()
    if renderer == "html":
        from swissframe.report._html import vega_bundle

        vega_bundle()  # (vl-convert is there, and the bundle is built before the first chart)
        return alt.renderers.enable(OFFLINE_RENDERER)
    if renderer in ("svg", "png"):
        return alt.renderers.enable(renderer)
    msg = (f"enable_offline: unknown renderer {renderer!r}. Hint: use 'html', 'svg' or "
           "'png'.")
    raise SwissframeError(msg)


#: The largest PNG pixel scale :func:`save` draws at (a page-wide chart at 10 is about
#: 8,000 pixels across; larger ones only cost memory).
MAX_SCALE: Final = 10


def save(chart: Chart, path: str | os.PathLike[str], *, scale: float = 2.0,
         validate: bool = True) -> Path:
    """Write a chart to PNG, SVG, PDF, HTML or Vega-Lite JSON, chosen by the file suffix.

    Rendering is offline: vl-convert bundles Vega and Vega-Lite (HTML is written with the
    JavaScript inlined, so it opens without a network).

    Parameters
    ----------
    chart
        Any Altair chart.
    path
        Output file; its suffix picks the format (``.png``, ``.svg``, ``.pdf``, ``.html``,
        ``.json``).
    scale
        Pixel scale of PNG output (2 = print/retina quality).
    validate
        Check the spec against Vega-Lite's schema first (Altair's ``to_dict``): False for
        a chart of this module, whose specs the tests check, as the ``chart`` command and
        the reports save them (the check took 0.1 s of a standings chart's 0.4).

    Returns
    -------
    Path
        The file written.

    Examples
    --------
    >>> import tempfile, pathlib, altair as alt, polars as pl
    >>> c = alt.Chart(pl.DataFrame({"x": [1, 2]})).mark_bar().encode(x="x:Q")
    >>> out = save(c, pathlib.Path(tempfile.mkdtemp()) / "fig.svg")
    >>> out.read_text()[:4]
    '<svg'
    """
    _alt()
    check_flag("validate", validate)
    # (a NaN, zero or negative scale made the renderer's Rust code panic: a traceback)
    scale = check_real("scale", scale, above=True, high=MAX_SCALE,
                       hint="the PNG pixel scale, e.g. 2 (print quality)")
    from swissframe.io._files import local_path, write_atomic, write_text_atomic

    p = Path(local_path(path, what="save: the chart's file"))  # (bad data 244)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in _SAVE_FORMATS:
        msg = (f"cannot save a chart as {p.name!r}: unknown format {fmt!r}. Hint: use one of "
               f"{', '.join('.' + f for f in _SAVE_FORMATS)}.")
        raise SwissframeError(msg)
    if fmt == "json":
        return write_text_atomic(p, chart.to_json(indent=2, validate=validate))
    if fmt == "html":
        # the report's page: the spec as JSON escaped for a <script> element (a player
        # named "</script><script>…" ran in Altair's own inline template), the same
        # offline bundle and content-security policy
        from swissframe.report._html import chart_block, page

        spec = chart.to_dict(validate=validate)
        heading = spec.get("title", "chart")  # (text, or a title object with its text)
        title = str(heading.get("text", "chart") if isinstance(heading, dict) else heading)
        html = page(title, chart_block("chart", spec, title))
        return write_text_atomic(p, html)
    try:
        import vl_convert
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = (f"saving {p.name!r} needs vl-convert, which is not installed. Hint: pip "
               "install 'swissframe[charts]' (or save as .json).")
        raise SwissframeError(msg) from exc
    _refuse_unreadable_fonts()
    # the spec validated once (Altair's own save validated it again), then drawn by
    # vl-convert at the Vega-Lite version of Altair's schema, as Altair's save draws it
    spec = _drawable(chart.to_dict(validate=validate), glyphs=fmt in ("png", "pdf"))
    vl_version = "_".join(_alt().SCHEMA_VERSION.split(".")[:2])  # 'v6.1.0' -> 'v6_1'
    try:
        if fmt == "png":
            data: bytes | str = vl_convert.vegalite_to_png(spec, vl_version=vl_version,
                                                            scale=scale, ppi=72)
        elif fmt == "pdf":
            data = vl_convert.vegalite_to_pdf(spec, vl_version=vl_version)
        else:
            data = vl_convert.vegalite_to_svg(spec, vl_version=vl_version)
    except ValueError as exc:
        # (Vega's own failure, e.g. a chart built elsewhere ordering thousands of names:
        # its JavaScript stack was the traceback; bad data 261)
        said = next((x.strip() for x in str(exc).splitlines()[1:] if x.strip()), str(exc))
        msg = (f"cannot draw {p.name!r}: Vega failed ({said[:200]}). Hint: draw fewer rows "
               f"(at most {MAX_DRAWN_NAMES:,} names on an axis), or save as .json or .html.")
        raise SwissframeError(msg) from None
    if isinstance(data, str):
        return write_text_atomic(p, data)
    drawn = data
    return write_atomic(p, lambda tmp: tmp.write_bytes(drawn))


def _drawable(spec: dict[str, Any], *, glyphs: bool = False) -> dict[str, Any]:
    """A chart's spec with every text an image cannot draw made drawable: characters outside
    XML's (:data:`_NOT_DRAWABLE`) written as escapes (``'A\\x00'``), text longer than
    :data:`MAX_DRAWN_TEXT` cut with an ellipsis; said in one warning naming the first such
    text. The chart itself (its JSON and HTML exports, the data) is unchanged.

    ``glyphs`` (a PNG or PDF, whose text is drawn with this machine's fonts): characters of
    the shown text that no font here has, which the image would draw as empty boxes, are
    said in a warning of their own (:func:`swissframe._fonts.undrawn`)."""
    changed: dict[str, None] = {}  # (each text once, in the order met)
    shown_texts: dict[str, None] = {}
    cut = _cut_texts(spec)

    def fix(value: object, shown: bool = False) -> object:
        # (only shown text is cut, and every copy of it the spec holds: a sort order, a
        # scale's domain; never an expression)
        if isinstance(value, str):
            text = cut.get(value) or _NOT_DRAWABLE.sub(lambda m: escaped(m.group()), value)
            if text != value:
                changed[value] = None
            if shown:
                shown_texts[text] = None
            return text
        if isinstance(value, dict):
            return {k: fix(v, shown or k in _SHOWN_KEYS) for k, v in value.items()}
        if isinstance(value, list):
            return [fix(v, shown) for v in value]
        return value

    drawable = fix(spec)
    if glyphs:
        _warn_undrawn(shown_texts)
    if not changed:
        return spec
    first = next(iter(changed))
    shown = ascii(first[:40]) + (f" … ({len(first):,} characters)" if len(first) > 40 else "")
    warnings.warn(f"{count(len(changed), 'distinct text')} of the chart cannot be drawn as "
                  "they are, e.g. "
                  f"{shown}: control characters are drawn as escapes, text past "
                  f"{MAX_DRAWN_TEXT} characters is cut. Hint: fix the names in the source "
                  "(swissframe validate lists such ids); the .json and .html exports keep "
                  "them as they are.", DataWarning, stacklevel=3)
    return cast("dict[str, Any]", drawable)


def _cut_texts(spec: dict[str, Any]) -> dict[str, str]:
    """Each shown text of ``spec`` (the data, the titles) longer than
    :data:`MAX_DRAWN_TEXT`, with the text an image draws for it (control characters as
    escapes): cut with an ellipsis, each distinct from every other text of the chart.

    A text was cut in the data alone, where the chart's sort order still named it whole:
    a player of 10,000 characters ranked first was drawn last; and two names alike in
    their first 199 characters became one label, their rows drawn on one line (bad data
    218). ``_drawable`` puts the cut text wherever the spec holds the text.

    >>> cut = _cut_texts({"datasets": {"d": [{"a": "x" * 300}, {"a": "x" * 301}]}})
    >>> sorted(len(t) for t in cut.values()), len(set(cut.values()))
    ([200, 200], 2)
    """
    shown: dict[str, None] = {}

    def walk(value: object, inside: bool) -> None:
        if isinstance(value, str) and inside:
            shown[value] = None
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, inside or k in _SHOWN_KEYS)
        elif isinstance(value, list):
            for v in value:
                walk(v, inside)

    walk(spec, False)
    taken = {t for t in shown if len(t) <= MAX_DRAWN_TEXT}
    cut: dict[str, str] = {}
    for text in shown:
        drawn = _NOT_DRAWABLE.sub(lambda m: escaped(m.group()), text)
        if len(drawn) <= MAX_DRAWN_TEXT:
            continue
        short, n = drawn[: MAX_DRAWN_TEXT - 1] + "…", 1
        while short in taken:  # (a tag keeps it apart from its likes: "…#2")
            n += 1
            tag = f"…#{n}"
            short = drawn[: MAX_DRAWN_TEXT - len(tag)] + tag
        taken.add(short)
        cut[text] = short
    return cut


def _warn_undrawn(texts: dict[str, None]) -> None:
    """One warning naming the characters of ``texts`` no font of this machine has (an image
    draws each as an empty box), and the first text holding one."""
    from swissframe._fonts import undrawn

    missing = undrawn("".join(texts))
    if not missing:
        return
    first = next(t for t in texts if any(c in missing for c in t))
    shown = ", ".join(repr(c) for c in missing[:6]) + (" …" if len(missing) > 6 else "")
    warnings.warn(f"{count(len(missing), 'character')} of the chart's text "
                  f"{'is' if len(missing) == 1 else 'are'} in no font this "
                  f"machine has, and the image draws each as an empty box: {shown} (in "
                  f"{quoted(first[:40])}). Hint: install a font that has them (Chinese, Japanese "
                  "and Korean: Noto Sans CJK, e.g. `apt install fonts-noto-cjk`) or name its "
                  "folder (`swissframe chart … --font-dir DIR`; in Python "
                  "swissframe.charts.register_font_directory(DIR)); or save as .svg or "
                  ".html, whose text the viewer's fonts draw.", DataWarning, stacklevel=4)


def register_font_directory(path: str | os.PathLike[str]) -> None:
    """Draw PNG and PDF charts with the fonts of ``path`` too (and search it first for the
    characters :func:`save` checks a font has: a name in a script no other font of the
    machine has is otherwise drawn as empty boxes, with a warning).

    Parameters
    ----------
    path
        A folder of ``.ttf``, ``.otf``, ``.ttc`` or ``.otc`` files (read with its
        subfolders).

    Examples
    --------
    >>> import tempfile
    >>> register_font_directory(tempfile.mkdtemp())  # (an empty folder adds nothing)
    """
    from swissframe._fonts import add_font_directory
    from swissframe.io._files import path_items, shown

    items = path_items(path)  # (one path: a number or a table is refused, naming it)
    folder = Path(items[0])
    if len(items) != 1 or not folder.is_dir():
        msg = (f"register_font_directory: {shown(items[0])!r} is not a folder. Hint: name "
               "one folder holding the font files (e.g. /usr/share/fonts/opentype/noto).")
        raise SwissframeError(msg)
    try:
        import vl_convert
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = ("register_font_directory needs vl-convert, which is not installed. Hint: pip "
               "install 'swissframe[charts]'.")
        raise SwissframeError(msg) from exc
    _refuse_unreadable_fonts(folder)
    vl_convert.register_font_directory(str(folder))
    add_font_directory(folder)


def _refuse_unreadable_fonts(folder: Path | None = None) -> None:
    """Refuse, before vl-convert reads them, the font collections it would read forever
    (bad data 169–170): vl-convert tries every face a collection's header declares, 4
    billion in a 12-byte file, and the call never returned (200,000 copies of one face: a
    chart took 33 s). Those of ``folder`` (being registered), then those of the machine's
    font folders, which vl-convert reads once a process, before its first image or first
    folder registered (:func:`swissframe._fonts.unreadable_machine_collections`)."""
    from swissframe._fonts import (
        MOST_FACES,
        font_directories,
        unreadable_collections,
        unreadable_machine_collections,
    )
    from swissframe.io._files import shown

    if folder is not None and (broken := unreadable_collections(folder)):
        where = f"the font folder {shown(folder)!r} holds"
        then = "no font of the folder was added"
        hint = "remove that file, or name a folder without it"
    elif broken := unreadable_machine_collections():
        where = "this machine's fonts hold"
        then = "vl-convert reads every font of the machine before it draws, so no chart was drawn"
        folders = ", ".join(repr(shown(f)) for f in font_directories()
                            if any(b.is_relative_to(f) for b in broken))
        hint = (f"remove that file (from {folders}), or save the chart as .html or .json, "
                "which the viewer draws")
    else:
        return
    more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
    msg = (f"{where} {shown(broken[0])!r}{more}, which is no font collection: its header "
           f"declares more faces than the file holds, or than the {MOST_FACES:,} a real "
           f"collection may hold, and reading them would never end; {then}. Hint: {hint}.")
    raise SwissframeError(msg)


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def _frame(data: Frame, what: str) -> pl.DataFrame:
    if isinstance(data, pl.LazyFrame):
        return as_frame(data, what=f"table of {what}")
    if isinstance(data, pl.DataFrame):
        return data
    msg = (f"{what} expects a Polars DataFrame or LazyFrame, got {type(data).__name__}. "
           "Hint: pass the table returned by the swissframe function named in its docstring.")
    raise SchemaError(msg)


def _need(df: pl.DataFrame, cols: Sequence[str], what: str, source: str) -> None:
    check_output(df, cols, what=f"{what}'s table", result=f"an output of {source}",
                 hint=f"pass the output of {source} as it is (or cast the columns back).")
    _check_probability(df, what, source)


def _check_probability(df: pl.DataFrame, what: str, source: str) -> None:
    """A :class:`SchemaError` for a ``probability`` outside 0–1 (a NaN was Polars' bare cast
    error drawing the percentages); the columns' kinds are :func:`check_output`'s."""
    if "probability" in df.columns and df.schema["probability"].is_numeric():
        p = pl.col("probability").cast(pl.Float64)
        bad = df.filter(p.is_not_null() & ~(p.is_finite() & (p >= 0) & (p <= 1)))
        if bad.height:
            msg = (f"{what}: probability {bad['probability'][0]!r} is not a probability from "
                   f"0 to 1 ({count(bad.height, 'row')}). Hint: pass the output of {source}.")
            raise SchemaError(msg)


def _one_event(df: pl.DataFrame, event_id: str | None, what: str) -> tuple[pl.DataFrame, str]:
    """The rows of one event: ``event_id`` or the only event present."""
    events = df["event_id"].unique(maintain_order=True).to_list()
    if event_id is None:
        if len(events) != 1:
            shown = ", ".join(map(str, events[:5])) + (" …" if len(events) > 5 else "")
            msg = (f"{what} draws one event, the table holds {len(events)} ({shown}). Hint: "
                   "pass event_id=…")
            raise DataError(msg)
        return df, str(events[0])
    if event_id not in events:
        msg = (f"{what}: event {quoted(event_id)} is not in the table. Hint: events present: "
               f"{sorted(map(str, events))[:10]}.")
        raise DataError(msg)
    return df.filter(pl.col("event_id") == event_id), event_id


def _check_title(title: object, what: str) -> None:
    # (a number or a mapping reached Altair's SchemaValidationError, "'1.5' is an invalid
    # value for `text`")
    if title is not None and not isinstance(title, str):
        msg = (f"{what}: title must be text, got {title!r:.60}. Hint: e.g. "
               "title='Regional Championship', or leave it out for the event's name.")
        raise DataError(msg)


def _positive(value: int | None, name: str, what: str, *, optional: bool = False) -> None:
    # (check_whole, the one rule of a count: 2**70 ended in an OverflowError drawing; None
    # only where the signature allows it: top=None of chart_standings was a bare
    # "TypeError: '<' not supported between 'NoneType' and 'int'")
    if value is not None or not optional:
        check_whole(f"{what}: {name}", value, low=1, hint=f"e.g. {name}=8")


def _drawable_count(n: int, what: str, noun: str, hint: str) -> None:
    """Refuse a chart of more than :data:`MAX_DRAWN_NAMES` ``noun`` before it is built."""
    if n > MAX_DRAWN_NAMES:
        msg = (f"{what}: {count(n, noun)} to draw, more than a chart orders "
               f"({MAX_DRAWN_NAMES:,}: Vega fails past about 1,450). Hint: {hint}, or write "
               "the table (a CSV or Parquet file) instead of a chart.")
        raise DataError(msg)


def _inline(alt: ModuleType, df: pl.DataFrame) -> Any:
    """Rows as inline Vega-Lite data: no row limit (Altair's 5,000-row guard is for frames).

    Given once, to the chart that holds the layers drawing them (``alt.layer(..., data=)``,
    ``alt.hconcat(..., data=)``): Altair deep-copies a layer's data each time it builds or
    combines charts (the standings chart of 32 players: 0.45 -> 0.41 s a chart, built and
    turned into its spec, ten in one process)."""
    return alt.InlineData(values=df.to_dicts())


def _pct_tooltip(alt: ModuleType, cols: Sequence[str]) -> list[Any]:
    return [alt.Tooltip(f"{c}:Q", format=".2%") for c in cols]


def _lines(parts: Sequence[str], width: int) -> list[str]:
    """Subtitle lines: each part wrapped at ``width`` characters (Vega does not wrap)."""
    return [line for part in parts
            for line in textwrap.wrap(part, width, break_on_hyphens=False)]


def _short(expr: pl.Expr, n: int = 42) -> pl.Expr:
    """A label cut to ``n`` characters with an ellipsis."""
    return (pl.when(expr.str.len_chars() > n)
            .then(pl.concat_str(expr.str.slice(0, n - 1).str.strip_chars_end(), pl.lit("…")))
            .otherwise(expr))


def _event_title(df: pl.DataFrame, event: str, title: str | None) -> str:
    """``title``, else the event's name (``event_name`` column), else its id."""
    if title:
        return title
    if "event_name" in df.columns:
        names = df.filter(pl.col("event_id") == event)["event_name"].drop_nulls()
        if names.len() and str(names[0]).strip():
            return str(names[0])
    return event


def rs_points(rules: _rules.Ruleset | None) -> str:
    """The game's word for a score in a sentence: ``match points`` (card games),
    ``points`` (chess): :func:`~swissframe.compare.criterion_label`.

    >>> rs_points(_rules.FIDE), rs_points(_rules.MTG)
    ('points', 'match points')
    """
    return criterion_label("match_points", rules)


def _points_text(points: pl.Expr) -> pl.Expr:
    """Points as the standings print them: ``6`` and ``5.5``, not ``6.0`` (a float column
    of a chess score or a cut analysis)."""
    return points.cast(pl.String).str.replace(r"\.0$", "")


def _player_label(df: pl.DataFrame) -> pl.Expr:
    """How a player is shown: the ``name`` column where present, else ``player_id``."""
    if "name" in df.columns:
        return pl.coalesce(pl.col("name").cast(pl.String), pl.col("player_id"))
    return pl.col("player_id")


def _ruleset(rules: str | _rules.Ruleset | None, df: pl.DataFrame) -> _rules.Ruleset:
    """``rules``, else the table's ``ruleset`` column, else the preset its columns match.

    A standings table has the stable columns plus the ruleset's other criteria and extra
    columns: the preset with the most of those present is taken (MTG when none is).
    """
    if rules is not None:
        return _rules.get(rules)
    if "ruleset" in df.columns:
        named = df["ruleset"].drop_nulls().unique().to_list()
        if len(named) == 1:
            try:
                return _rules.get(str(named[0]))
            except RulesetError:
                pass
    cols = set(df.columns)
    best, best_n = _rules.MTG, 0
    for r in _rules.PRESETS.values():
        own = {c.name for c in (*r.criteria, *r.columns)} - _STABLE
        if own and own <= cols and len(own) > best_n:
            best, best_n = r, len(own)
    return best


def check_omw_ranges(rules: str | _rules.Ruleset, what: str = "chart_omw_ranges") -> None:
    """Refuse a ruleset that does not rank by OMW%: :func:`chart_omw_ranges` draws OMW%
    ranges (the only opponent-based ranges ``next_round_ranges`` computes), which say
    nothing where the first opponent-based tiebreaker is another one (FIDE's Buchholz,
    Flesh and Blood's OML%).

    >>> check_omw_ranges("pokemon")
    >>> check_omw_ranges("fide")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    swissframe.errors.RulesetError: chart_omw_ranges: the fide ruleset does not rank by OMW% ...
    """
    rs = _rules.get(rules)
    first = next((c for c in rs.criteria if c.function in _OPPONENT_BASED), None)
    if first is not None and first.function == "omwp":
        return
    by = (f"its first opponent-based tiebreaker is {first.label}" if first is not None
          else "it ranks by " + " → ".join(c.label for c in rs.criteria))
    msg = (f"{what}: the {rs.name} ruleset does not rank by OMW% ({by}), and next-round "
           "ranges are computed for OMW% only. Hint: the standings, race, cut-status, "
           "cut-lines and sensitivity charts apply to every ruleset (swissframe chart "
           "cut-status FILE -o fig.png; chart_cut_status in Python).")
    raise RulesetError(msg)


def _is_pct(c: _rules.Criterion) -> bool:
    return c.label.endswith("%")


def _fmt_value(c: _rules.Criterion, v: object) -> str:
    if not isinstance(v, (int, float)):
        return str(v)
    if _is_pct(c):
        return f"{v:.2%}"
    return f"{v:g}" if isinstance(v, float) else str(v)


def _log_ticks(anchor: int, lo: float, hi: float, *, data: Sequence[int] = ()) -> list[int]:
    """Ticks of a log axis: ``anchor`` (the cut) and its doublings / halvings in [lo, hi];
    where none of them is (a narrow range of field sizes: 17–21 players, cut 8), the
    least and largest of ``data`` — an axis without a number read as no axis at all.

    >>> _log_ticks(8, 1, 70), _log_ticks(8, 16.5, 21.9, data=[19])
    ([1, 2, 4, 8, 16, 32, 64], [19])
    """
    ticks = {anchor}
    v = anchor
    while v * 2 <= hi:
        v *= 2
        ticks.add(v)
    v = anchor
    while v % 2 == 0 and v // 2 >= lo:
        v //= 2
        ticks.add(v)
    if lo <= 1:
        ticks.add(1)
    inside = sorted(t for t in ticks if lo <= t <= hi)
    if not inside and data:
        inside = sorted({min(data), max(data)})
    return inside or [anchor]


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def _standings_frame(table: pl.DataFrame, top: int, cut: int | None,
                     words: CutWords) -> pl.DataFrame:
    """Top rows with display columns: position, label (ties marked ``=``), zone, band."""
    tie_size = pl.len().over("rank")
    last_place = pl.col("rank") + tie_size - 1
    inside, tied, outside = _zones(words)
    if cut is None:
        zone: pl.Expr = pl.lit(inside)
    else:
        zone = (pl.when(last_place <= cut).then(pl.lit(inside))
                .when(pl.col("rank") <= cut).then(pl.lit(tied))
                .otherwise(pl.lit(outside)))
    shown = _player_label(table)
    # (a disqualified player has no rank: not in the standings, so not in the chart)
    out = (table.filter(pl.col("rank").is_not_null()).sort("rank", "player_id")
           .with_columns(tie_size=tie_size, zone=zone, shown=shown,
                         points_group=pl.col("match_points").rank("dense", descending=True))
           .head(top)
           .with_columns(
               position=pl.int_range(1, pl.len() + 1, dtype=pl.Int64),
               tied=pl.col("tie_size") > 1,
               band=(pl.col("points_group") % 2).cast(pl.Int64)))
    # a name shown twice (two players of the same name) gets its id: labels stay unique
    shown = told_apart("shown", "player_id")
    return out.with_columns(label=pl.format(
        "{}{} {}", pl.col("rank"),
        pl.when(pl.col("tie_size") > 1).then(pl.lit("=")).otherwise(pl.lit("")), shown))


def _outcome_label(rules: _rules.Ruleset | None) -> str:
    """A Vega label expression showing an outcome (``win``, ``draw``, ``loss``) in the
    game's words: a draw as :func:`~swissframe.cut._words.draw_word` says it (Pokémon:
    ``tie``); the data keep the outcome's name.

    >>> _outcome_label(_rules.POKEMON)
    'datum.value == "draw" ? "tie" : datum.value'
    """
    return f'datum.value == "draw" ? {json.dumps(draw_word(rules))} : datum.value'


def _cut_note(table: pl.DataFrame, ruleset: _rules.Ruleset, cut: int) -> str | None:
    """What separated place ``cut`` from place ``cut + 1``, in words (None: no place 9)."""
    rows = (table.filter(pl.col("rank").is_not_null()).sort("rank", "player_id")
            .slice(cut - 1, 2))
    if rows.height < 2:
        return None
    a, b = rows.row(0, named=True), rows.row(1, named=True)
    here, there = f"place {cut}", f"place {cut + 1}"
    words = cut_words(ruleset, cut)
    line = words.the_line
    if a["rank"] == b["rank"]:
        return (f"Places {cut} and {cut + 1} are tied on every criterion (shared rank "
                f"{a['rank']}): {line} runs through a tie.")
    criteria = [c for c in ruleset.criteria if c.name in table.columns]
    if not any(c.name == "match_points" for c in criteria):
        criteria.insert(0, _rules.Criterion("match_points"))
    for c in criteria:
        va, vb = a[c.name], b[c.name]
        if va is None or vb is None:
            continue
        if isinstance(va, float) and isinstance(vb, float) and abs(va - vb) <= 1e-12:
            continue
        if va == vb:
            continue
        if c.name == "match_points":
            return (f"{line.capitalize()} fell between points groups: {here} has {va:g} "
                    f"points and "
                    f"{there} has {vb:g}.")
        if c.function in _NOT_PLOTTED:
            how = "the random order" if drawn_by_lot(c.function) else c.label
            return (f"Places {cut} and {cut + 1} are level on points and every tiebreaker "
                    f"before {how}, which decided {line}.")
        whose = (" — their opponents' results, not their own"
                 if c.function in _OPPONENT_BASED else "")
        lower = "" if c.descending else " (lower is better)"
        return (f"Places {cut} and {cut + 1} both have {a['match_points']:g} points: "
                f"{c.label}{lower} decided {line}, {_fmt_value(c, va)} vs "
                f"{_fmt_value(c, vb)}{whose}.")
    return None


def chart_standings(table: Frame, *, event_id: str | None = None, top: int = 32,
                    cut: int | None = 8, rules: str | _rules.Ruleset | None = None,
                    tiebreakers: Sequence[str] | None = None,
                    title: str | None = None) -> Chart:
    """Points and the ruleset's tiebreakers for the top of one event, the cut line marked.

    One row per player, in rank order: match points as bars coloured by zone (inside the
    cut, tied across the cut line, outside), then one panel per tiebreaker of the ruleset,
    in its order and with its usual label (OMW% and GW% for MTG; OMW%, OOMW% for Pokémon;
    BH-C1, BH, SB for FIDE; CTB, PML, OML%, OCTB for Flesh and Blood — criteria without a
    value to plot, such as head-to-head or the random order, are named in the subtitle
    only). Grey bands mark the points groups; an ``=`` after the rank marks an exact tie
    (equal on every criterion); a dashed rule runs under place ``cut``. The subtitle says
    what separated place ``cut`` from the next one.

    Parameters
    ----------
    table
        Standings of one or more events, from :func:`swissframe.standings`. Optional
        columns: ``event_name`` (the title), ``name`` (players' names).
    event_id
        The event to draw (needed when ``table`` holds several).
    top
        How many places to draw.
    cut
        Size of the top cut (``None``: no cut line, one colour).
    rules
        The ruleset the table was computed with (name or :class:`~swissframe.rules.Ruleset`);
        default: a ``ruleset`` column, else the preset whose criteria the columns match
        (MTG when nothing else matches) — pass it when in doubt.
    tiebreakers
        Columns to plot instead of the ruleset's criteria.
    title
        Chart title (default: the event's name, else its id).

    Returns
    -------
    altair.HConcatChart

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> spec = chart_standings(sf.standings(sf.from_matches(m)), cut=2).to_dict()
    >>> [p["layer"][1]["encoding"]["x"]["title"] for p in spec["hconcat"]]
    ['Points', 'OMW%', 'GW%', 'OGW%']
    """
    what = "chart_standings"
    _check_title(title, what)
    df = _frame(table, what)
    _positive(top, "top", what)
    _positive(cut, "cut", what, optional=True)
    _need(df, ["event_id", "player_id", "rank", "match_points"], what,
          "swissframe.standings(...)")
    ruleset = _ruleset(rules, df)
    known = {c.name: c for c in (*ruleset.criteria, *ruleset.columns)}
    if tiebreakers is None:
        crits = [c for c in ruleset.criteria if c.name != "match_points"
                 and c.function not in _NOT_PLOTTED and c.name in df.columns][:_MAX_PANELS]
    else:
        # (one name alone: not its letters; a number was a bare "not iterable")
        names = check_names(f"{what}: tiebreakers", tiebreakers,
                            hint="e.g. tiebreakers=['omwp', 'gwp'], or leave it out for the "
                            "ruleset's own.")
        crits = [known.get(n) or _rules.Criterion(n) for n in names]
    tbs = [c.name for c in crits]
    _need(df, tbs, what, "swissframe.standings(...)")
    df, event = _one_event(df, event_id, what)
    words = cut_words(ruleset, cut or top)
    frame = _standings_frame(df, top, cut, words)
    data = frame.select(
        "event_id", "player_id", "shown", "rank", "match_points", *tbs, "position", "label",
        "zone", "tied", "band", "points_group")
    n = data.height
    _drawable_count(n, what, "place", f"top={MAX_DRAWN_NAMES} or fewer (--top)")
    alt = _alt()
    order = data["label"].to_list()  # an explicit sort: layers with filters keep it
    y = alt.Y("label:N", sort=order, title=None)
    colours = _zones(words)
    zones = [z for z in colours if z in set(data["zone"].to_list())]
    zone_scale = alt.Scale(domain=zones, range=[colours[z] for z in zones])
    zone_color = alt.Color("zone:N", title=f"Top {cut}" if cut else None, scale=zone_scale,
                           legend=alt.Legend(orient="bottom") if cut else None)
    tooltip = [alt.Tooltip("shown:N", title="player"), "rank:Q",
               alt.Tooltip("match_points:Q", title=_rules.label_of("match_points")),
               *[alt.Tooltip(f"{c.name}:Q", title=c.label, format=".2%" if _is_pct(c)
                             else "~r") for c in crits]]
    base = alt.Chart().encode(y=y)
    bands = (base.mark_rect(color="#EFEFEF").encode(x=alt.value(0), x2=alt.value("width"))
             .transform_filter(alt.datum.band == 1))
    rule_layers = []
    if cut is not None and cut < n:
        rule_layers.append(
            base.mark_rule(color="#D55E00", strokeDash=[5, 3], strokeWidth=1.5)
            .encode(y=alt.Y("label:N", sort=order, bandPosition=1, title=None),
                    x=alt.value(0), x2=alt.value("width"))
            .transform_filter(alt.datum.position == cut))
    bars = base.mark_bar(height={"band": 0.72}).encode(
        x=alt.X("match_points:Q", title=_rules.label_of("match_points"),
                axis=alt.Axis(tickMinStep=1)),
        color=zone_color, tooltip=tooltip)
    labels = base.mark_text(align="left", dx=3, color="#333333").encode(
        x="match_points:Q", text="match_points:Q")
    panels = [alt.layer(bands, bars, labels, *rule_layers).properties(
        width=200, height=alt.Step(16))]
    width = 170 if len(crits) <= 2 else 130
    no_axis = alt.Axis(labels=False, ticks=False, domain=False)
    for c in crits:
        dots = base.mark_point(filled=True, size=55, opacity=0.9).encode(
            x=alt.X(f"{c.name}:Q", title=c.label + ("" if c.descending else " (lower better)"),
                    axis=alt.Axis(format=".1~%", tickCount=4) if _is_pct(c)
                    else alt.Axis(tickCount=4, tickMinStep=1, format="d")
                    if data.schema[c.name].is_integer() else alt.Axis(tickCount=4),
                    scale=alt.Scale(zero=False, nice=False, padding=8)),
            y=alt.Y("label:N", sort=order, title=None, axis=no_axis),
            color=zone_color,  # the same legend everywhere: one legend, no conflict
            tooltip=tooltip)
        panels.append(alt.layer(bands, dots, *rule_layers).properties(
            width=width, height=alt.Step(16)))
    players = df["player_id"].n_unique()
    rounds = (int(df["rounds_played"].max() or 0)  # type: ignore[arg-type]
              if "rounds_played" in df.columns else 0)
    order_text = " → ".join(c.label + ("↑" if not c.descending else "")
                            for c in ruleset.criteria)
    first = (f"Top {n} of {count(players, 'player')}"
             + (f" after {count(rounds, 'round')}" if rounds else "")
             + (f", {words.cut_to}" if cut else "")
             + f" · ranked by {order_text} ({ruleset.name})")
    subtitle = [first]
    note = _cut_note(df, ruleset, cut) if cut is not None else None
    if note:
        subtitle.append(note)
    subtitle.append("“=”: tied on every criterion · grey bands: players on the same points"
                    + (" · ↑: lower is better" if any(not c.descending for c in ruleset.criteria)
                       else ""))
    chars = (200 + 150 + len(crits) * (width + 8)) // 7
    return (alt.hconcat(*panels, spacing=8, data=_inline(alt, data))
            .resolve_scale(color="shared")
            .properties(title=alt.Title(_event_title(df, event, title),
                                        subtitle=_lines(subtitle, chars))))


def chart_standings_race(by_round: Frame, *, event_id: str | None = None, top: int = 8,
                         log_rank: bool | None = None, start_round: int | None = None,
                         rules: str | _rules.Ruleset | None = None,
                         title: str | None = None) -> Chart:
    """Rank after every round for the players who finished in the top ``top``.

    Early ranks say little: after round 1 of a large event hundreds of players share rank 1
    (every winner, equal on every criterion) and hundreds the rank after them, so a line
    that starts there dives from 1 to 250 on one loss. The chart therefore starts at the
    first round from which no followed player shares a rank with more than ``top`` players
    (the subtitle says so), and a rank still shared later is drawn as a bar over the places
    the tie spans.

    Parameters
    ----------
    by_round
        :func:`swissframe.standings_by_round` output (one event, or pass ``event_id``).
        Optional columns: ``event_name`` (the title), ``name`` (players' names).
    event_id
        The event to draw (needed when the table holds several).
    top
        Follow the players whose rank after the last round is at most ``top``; a dashed rule
        marks the line between place ``top`` and ``top + 1``.
    log_rank
        Log-scaled rank axis, ticks at the cut and its doublings (default: when the ranks
        drawn reach beyond 4 × ``top``).
    start_round
        First round drawn (default: chosen as above; 1 draws every round).
    rules
        The ruleset (default: as :func:`chart_standings` infers it); the tooltips show OMW%
        and MW% only where it ranks by OMW%.
    title
        Chart title (default: the event's name, else its id).

    Returns
    -------
    altair.LayerChart
        Lines and points coloured by player (legend in final-rank order), shared-rank bars
        and the cut rule.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> c = chart_standings_race(sf.standings_by_round(sf.from_matches(m)), top=2)
    >>> c.to_dict()["layer"][1]["encoding"]["y"]["field"]
    'rank'
    """
    what = "chart_standings_race"
    _check_title(title, what)
    df = _frame(by_round, what)
    _positive(top, "top", what)
    _positive(start_round, "start_round", what, optional=True)
    check_flag("log_rank", log_rank, none=True)
    _need(df, ["event_id", "round", "player_id", "rank", "match_points"], what,
          "swissframe.standings_by_round(...)")
    df, event = _one_event(df, event_id, what)
    last = int(df["round"].max() or 0)  # type: ignore[arg-type]
    first_round = int(df["round"].min() or 0)  # type: ignore[arg-type]
    sized = df.with_columns(tie_size=pl.len().over("round", "rank").cast(pl.Int64))
    finishers = (sized.filter((pl.col("round") == last) & (pl.col("rank") <= top))
                 .with_columns(shown=_player_label(sized))
                 .select("player_id", pl.col("rank").alias("final_rank"),
                         player=pl.format("{}. {}", pl.col("rank"), pl.col("shown"))))
    if finishers.height == 0:
        msg = (f"{what}: event {quoted(event)} has no standings after round {last}. Hint: "
               "check input.")
        raise DataError(msg)
    ruleset = _ruleset(rules, df)
    omw_ranked = any(c.function == "omwp" for c in ruleset.criteria)
    keep = [c for c in ("omwp", "mwp") if c in df.columns and omw_ranked]
    data = (sized.join(finishers, on="player_id", how="inner")
            .select("round", "player_id", "player", "final_rank", "rank", "tie_size",
                    "match_points", *keep)
            .with_columns(rank_end=pl.col("rank") + pl.col("tie_size") - 1)
            .sort("final_rank", "player_id", "round"))
    threshold = max(top, 2)
    if start_round is None:
        per_round = data.group_by("round").agg(pl.col("tie_size").max())
        bad = per_round.filter(pl.col("tie_size") > threshold)["round"]
        start = int(bad.max()) + 1 if bad.len() else first_round  # type: ignore[arg-type]
        start = max(min(start, last - 1), first_round)
    else:
        start = min(start_round, last)
    skipped = data.filter(pl.col("round") < start)
    shown = data.filter(pl.col("round") >= start)
    order = shown.unique("player", maintain_order=True)["player"].to_list()
    _drawable_count(len(order), what, "finisher",
                    f"top={MAX_DRAWN_NAMES} or fewer (--cut)")
    alt = _alt()
    hi = max(int(shown["rank_end"].max() or 1), top + 1, 2)  # type: ignore[arg-type]
    ticks = _log_ticks(top, 1, hi)
    if log_rank is None:
        log_rank = hi > 4 * top
    if not log_rank:
        step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9)
                    if hi / s <= 10)
        ticks = sorted({1, top, *range(step, hi + 1, step)})
    scale = alt.Scale(type="log" if log_rank else "linear", reverse=True, domain=[1, hi],
                      nice=False)
    x = alt.X("round:O", title="After round", axis=alt.Axis(labelAngle=0))
    y = alt.Y("rank:Q", title="Rank" + (" (log scale)" if log_rank else ""), scale=scale,
              axis=alt.Axis(values=ticks))
    color = alt.Color("player:N", sort=order, title=f"Final top {top}",
                      legend=alt.Legend(columns=1, symbolLimit=0, symbolOpacity=1))
    base = alt.Chart().encode(x=x, y=y, color=color)
    ties = base.mark_rule(strokeWidth=7, opacity=0.3, strokeCap="round").encode(
        y2="rank_end:Q").transform_filter(alt.datum.tie_size > 1)
    lines = base.mark_line(strokeWidth=2)
    points = base.mark_point(filled=True, size=40).encode(
        tooltip=[alt.Tooltip("player:N", title="player"), "round:O", "rank:Q",
                 alt.Tooltip("tie_size:Q", title="players sharing the rank"),
                 alt.Tooltip("match_points:Q", title=_rules.label_of("match_points")),
                 *[alt.Tooltip(f"{c}:Q", title=_rules.label_of(c), format=".2%")
                   for c in keep]])
    rule = alt.Chart(_inline(alt, shown.head(1))).mark_rule(
        color="#D55E00", strokeDash=[5, 3]).encode(y=alt.datum(top + 0.5))
    subtitle = [f"Rank after each Swiss round of the {count(finishers.height, 'player')} "
                f"who finished in the top {top}; {cut_words(ruleset, top).dashed_line_note}"]
    if start > first_round:
        widest = int(skipped["tie_size"].max() or 0)  # type: ignore[arg-type]
        subtitle.append(
            f"From round {start}: until then up to {widest:,} players shared a rank (equal on "
            "points and every tiebreaker), so a rank said little")
    if shown.filter(pl.col("tie_size") > 1).height:
        subtitle.append("Shaded bars: the places a shared rank spans")
    return alt.layer(ties, lines, points, rule, data=_inline(alt, shown)).properties(
        width=460, height=300,
        title=alt.Title(_event_title(df, event, title), subtitle=_lines(subtitle, 95)))


# --------------------------------------------------------------------------------------------
# Cut analysis
# --------------------------------------------------------------------------------------------


def chart_omw_ranges(ranges: Frame, current: Frame, *, event_id: str | None = None,
                     players: Sequence[str] | None = None, top: int = 16,
                     rules: str | _rules.Ruleset | None = None,
                     title: str | None = None, round_analysed: int | None = None) -> Chart:
    """Each contender's OMW% now and its exact min–max range after the next round.

    For every player (one row each, in current rank order) three horizontal bars span the
    OMW% the player can end the next round with after a win, a draw or a loss (over every
    outcome of every other match); a black diamond marks the OMW% now.

    Parameters
    ----------
    ranges
        :func:`swissframe.cut.next_round_ranges` output (``outcome, omwp_min, omwp_max``).
    current
        :func:`swissframe.standings` of the same rounds (the OMW% and rank now). Optional
        columns: ``event_name`` (the title), ``name`` (players' names).
    event_id
        The event to draw (needed when the tables hold several).
    players
        The contenders to draw (default: the current top ``top``).
    top
        How many contenders when ``players`` is not given.
    rules
        The ruleset (default: as :func:`chart_standings` infers it from ``current``); one
        that does not rank by OMW% (chess: Buchholz) is refused (:func:`check_omw_ranges`).
    title
        Chart title (default: the event's name, else its id).
    round_analysed
        The round whose pairings the ranges are for: the texts say "after round R" and
        "now" is "before round R" (default: "after the next round").

    Returns
    -------
    altair.LayerChart

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    >>> res = sf.from_matches(m)
    >>> pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
    ...                       "opponent_id": ["C", "A", "D", "B"]})
    >>> c = chart_omw_ranges(sf.cut.next_round_ranges(res, pairs), sf.standings(res))
    >>> c.to_dict()["layer"][0]["encoding"]["x2"]["field"]
    'omwp_max'
    """
    what = "chart_omw_ranges"
    _check_title(title, what)
    rg = _frame(ranges, what)
    cur = _frame(current, what)
    _positive(top, "top", what)
    _need(rg, ["event_id", "player_id", "outcome", "omwp_min", "omwp_max"], what,
          "swissframe.cut.next_round_ranges(...)")
    _need(cur, ["event_id", "player_id", "rank", "match_points", "omwp"], what,
          "swissframe.standings(...) of the rounds played so far")
    known = _ruleset(rules, cur)
    check_omw_ranges(known, what)
    rg, event = _one_event(rg, event_id, what)
    cur = cur.filter(pl.col("event_id") == event)
    if cur.height == 0:
        msg = (f"{what}: event {quoted(event)} is not in the current standings. Hint: pass "
               "standings of the same results.")
        raise DataError(msg)
    cur = cur.sort("rank", "player_id", nulls_last=True)  # (disqualified: no rank, last)
    if players is None:
        chosen = cur.head(top)
    else:
        chosen = cur.filter(pl.col("player_id").is_in(list(players)))
        missing = sorted(set(players) - set(chosen["player_id"].to_list()))
        if missing:
            msg = (f"{what}: player(s) {missing[:5]} not in event {quoted(event)}. Hint: check the "
                   "names (player_id).")
            raise DataError(msg)
    chosen = chosen.with_columns(
        label=pl.format("{}. {} ({} pts)", pl.col("rank"), _player_label(chosen),
                        _points_text(pl.col("match_points"))),
        position=pl.int_range(1, pl.len() + 1, dtype=pl.Int64))
    data = (rg.filter(pl.col("outcome").is_in(list(_OUTCOME_ORDER)))
            .join(chosen.select("player_id", "label", "position", "rank",
                                pl.col("omwp").alias("omwp_now")), on="player_id", how="inner")
            .select("player_id", "label", "position", "rank", "outcome", "omwp_now",
                    "omwp_min", "omwp_max", *(["match_points"] if "match_points" in rg.columns
                                              else []))
            .sort("position", "outcome"))
    now = chosen.select("player_id", "label", "position", pl.col("omwp").alias("omwp_now"))
    after = ("after the next round" if round_analysed is None
             else f"after round {_before_round(round_analysed, what).removeprefix('round ')}")
    _drawable_count(chosen.height, what, "contender",
                    f"top={MAX_DRAWN_NAMES} or fewer (--top), or fewer players=")
    alt = _alt()
    omw = _rules.label_of("omwp")
    order = chosen["label"].to_list()
    y = alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=280))
    outcome_scale = alt.Scale(domain=list(_OUTCOME_ORDER), range=list(_OUTCOME_COLORS))
    bars = alt.Chart(_inline(alt, data)).mark_bar(height={"band": 0.3}, cornerRadius=1).encode(
        x=alt.X("omwp_min:Q", title=f"{omw} {after} (diamond: now)",
                axis=alt.Axis(format=".0%"), scale=alt.Scale(zero=False)),
        x2="omwp_max:Q",
        y=y,
        yOffset=alt.YOffset("outcome:N", sort=list(_OUTCOME_ORDER),
                            scale=alt.Scale(domain=list(_OUTCOME_ORDER))),
        color=alt.Color("outcome:N", title="Own result", scale=outcome_scale,
                        sort=list(_OUTCOME_ORDER),
                        legend=alt.Legend(labelExpr=_outcome_label(known))),
        tooltip=[alt.Tooltip("player_id:N", title="player"), "outcome:N",
                 *_pct_tooltip(alt, ["omwp_min", "omwp_max", "omwp_now"])])
    diamonds = alt.Chart(_inline(alt, now)).mark_point(shape="diamond", filled=True, size=70,
                                         color="black").encode(
        x="omwp_now:Q", y=y,
        tooltip=[alt.Tooltip("player_id:N", title="player"),
                 alt.Tooltip("omwp_now:Q", title=f"{omw} now", format=".2%")])
    return alt.layer(bars, diamonds).properties(
        width=420, height=24 * max(chosen.height, 1),
        title=alt.Title(
            _event_title(cur, event, title),
            subtitle=_lines([f"{omw} of the top {count(chosen.height, 'contender')} "
                             f"{after}: each bar spans every value reachable "
                             f"after a win / {draw_word(known)} / loss, over all other "
                             "results",
                             f"A win can lower {omw}: it depends on the opponents' results, "
                             "and a win is the last opponent's loss"], 100)))


def _before_round(round_analysed: int | None, what: str) -> str:
    """The round the cut charts analyse, as their texts say it: "round R" (a round the
    user chose: ``--round 12`` of 15 is not the final round), else "the final round"."""
    if round_analysed is None:
        return "the final round"
    check_whole(f"{what}: round_analysed", round_analysed, low=1, hint="e.g. round_analysed=15")
    return f"round {round_analysed}"


def _status_frame(status: pl.DataFrame, current: pl.DataFrame | None) -> pl.DataFrame:
    """Status rows with the points group each player is in before the round."""
    st = status.filter(pl.col("outcome").is_in(list(_OUTCOME_ORDER)))
    if current is not None:
        before = current.select("event_id", "player_id",
                                pl.col("match_points").alias("points_before"))
        st = st.join(before, on=["event_id", "player_id"], how="left")
    else:  # a loss adds nothing: the lowest post-round points are the points before
        st = st.with_columns(
            points_before=pl.col("match_points").min().over("event_id", "player_id"))
    return st.with_columns(probability=pl.col("probability").cast(pl.Float64))


def chart_cut_status(status: Frame, current: Frame | None = None, *,
                     event_id: str | None = None, top: int | None = None,
                     groups: int | None = None, title: str | None = None,
                     rules: str | _rules.Ruleset | None = None,
                     round_analysed: int | None = None) -> Chart:
    """Final-round cut status by points group: guaranteed / possible / eliminated.

    One panel per own result (win, draw, loss). Each row is a points group (players on the
    same match points before the final round); its bar counts the group's players by status
    and the label gives the group's mean probability of making the cut with that result.

    Parameters
    ----------
    status
        :func:`swissframe.cut.cut_status` output.
    current
        Standings before the final round (for the points groups); default: each player's
        points after a loss, i.e. the points before the round under MTG/Pokémon scoring.
    event_id
        The event to draw (needed when the table holds several).
    top
        The cut size, shown in the title only.
    groups
        Show this many points groups from the top (default: every group in which someone is
        not eliminated with some result, plus the group below).
    title
        Chart title (default: the event's name, else its id).
    rules
        The ruleset analysed (name or :class:`~swissframe.rules.Ruleset`), for its words:
        a game without a playoff (chess) has a top-N status, not a cut status. Default:
        a card game's cut.
    round_analysed
        The round whose pairings the statuses are for: the texts say "before round R"
        (default: "before the final round", the usual analysis).

    Returns
    -------
    altair.FacetChart

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    >>> pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
    ...                       "opponent_id": ["C", "A", "D", "B"]})
    >>> st = sf.cut.cut_status(sf.from_matches(m), pairs, top=1)
    >>> c = chart_cut_status(st, top=1)
    >>> c.to_dict()["facet"]["column"]["field"]
    'outcome'
    """
    what = "chart_cut_status"
    _check_title(title, what)
    df = _frame(status, what)
    _positive(top, "top", what, optional=True)
    known = None if rules is None else _rules.get(rules)
    words = cut_words(known, top or 8)
    chance = words.chance
    _positive(groups, "groups", what, optional=True)
    _need(df, ["event_id", "player_id", "outcome", "match_points", "status", "probability"],
          what, "swissframe.cut.cut_status(...)")
    df, event = _one_event(df, event_id, what)
    cur = None
    if current is not None:
        cur = _frame(current, what)
        _need(cur, ["event_id", "player_id", "match_points"], what,
              "swissframe.standings(...) of the rounds before the final one")
    st = _status_frame(df, cur)
    per_group = (st.group_by("points_before")
                 .agg(alive=(pl.col("status") != "eliminated").any())
                 .sort("points_before", descending=True))
    if groups is None:
        alive = per_group.filter(pl.col("alive"))["points_before"]
        lowest = alive.min() if alive.len() else per_group["points_before"].max()
        below = per_group.filter(pl.col("points_before") < lowest)["points_before"].max()
        floor = below if below is not None else lowest
        shown = per_group.filter(pl.col("points_before") >= floor)["points_before"]
    else:
        shown = per_group.head(groups)["points_before"]
    agg = (st.filter(pl.col("points_before").is_in(shown.implode()))
           .group_by("points_before", "outcome", "status")
           .agg(players=pl.len(), p_sum=pl.col("probability").sum(),
                p_known=pl.col("probability").is_not_null().sum()))
    totals = agg.group_by("points_before", "outcome").agg(
        group_players=pl.col("players").sum(),
        mean_probability=pl.when(pl.col("p_known").sum() > 0)
        .then(pl.col("p_sum").sum() / pl.col("p_known").sum()),
        all_out=(pl.col("status") == "eliminated").all(),
        all_in=(pl.col("status") == "guaranteed").all())
    pct = (pl.col("mean_probability") * 100).round(0).cast(pl.Int64)
    # a percentage that rounds to 0 or 100 while the outcome is not proved is "~0%" / "~100%"
    p_label = (pl.when(pl.col("mean_probability").is_null()).then(pl.lit(""))
               .when((pct == 0) & ~pl.col("all_out")).then(pl.lit("~0%"))
               .when((pct == 100) & ~pl.col("all_in")).then(pl.lit("~100%"))
               .otherwise(pl.format("{}%", pct)))
    data = (agg.join(totals, on=["points_before", "outcome"], how="left")
            .with_columns(points=pl.format(  # ("1 pt", "1.5 pts", "0 pts")
                              "{} {}", _points_text(pl.col("points_before")),
                              pl.when(pl.col("points_before") == 1).then(pl.lit("pt"))
                              .otherwise(pl.lit("pts"))),
                          p_label=p_label)
            .drop("all_out", "all_in")
            .drop("p_sum", "p_known")
            .sort(pl.col("points_before"), "outcome", "status",
                  descending=[True, False, False]))
    order = (data.select("points_before", "points").unique()
             .sort("points_before", descending=True)["points"].to_list())
    statuses = list(STATUS_COLORS)
    alt = _alt()
    before = _before_round(round_analysed, what)
    y = alt.Y("points:N", sort=order, title=f"Points before {before}")
    bars = alt.Chart().mark_bar().encode(
        x=alt.X("sum(players):Q", title="Players", stack="zero",
                axis=alt.Axis(tickMinStep=1, format="d")),
        y=y,
        color=alt.Color("status:N", title=words.status, sort=statuses,
                        scale=alt.Scale(domain=statuses,
                                        range=[STATUS_COLORS[s] for s in statuses]),
                        legend=alt.Legend(orient="bottom")),
        order=alt.Order("status_order:Q"),
        tooltip=["points:N", "outcome:N", "status:N", "players:Q",
                 alt.Tooltip("mean_probability:Q", title=f"P({chance}), group",
                             format=".0%")],
    ).transform_calculate(
        status_order="indexof(" + repr(statuses).replace("'", '"') + ", datum.status)")
    labels = alt.Chart().mark_text(align="left", dx=4, color="#333333").encode(
        x="max(group_players):Q", y=y, text="max(p_label):N")
    names = cur if cur is not None and "event_name" not in df.columns else df
    target = f"the top {top}" if top else "the cut"
    head = alt.Title(
        _event_title(names, event, title),
        subtitle=_lines([f"Who can still make {target}, by points before {before} "
                         "and own result; label: the group's mean probability of making "
                         + words.it,
                         "Guaranteed / eliminated are proved over every result of every "
                         "other match; “possible” can still be a slim chance (~0%)"], 100))
    layered = alt.layer(bars, labels, data=_inline(alt, data))
    return layered.properties(width=180, height=alt.Step(22)).facet(
        column=alt.Column("outcome:N", sort=list(_OUTCOME_ORDER), title=None,
                          header=alt.Header(labelFontSize=13, labelFontWeight="bold",
                                            labelExpr=_outcome_label(known))),
    ).properties(title=head)


def chart_cut_lines(events: Any, *, field: Frame | None = None, top: int = 8,
                    rules: str | _rules.Ruleset | None = None,
                    title: str | None = None) -> Chart:
    """Points needed for the top N against field size across events, intentional draws marked.

    One dot per event at (players, match points of place N); filled when the event's last
    Swiss round had intentional draws. Where the IDs were replayed
    (``cf_cut_points_mean``), a grey tick shows the mean cut line with the IDs played out and
    a thin rule joins it to the real one: the shift the draws caused. The log axis has a tick
    at N players and at each doubling (one more Swiss round, roughly).

    Parameters
    ----------
    events
        One row per event: :func:`swissframe.cut.id_report` (the report or its ``events``
        table): ``event_id, match_points_n, ids_final`` and optionally ``swiss_rounds``,
        ``cf_cut_points_mean``, ``players``, ``event_name``.
    field
        A table with ``event_id, players`` (e.g. the ``events`` table of an importer) when
        ``events`` has no ``players`` column; its ``event_name`` is used too.
    top
        N, for the labels.
    rules
        The ruleset of the events, for the words (default: a ``ruleset`` column, else MTG):
        a chess score is "points" (:func:`swissframe.compare.criterion_label`), and where
        the game has no intentional draws (a chess draw is a result:
        :func:`swissframe.compare.knows_intentional_draws`) the dots are not split by them.
    title
        Chart title.

    Returns
    -------
    altair.LayerChart

    Examples
    --------
    >>> import polars as pl
    >>> ev = pl.DataFrame({"event_id": ["a", "b", "c"], "players": [40, 120, 300],
    ...     "match_points_n": [12, 15, 19], "ids_final": [0, 2, 3],
    ...     "cf_cut_points_mean": [None, 15.5, 19.4]})
    >>> spec = chart_cut_lines(ev).to_dict()
    >>> spec["layer"][2]["encoding"]["x"]["field"], spec["layer"][2]["encoding"]["y"]["field"]
    ('players', 'match_points_n')
    >>> spec["layer"][2]["encoding"]["x"]["axis"]["values"]
    [64, 128, 256]
    """
    what = "chart_cut_lines"
    _check_title(title, what)
    table = getattr(events, "events", events)
    df = _frame(table, what)
    _positive(top, "top", what)
    if field is not None:
        fl = _frame(field, what)
        wanted = [c for c in ("players", "event_name") if c in fl.columns
                  and c not in df.columns]
        if "players" not in df.columns:
            _need(fl, ["event_id", "players"], what, "an events table with a players column")
        if wanted:
            df = df.join(fl.select("event_id", *wanted).unique("event_id"), on="event_id",
                         how="left")
    _need(df, ["event_id", "players", "match_points_n", "ids_final"], what,
          "swissframe.cut.id_report(...).events joined with the field size (field=...)")
    rs = _ruleset(rules, df)
    with_ids = knows_intentional_draws(rs)  # (a chess draw is a result: no ID legend)
    # (a chess event has no cut: its line is under place N, swissframe.cut._words)
    line = cut_words(rs, top).cut_line
    cf = "cf_cut_points_mean" in df.columns
    extra = [c for c in ("swiss_rounds", "final_ids_safe_both", "cf_topn_changed_share")
             if c in df.columns and (with_ids or c == "swiss_rounds")]
    event_name = (pl.coalesce(pl.col("event_name").cast(pl.String), pl.col("event_id"))
                  if "event_name" in df.columns else pl.col("event_id")).alias("event")
    data = (df.filter(pl.col("players").is_not_null() & pl.col("match_points_n").is_not_null())
            .select("event_id", event_name, pl.col("players").cast(pl.Int64),
                    pl.col("match_points_n").cast(pl.Float64), pl.col("ids_final").cast(pl.Int64),
                    *extra,
                    (pl.col("cf_cut_points_mean").cast(pl.Float64) if cf
                     else pl.lit(None, dtype=pl.Float64)).alias("cf_points"))
            .with_columns(ids=pl.when(pl.col("ids_final") > 0)
                          .then(pl.lit("IDs in the last round"))
                          .otherwise(pl.lit("no IDs in the last round")))
            .sort("players", "event_id"))
    if data.height == 0:
        msg = f"{what}: no event has both a field size and a cut line. Hint: check the input."
        raise DataError(msg)
    if data.height == 1:  # (one dot on an empty plane: a field size has nothing to compare)
        msg = (f"{what} compares events (one dot per event: the {rs_points(rs)} of place "
               f"{top} against its field size), and the input holds one, "
               f"{quoted(data['event'][0])}. Hint: give several events' files; for this event, "
               f"chart standings draws its {line} against the standings "
               "(swissframe chart standings FILE), and chart cut-status who could still "
               "make it before the last round.")
        raise DataError(msg)
    alt = _alt()
    # (the legend lists the kinds of event drawn: "IDs in the last round" where no event
    # had one named dots that are not there; each kind keeps its colour and shape)
    kinds = set(data["ids"].to_list())
    id_style = [(d, c, m) for d, c, m in (("IDs in the last round", OKABE_ITO[3], "circle"),
                                          ("no IDs in the last round", OKABE_ITO[0], "square"))
                if d in kinds]
    id_dom = [d for d, _, _ in id_style]
    lo, hi = int(data["players"].min() or 1), int(data["players"].max() or 1)  # type: ignore[arg-type]
    lo_dom, hi_dom = max(lo / 1.15, 1.0), hi * 1.15
    ticks = _log_ticks(top, lo_dom, hi_dom, data=[lo, hi])
    pts = pl.concat([data["match_points_n"], data["cf_points"].drop_nulls()])
    y_dom = [max(0.0, float(pts.min()) - 1.0), float(pts.max()) + 1.0]  # type: ignore[arg-type]
    doubles = len(ticks) > 1 and all(b == 2 * a for a, b in itertools.pairwise(ticks))
    x = alt.X("players:Q", title="Players (log scale: each tick doubles the field)"
              if doubles else "Players (log scale)",
              scale=alt.Scale(type="log", nice=False, domain=[lo_dom, hi_dom]),
              axis=alt.Axis(values=ticks, format="d"))
    tooltip = [alt.Tooltip("event:N", title="event"), "players:Q",
               alt.Tooltip("match_points_n:Q", title=f"points of place {top}"),
               *([alt.Tooltip("ids_final:Q", title="IDs in the last round")] if with_ids else []),
               *[f"{c}:Q" for c in extra],
               alt.Tooltip("cf_points:Q", title=f"{line}, "
                           + ("IDs" if with_ids else "draws") + " played out", format=".1f")]
    base = alt.Chart()
    shift = base.mark_rule(color="#999999", strokeWidth=1).encode(
        x=x, y="match_points_n:Q", y2="cf_points:Q").transform_filter(
        "isValid(datum.cf_points)")
    ticks_cf = base.mark_tick(color="#555555", thickness=2, size=12,
                              orient="horizontal").encode(
        x=x, y="cf_points:Q", tooltip=tooltip).transform_filter("isValid(datum.cf_points)")
    by_ids = {"color": alt.Color("ids:N", title=None, scale=alt.Scale(
                  domain=id_dom, range=[c for _, c, _ in id_style]),
                  legend=alt.Legend(orient="bottom")),
              "shape": alt.Shape("ids:N", scale=alt.Scale(
                  domain=id_dom, range=[m for _, _, m in id_style]),
                  legend=alt.Legend(orient="bottom"))}
    dots = base.mark_point(size=70, filled=True, opacity=0.75,
                           **({} if with_ids else {"color": OKABE_ITO[0]})).encode(
        x=x,
        y=alt.Y("match_points_n:Q",
                title=f"{criterion_label('match_points', rs).capitalize()} of place {top}",
                scale=alt.Scale(domain=y_dom, nice=False), axis=alt.Axis(tickMinStep=1)),
        tooltip=tooltip, **(by_ids if with_ids else {}))
    n_ids = int((data["ids_final"] > 0).sum())
    subtitle = [f"One dot per event: its field size and the points of place {top}"
                + (f" ({count(n_ids, 'event')} with intentional draws in the last round)"
                   if with_ids else "")]
    if data["cf_points"].is_not_null().any():
        subtitle.append(f"Grey tick: the mean {line} with those draws played out"
                        + (_draws_moved(data) if with_ids else ""))
    return alt.layer(shift, ticks_cf, dots, data=_inline(alt, data)).properties(
        width=560, height=320,
        title=alt.Title(title or (f"The top-{top} cut line" if line == "cut line" else
                                  f"Place {top}") + f" across {count(data.height, 'event')}",
                        subtitle=_lines(subtitle, 95)))


def _draws_moved(data: pl.DataFrame) -> str:
    """Which way playing the last round's intentional draws out moved the line, as the dots
    show it (to the tooltip's tenth of a point): "Draws raise the line" was said of every
    chart, under ticks above their dots (a small event whose played-out draws put 3 points
    where 1 was) and of events without a draw."""
    moved = data.filter(pl.col("cf_points").is_not_null() & (pl.col("ids_final") > 0))
    if moved.height == 0:
        return ""
    diff = (moved["cf_points"] - moved["match_points_n"]).round(1)
    fell, rose = int((diff < 0).sum()), int((diff > 0).sum())
    same = moved.height - fell - rose
    if fell == rose == 0:
        return f": the same in the {count(moved.height, 'event')} with them"
    said = (f": lower in {fell} of {count(moved.height, 'event')} with them, higher in "
            f"{rose}" + (f", the same in {same}" if same else ""))
    if fell > rose:
        said += " (a draw gives both players a point, a played match gives one of them nothing)"
    return said


# --------------------------------------------------------------------------------------------
# Sensitivity
# --------------------------------------------------------------------------------------------

_MAX_ROWS: Final = 60


def _counts_legend(most: int) -> Any:
    """The legend of a colour scale of whole-number counts from 0 to ``most``: a swatch
    for each count (every one up to 10, else about eight evenly spaced, ``most`` last),
    not a gradient, which reads as a continuous measure with values between the counts.

    >>> _counts_legend(3).to_dict()["values"], _counts_legend(12).to_dict()["values"]
    ([0, 1, 2, 3], [0, 2, 4, 6, 8, 10, 12])
    """
    step = 1 if most <= 10 else -(-most // 8)
    values = list(range(0, most + 1, step))
    if values[-1] != most:
        values.append(most)
    return _alt().Legend(orient="bottom", type="symbol", values=values, format="d",
                         symbolType="square", symbolSize=150, symbolStrokeWidth=0,
                         direction="horizontal")


def chart_sensitivity(sens: Frame, *, top: int | None = None, baseline: bool = False,
                      only_changed: bool | None = None, title: str | None = None,
                      rules: str | _rules.Ruleset | None = None) -> Chart:
    """Heatmap of events x alternative rulesets: how many players the rules swap in the top N.

    Each cell counts the players who enter the top N under that ruleset (as many leave);
    the label repeats the count, the tooltip lists who enters and leaves, Kendall's tau of
    the whole ranking against the baseline and the criterion that decided the cut. Rows are
    labelled with the event's name (``event_name`` column) or id; with more than 60 events
    only those with a change are drawn, the 60 with the most changes at most (the subtitle
    says how many are shown).

    Parameters
    ----------
    sens
        :func:`swissframe.sensitivity.sensitivity` output (one row per event and ruleset;
        the first ruleset of each event is the baseline).
    top
        N, the size of the top cut compared (the ``top`` given to ``sensitivity``).
    baseline
        Keep the baseline column (always 0).
    only_changed
        Keep only events in which some ruleset changes the top N (default: when there are
        more than 60 events).
    title
        Chart title.
    rules
        The baseline ruleset, for its words (a game without a playoff, or an event whose
        file holds none: the top places, not a cut; :mod:`swissframe.cut._words`). Default:
        the preset named by the first ruleset of ``sens``.

    Returns
    -------
    altair.LayerChart

    Examples
    --------
    >>> import polars as pl
    >>> s = pl.DataFrame({"event_id": ["a", "a", "b", "b"],
    ...     "ruleset": ["mtg", "mtg-1/3", "mtg", "mtg-1/3"], "players": [40, 40, 90, 90],
    ...     "entering": [[], ["X"], [], []], "leaving": [[], ["Y"], [], []],
    ...     "kendall_tau": [1.0, 0.98, 1.0, 1.0], "cut_criterion": ["omwp"] * 4})
    >>> spec = chart_sensitivity(s, top=8).to_dict()
    >>> spec["layer"][0]["encoding"]["color"]["field"], spec["title"]["text"]
    ('changes', 'Does the top 8 depend on the tiebreaker rules?')
    """
    what = "chart_sensitivity"
    _check_title(title, what)
    df = _frame(sens, what)
    _positive(top, "top", what, optional=True)
    check_flag("baseline", baseline)
    check_flag("only_changed", only_changed, none=True)
    _need(df, ["event_id", "ruleset", "entering", "leaving"], what,
          "swissframe.sensitivity.sensitivity(...)")
    if df.height == 0:
        msg = f"{what}: the table is empty. Hint: run sensitivity over at least one event."
        raise DataError(msg)
    rulesets = df["ruleset"].unique(maintain_order=True).to_list()
    base_name = rulesets[0]
    # (a standard variant in words, "floor 1/3 instead of 0.25", as the report says it)
    from swissframe.sensitivity import variant_label

    said = {r: r if r == base_name else variant_label(r, base_name) for r in rulesets}
    if len(set(said.values())) == len(said):  # (never two rulesets under one label)
        df = df.with_columns(pl.col("ruleset").replace_strict(said, return_dtype=pl.String))
        rulesets = [said[r] for r in rulesets]
    # (the baseline's words: a chess event has no cut, swissframe.cut._words)
    known = _rules.PRESETS.get(str(base_name)) if rules is None else _rules.get(rules)
    words = cut_words(known, top or 8)
    top_n = f"top {top}" if top else words.unsized
    line = words.the_line_short
    extra = [c for c in ("players", "kendall_tau", "cut_criterion") if c in df.columns]
    event_name = (pl.coalesce(pl.col("event_name").cast(pl.String), pl.col("event_id"))
                  if "event_name" in df.columns else pl.col("event_id"))
    data = df.select(
        "event_id", "ruleset", *extra,
        event=event_name,
        changes=pl.col("entering").list.len().cast(pl.Int64),
        entering_names=pl.col("entering").list.join(", "),
        leaving_names=pl.col("leaving").list.join(", "))
    if "cut_criterion" in data.columns:
        data = data.with_columns(pl.col("cut_criterion").replace_strict(
            {c: _rules.label_of(c) for c in data["cut_criterion"].drop_nulls().unique()},
            default=pl.col("cut_criterion"), return_dtype=pl.String))
    if data["event_id"].n_unique() == 1:  # (one event: a row of one colour said little)
        return _sensitivity_of_one(data, rulesets, top_n=top_n, words=words,
                                   title=title, what=what)
    per_event = (data.filter(pl.col("ruleset") != base_name).group_by("event_id")
                 .agg(_any=(pl.col("changes") > 0).any(), _sum=pl.col("changes").sum()))
    ranked = (data.filter(pl.col("ruleset") != base_name)
              .group_by("ruleset").agg(n=(pl.col("changes") > 0).sum())
              .filter(pl.col("n") > 0).sort(["n", "ruleset"], descending=[True, False]))
    n_all = data["event_id"].n_unique()
    n_changed = int(per_event["_any"].sum())
    if only_changed is None:
        only_changed = n_all > _MAX_ROWS
    keep = per_event
    if only_changed:
        keep = keep.filter(pl.col("_any"))
    capped = keep.height > _MAX_ROWS
    if capped:
        keep = keep.sort(["_sum", "event_id"], descending=[True, False]).head(_MAX_ROWS)
    data = data.filter(pl.col("event_id").is_in(keep["event_id"].implode()))
    if not baseline:
        data = data.filter(pl.col("ruleset") != base_name)
        rulesets = rulesets[1:]
    if data.height == 0:
        msg = (f"{what}: nothing to draw (no alternative ruleset"
               f"{' or no event with a change' if only_changed else ''}). Hint: pass several "
               "rulesets to sensitivity(), the first being the baseline.")
        raise DataError(msg)
    # short labels, kept unique: a label shared by several events gets a number
    names = (data.select("event_id", "event").unique("event_id").sort("event_id")
             .with_columns(event=_short(pl.col("event")))
             .with_columns(k=pl.int_range(1, pl.len() + 1).over("event"),
                           n=pl.len().over("event"))
             .select("event_id", event=pl.when(pl.col("n") > 1)
                     .then(pl.format("{} ({})", pl.col("event"), pl.col("k")))
                     .otherwise(pl.col("event"))))
    data = data.drop("event").join(names, on="event_id", how="left")
    if "players" in data.columns:  # largest events first
        ev_order = data.select("event", "players").unique().sort(
            ["players", "event"], descending=[True, False])
    else:
        ev_order = data.select("event").unique().sort("event")
    events = ev_order["event"].unique(maintain_order=True).to_list()
    n_events = len(events)
    alt = _alt()
    max_changes = max(int(data["changes"].max() or 0), 1)  # type: ignore[arg-type]
    x = alt.X("ruleset:N", sort=rulesets, title=f"Ruleset (versus {base_name})",
              axis=alt.Axis(labelAngle=-35, labelLimit=200, orient="top"))
    y = alt.Y("event:N", sort=events, title=None, axis=alt.Axis(labelLimit=260))
    tooltip = ["event:N", "ruleset:N", alt.Tooltip("changes:Q", title=f"{top_n} changes"),
               alt.Tooltip("entering_names:N", title="enter"),
               alt.Tooltip("leaving_names:N", title="leave"),
               *[alt.Tooltip("kendall_tau:Q", format=".6~g") for c in extra
                 if c == "kendall_tau"],
               *[alt.Tooltip("players:Q") for c in extra if c == "players"],
               *[alt.Tooltip("cut_criterion:N", title=f"decided {line} (baseline)")
                 for c in extra if c == "cut_criterion"]]
    base = alt.Chart().encode(x=x, y=y)
    cells = base.mark_rect(stroke="white", strokeWidth=0.5).encode(
        color=alt.Color("changes:Q", title=f"Players swapped into the {top_n}",
                        scale=alt.Scale(domain=[0, max_changes], range=["#F2F2F2", "#D55E00"]),
                        legend=_counts_legend(max_changes)),
        tooltip=tooltip)
    text = base.mark_text(fontSize=10).encode(
        text=alt.Text("changes:Q"),
        color=alt.condition(alt.datum.changes >= max(1.0, max_changes * 0.6),
                            alt.value("white"), alt.value("#333333"))
    ).transform_filter(alt.datum.changes > 0)
    share = n_changed / n_all if n_all else 0.0
    subtitle = [f"Cells: players entering the {top_n} under each ruleset instead of "
                f"{base_name} (as many leave); {count(n_changed, 'event')} of {n_all:,} "
                f"({share:.0%}) {'changes' if n_changed == 1 else 'change'} under some "
                "ruleset"]
    if n_events < n_all:
        shown = (f"the {n_events:,} with the most changes" if capped
                 else f"the {n_events:,} with a change")
        subtitle.append(f"Showing {shown}, largest events first")
    if ranked.height:
        most = ", ".join(f"{r} ({n})" for r, n in ranked.head(3).iter_rows())
        subtitle.append(f"Events changed, most first: {most} — a swap needs {line} decided "
                        "by a tiebreaker, and a rule that shifts neighbours alike rarely flips "
                        "it")
    step = max(36, 10 * max(map(len, rulesets), default=4) // 3)
    chars = max(70, (step * len(rulesets) + 280) // 7)
    return alt.layer(cells, text, data=_inline(alt, data)).properties(
        width=alt.Step(step), height=alt.Step(16),
        title=alt.Title(title or f"Does the {top_n} depend on the tiebreaker rules?",
                        subtitle=_lines(subtitle, chars)))


def _sensitivity_of_one(data: pl.DataFrame, rulesets: list[str], *, top_n: str,
                        words: CutWords, title: str | None, what: str) -> Chart:
    """:func:`chart_sensitivity` of one event: who enters and who leaves the ``top_n``
    under each ruleset (a row per ruleset against the first, a column per player who
    moves), the rulesets that change nothing named; an event no ruleset changes is a
    :class:`DataError` (nothing to draw) saying so."""
    base, others = rulesets[0], rulesets[1:]
    event = str(data["event"][0])
    rows = data.filter(pl.col("ruleset") != base)
    moves = pl.concat([
        rows.select("ruleset", player=pl.col("entering_names").str.split(", "),
                    move=pl.lit(f"enters the {top_n}")),
        rows.select("ruleset", player=pl.col("leaving_names").str.split(", "),
                    move=pl.lit(f"leaves the {top_n}"))]).explode("player").filter(
        pl.col("player").is_not_null() & (pl.col("player") != ""))
    if not others:
        msg = (f"{what}: one ruleset only ({base}): nothing to compare. Hint: pass several "
               "rulesets to sensitivity(), the first being the baseline.")
        raise DataError(msg)
    if moves.height == 0:
        msg = (f"{what}: no ruleset changes the {top_n} of {quoted(event)} (against {base}: "
               f"{', '.join(others)}): nothing to draw. Hint: swissframe sensitivity FILE "
               "(sf.sensitivity) lists each ruleset with its Kendall tau and what decided "
               f"{words.the_line_short}.")
        raise DataError(msg)
    alt = _alt()
    # (the players who leave first, then those who enter; each in order of appearance)
    players = list(dict.fromkeys(
        moves.sort(pl.col("move").str.starts_with("enters"), maintain_order=True)["player"]
        .to_list()))
    _drawable_count(len(players), what, "moving player",
                    f"a smaller top_n in sensitivity() (--cut, at most {MAX_DRAWN_NAMES})")
    calm = [r for r in others if r not in set(moves["ruleset"].to_list())]
    domain = [f"leaves the {top_n}", f"enters the {top_n}"]
    dots = alt.Chart(_inline(alt, moves)).mark_point(size=160, filled=True, opacity=0.9).encode(
        x=alt.X("player:N", sort=players, title=None,
                axis=alt.Axis(labelAngle=-35, labelLimit=200, orient="top")),
        y=alt.Y("ruleset:N", sort=others, title=None, scale=alt.Scale(domain=others),
                axis=alt.Axis(labelLimit=260)),
        color=alt.Color("move:N", title=None, scale=alt.Scale(
            domain=domain, range=[OKABE_ITO[0], OKABE_ITO[3]]),
            legend=alt.Legend(orient="bottom")),
        shape=alt.Shape("move:N", title=None, scale=alt.Scale(
            domain=domain, range=["triangle-down", "triangle-up"]),
            legend=alt.Legend(orient="bottom")),
        tooltip=["ruleset:N", "player:N", alt.Tooltip("move:N", title="under this ruleset")])
    n_moved = moves["ruleset"].n_unique()
    subtitle = [f"Each row a ruleset against {base}: ▲ enters the {top_n}, ▼ leaves it "
                f"({count(n_moved, 'ruleset')} of {len(others)} "
                f"{'changes' if n_moved == 1 else 'change'} it)"]
    if calm:
        subtitle.append(f"No change under {', '.join(calm)}")
    chars = max(95, (40 * len(players) + 280) // 7)
    return dots.properties(
        width=alt.Step(40), height=alt.Step(26),
        title=alt.Title(title or f"{_short_text(event)}: who moves across the {top_n} under "
                        "other rulesets", subtitle=_lines(subtitle, chars)))


def _short_text(text: str, n: int = 60) -> str:
    """``text`` cut to ``n`` characters with an ellipsis (a title's event name)."""
    return text if len(text) <= n else text[:n - 1].rstrip() + "…"
