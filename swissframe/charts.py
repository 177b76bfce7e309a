"""Publication-quality charts of standings, cut analyses and rule sensitivity (Altair).

Altair is imported lazily, inside the functions: ``import swissframe`` never imports it.
Install the ``charts`` extra (``pip install 'swissframe[charts]'``: altair and vl-convert).

Every ``chart_*`` function takes a tidy frame returned by the public API and returns an
Altair chart object (a layered or concatenated chart where the figure needs several marks);
none displays or saves anything by itself. :func:`save` writes PNG, SVG, PDF, HTML or the
Vega-Lite JSON, offline (vl-convert bundles the renderer).

- :func:`chart_standings` (``standings``): points and tiebreakers of the top ~32 of one
  event, the cut line marked, points groups and exact ties visible;
- :func:`chart_standings_race` (``standings_by_round``): rank by round of the final top N;
- :func:`chart_omw_ranges` (``cut.next_round_ranges`` + ``standings``): each contender's
  OMW% now and its exact min–max after the next round, per own result;
- :func:`chart_cut_status` (``cut.cut_status``): guaranteed / possible / eliminated and the
  probability of making the cut, by points group and own final-round result;
- :func:`chart_cut_lines` (``cut.id_report(...).events`` + field size): points needed for
  the top N versus players across events, intentional draws and their counterfactual marked;
- :func:`chart_sensitivity` (``sensitivity``): events x alternative rulesets heatmap of
  top-N changes.

The house theme ``"swissframe"`` (legible in print, colour-blind-safe Okabe-Ito palette) is
registered with Altair the first time a chart function runs and is opt-in: call
:func:`use_theme` to enable it. Semantic colours (cut status, zones) are fixed in the charts
themselves, so they stay the same under any theme.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import polars as pl

from swissframe.errors import DataError, SchemaError, SwissframeError

if TYPE_CHECKING:  # pragma: no cover - typing only
    import os
    from types import ModuleType

__all__ = [
    "OKABE_ITO",
    "STATUS_COLORS",
    "THEME",
    "chart_cut_lines",
    "chart_cut_status",
    "chart_omw_ranges",
    "chart_sensitivity",
    "chart_standings",
    "chart_standings_race",
    "save",
    "theme_config",
    "use_theme",
]

#: Name of the house theme registered with Altair (enable it with :func:`use_theme`).
THEME: Final = "swissframe"

#: The Okabe-Ito colour-blind-safe palette (blue first), used for categories.
OKABE_ITO: Final = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                    "#F0E442", "#000000")

#: Cut-status colours (fixed in the charts, independent of the theme).
STATUS_COLORS: Final = {"guaranteed": "#009E73", "possible": "#E69F00",
                        "eliminated": "#BBBBBB"}

#: Zones of the standings chart: inside the cut, tied across it, outside it.
_ZONE_COLORS: Final = {"in the cut": "#0072B2", "tied at the cut": "#E69F00",
                       "outside": "#BBBBBB"}
_OUTCOME_ORDER: Final = ("win", "draw", "loss")
_OUTCOME_COLORS: Final = ("#009E73", "#E69F00", "#D55E00")
_FONT: Final = "Helvetica Neue, Helvetica, Arial, Liberation Sans, DejaVu Sans, sans-serif"
_SAVE_FORMATS: Final = ("png", "svg", "pdf", "html", "json")

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
    """Register (not enable) the house theme, with the API of the installed Altair."""
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
    alt = _alt()
    name = THEME if enable else "default"
    api = getattr(alt, "theme", None)
    if api is not None and hasattr(api, "enable"):
        api.enable(name)
    else:  # pragma: no cover - altair < 5.5
        alt.themes.enable(name)
    return name


def save(chart: Chart, path: str | os.PathLike[str], *, scale: float = 2.0) -> Path:
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
    p = Path(path)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in _SAVE_FORMATS:
        msg = (f"cannot save a chart as {p.name!r}: unknown format {fmt!r}. Hint: use one of "
               f"{', '.join('.' + f for f in _SAVE_FORMATS)}.")
        raise SwissframeError(msg)
    if fmt == "json":
        p.write_text(chart.to_json(indent=2), encoding="utf-8")
        return p
    try:
        import vl_convert  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = (f"saving {p.name!r} needs vl-convert, which is not installed. Hint: pip "
               "install 'swissframe[charts]' (or save as .json).")
        raise SwissframeError(msg) from exc
    if fmt == "png":
        chart.save(str(p), format="png", scale_factor=scale)
    elif fmt == "html":
        chart.save(str(p), format="html", inline=True)
    else:
        chart.save(str(p), format=fmt)
    return p


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def _frame(data: Frame, what: str) -> pl.DataFrame:
    if isinstance(data, pl.LazyFrame):
        return data.collect()
    if isinstance(data, pl.DataFrame):
        return data
    msg = (f"{what} expects a Polars DataFrame or LazyFrame, got {type(data).__name__}. "
           "Hint: pass the table returned by the swissframe function named in its docstring.")
    raise SchemaError(msg)


def _need(df: pl.DataFrame, cols: Sequence[str], what: str, source: str) -> None:
    missing = [c for c in cols if c not in df.columns]
    if missing:
        msg = (f"{what}: column(s) {missing} missing; found {df.columns}. Hint: pass the "
               f"output of {source}.")
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
        msg = (f"{what}: event {event_id!r} is not in the table. Hint: events present: "
               f"{sorted(map(str, events))[:10]}.")
        raise DataError(msg)
    return df.filter(pl.col("event_id") == event_id), event_id


def _positive(value: int | None, name: str, what: str) -> None:
    if value is not None and value < 1:
        msg = f"{what}: {name} must be ≥ 1, got {value}. Hint: e.g. {name}=8."
        raise DataError(msg)


def _inline(alt: ModuleType, df: pl.DataFrame) -> Any:
    """Rows as inline Vega-Lite data: no row limit (Altair's 5,000-row guard is for frames)."""
    return alt.InlineData(values=df.to_dicts())


def _pct_tooltip(alt: ModuleType, cols: Sequence[str]) -> list[Any]:
    return [alt.Tooltip(f"{c}:Q", format=".2%") for c in cols]


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def _standings_frame(table: pl.DataFrame, top: int, cut: int | None) -> pl.DataFrame:
    """Top rows with display columns: position, label (ties marked ``=``), zone, band."""
    tie_size = pl.len().over("rank")
    last_place = pl.col("rank") + tie_size - 1
    if cut is None:
        zone: pl.Expr = pl.lit("in the cut")
    else:
        zone = (pl.when(last_place <= cut).then(pl.lit("in the cut"))
                .when(pl.col("rank") <= cut).then(pl.lit("tied at the cut"))
                .otherwise(pl.lit("outside")))
    return (table.sort("rank", "player_id")
            .with_columns(tie_size=tie_size, zone=zone,
                          points_group=pl.col("match_points").rank("dense", descending=True))
            .head(top)
            .with_columns(
                position=pl.int_range(1, pl.len() + 1, dtype=pl.Int64),
                tied=pl.col("tie_size") > 1,
                band=(pl.col("points_group") % 2).cast(pl.Int64),
                label=pl.format("{}{} {}", pl.col("rank"),
                                pl.when(pl.col("tie_size") > 1).then(pl.lit("="))
                                .otherwise(pl.lit("")), pl.col("player_id"))))


def chart_standings(table: Frame, *, event_id: str | None = None, top: int = 32,
                    cut: int | None = 8, tiebreakers: Sequence[str] | None = None,
                    title: str | None = None) -> Chart:
    """Points and tiebreakers of the top of one event's standings, the cut line marked.

    Two panels share the players (one row each, in rank order): match points as bars coloured
    by zone (inside the cut, tied across the cut line, outside) and the tiebreakers as dots.
    Grey bands mark the points groups (players on the same match points); an ``=`` after the
    rank marks an exact tie (equal on every criterion); a dashed rule runs under place
    ``cut``.

    Parameters
    ----------
    table
        Standings of one or more events, from :func:`swissframe.standings`.
    event_id
        The event to draw (needed when ``table`` holds several).
    top
        How many places to draw.
    cut
        Size of the top cut (``None``: no cut line, one colour).
    tiebreakers
        Tiebreaker columns to plot (fractions); default: those of ``omwp, gwp, ogwp``
        present.
    title
        Chart title (default: the event and the cut).

    Returns
    -------
    altair.HConcatChart

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> c = chart_standings(sf.standings(sf.from_matches(m)), cut=2)
    >>> spec = c.to_dict()
    >>> sorted(spec["hconcat"][0]["layer"][1]["encoding"])
    ['color', 'tooltip', 'x', 'y']
    """
    what = "chart_standings"
    df = _frame(table, what)
    _positive(top, "top", what)
    _positive(cut, "cut", what)
    default = [c for c in ("omwp", "gwp", "ogwp") if c in df.columns]
    tbs = list(default if tiebreakers is None else tiebreakers)
    _need(df, ["event_id", "player_id", "rank", "match_points", *tbs], what,
          "swissframe.standings(...)")
    df, event = _one_event(df, event_id, what)
    data = _standings_frame(df, top, cut).select(
        "event_id", "player_id", "rank", "match_points", *tbs, "position", "label", "zone",
        "tied", "band", "points_group")
    alt = _alt()
    n = data.height
    order = data["label"].to_list()  # an explicit sort: layers with filters keep it
    y = alt.Y("label:N", sort=order, title=None)
    zones = [z for z in _ZONE_COLORS if z in set(data["zone"].to_list())]
    tooltip = [alt.Tooltip("player_id:N", title="player"), "rank:Q", "match_points:Q",
               *_pct_tooltip(alt, tbs)]
    base = alt.Chart(_inline(alt, data)).encode(y=y)
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
        x=alt.X("match_points:Q", title="Match points", axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("zone:N", title=f"Top {cut}" if cut else None,
                        scale=alt.Scale(domain=zones, range=[_ZONE_COLORS[z] for z in zones]),
                        legend=alt.Legend(orient="bottom") if cut else None),
        tooltip=tooltip)
    labels = base.mark_text(align="left", dx=3, color="#333333").encode(
        x="match_points:Q", text="match_points:Q")
    left = alt.layer(bands, bars, labels, *rule_layers).properties(
        width=200, height=alt.Step(16))
    dots = base.transform_fold(tbs, as_=["tiebreaker", "value"]).mark_point(
        filled=True, size=55, opacity=0.9).encode(
        x=alt.X("value:Q", title="Tiebreakers", axis=alt.Axis(format=".0%"),
                scale=alt.Scale(zero=False)),
        y=alt.Y("label:N", sort=order, title=None,
                axis=alt.Axis(labels=False, ticks=False, domain=False)),
        color=alt.Color("tiebreaker:N", title="Tiebreaker", sort=tbs,
                        scale=alt.Scale(domain=tbs, range=list(OKABE_ITO[:len(tbs)])),
                        legend=alt.Legend(orient="bottom")),
        shape=alt.Shape("tiebreaker:N", sort=tbs, legend=None),
        tooltip=tooltip)
    right = alt.layer(bands, dots, *rule_layers).properties(width=260, height=alt.Step(16))
    head = title or f"{event}: top {n}" + (f", cut to top {cut}" if cut else "")
    return (alt.hconcat(left, right, spacing=6)
            .resolve_scale(color="independent", shape="independent")
            .properties(title=alt.Title(head, subtitle="= exact tie on every criterion; grey "
                                        "bands group players on the same match points")))


def chart_standings_race(by_round: Frame, *, event_id: str | None = None, top: int = 8,
                         log_rank: bool = True, title: str | None = None) -> Chart:
    """Rank after every round for the players who finished in the top ``top``.

    Parameters
    ----------
    by_round
        :func:`swissframe.standings_by_round` output (one event, or pass ``event_id``).
    event_id
        The event to draw (needed when the table holds several).
    top
        Follow the players whose rank after the last round is at most ``top``; a dashed rule
        marks the line between place ``top`` and ``top + 1``.
    log_rank
        Log-scaled rank axis (early ranks in large fields spread over hundreds of places).
    title
        Chart title.

    Returns
    -------
    altair.LayerChart
        Lines and points coloured by player (legend in final-rank order) and the cut rule.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> c = chart_standings_race(sf.standings_by_round(sf.from_matches(m)), top=2)
    >>> c.to_dict()["layer"][0]["encoding"]["y"]["field"]
    'rank'
    """
    what = "chart_standings_race"
    df = _frame(by_round, what)
    _positive(top, "top", what)
    _need(df, ["event_id", "round", "player_id", "rank", "match_points"], what,
          "swissframe.standings_by_round(...)")
    df, event = _one_event(df, event_id, what)
    last = int(df["round"].max() or 0)  # type: ignore[arg-type]
    finishers = (df.filter((pl.col("round") == last) & (pl.col("rank") <= top))
                 .select("player_id", pl.col("rank").alias("final_rank"))
                 .with_columns(player=pl.format("{}. {}", pl.col("final_rank"),
                                                pl.col("player_id"))))
    if finishers.height == 0:
        msg = f"{what}: event {event!r} has no standings after round {last}. Hint: check input."
        raise DataError(msg)
    keep = [c for c in ("omwp", "mwp") if c in df.columns]
    data = (df.join(finishers, on="player_id", how="inner")
            .select("round", "player_id", "player", "final_rank", "rank", "match_points", *keep)
            .sort("final_rank", "player_id", "round"))
    order = data.unique("player", maintain_order=True)["player"].to_list()
    alt = _alt()
    max_rank = int(df["rank"].max() or 1)  # type: ignore[arg-type]
    scale = (alt.Scale(type="log", reverse=True, domain=[1, max(max_rank, 2)], nice=False)
             if log_rank else alt.Scale(reverse=True, domain=[1, max(max_rank, 2)]))
    base = alt.Chart(_inline(alt, data)).encode(
        x=alt.X("round:O", title="After round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("rank:Q", title="Rank" + (" (log scale)" if log_rank else ""), scale=scale),
        color=alt.Color("player:N", sort=order, title=f"Final top {top}",
                        legend=alt.Legend(columns=1, symbolLimit=0)),
    )
    lines = base.mark_line(strokeWidth=2)
    points = base.mark_point(filled=True, size=40).encode(
        tooltip=["player_id:N", "round:O", "rank:Q", "match_points:Q",
                 *_pct_tooltip(alt, keep)])
    rule = alt.Chart(_inline(alt, data)).mark_rule(color="#D55E00", strokeDash=[5, 3]).encode(
        y=alt.datum(top + 0.5))
    return alt.layer(lines, points, rule).properties(
        width=460, height=300,
        title=title or alt.Title(f"{event}: the race to the top {top}",
                                 subtitle="rank after each Swiss round; dashed line: the cut"))


# --------------------------------------------------------------------------------------------
# Cut analysis
# --------------------------------------------------------------------------------------------


def chart_omw_ranges(ranges: Frame, current: Frame, *, event_id: str | None = None,
                     players: Sequence[str] | None = None, top: int = 16,
                     title: str | None = None) -> Chart:
    """Each contender's OMW% now and its exact min–max range after the next round.

    For every player (one row each, in current rank order) three horizontal bars span the
    OMW% the player can end the next round with after a win, a draw or a loss (over every
    outcome of every other match); a black diamond marks the OMW% now.

    Parameters
    ----------
    ranges
        :func:`swissframe.cut.next_round_ranges` output (``outcome, omwp_min, omwp_max``).
    current
        :func:`swissframe.standings` of the same rounds (the OMW% and rank now).
    event_id
        The event to draw (needed when the tables hold several).
    players
        The contenders to draw (default: the current top ``top``).
    top
        How many contenders when ``players`` is not given.
    title
        Chart title.

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
    rg = _frame(ranges, what)
    cur = _frame(current, what)
    _positive(top, "top", what)
    _need(rg, ["event_id", "player_id", "outcome", "omwp_min", "omwp_max"], what,
          "swissframe.cut.next_round_ranges(...)")
    _need(cur, ["event_id", "player_id", "rank", "match_points", "omwp"], what,
          "swissframe.standings(...) of the rounds played so far")
    rg, event = _one_event(rg, event_id, what)
    cur = cur.filter(pl.col("event_id") == event)
    if cur.height == 0:
        msg = (f"{what}: event {event!r} is not in the current standings. Hint: pass "
               "standings of the same results.")
        raise DataError(msg)
    cur = cur.sort("rank", "player_id")
    if players is None:
        chosen = cur.head(top)
    else:
        chosen = cur.filter(pl.col("player_id").is_in(list(players)))
        missing = sorted(set(players) - set(chosen["player_id"].to_list()))
        if missing:
            msg = (f"{what}: player(s) {missing[:5]} not in event {event!r}. Hint: check the "
                   "names (player_id).")
            raise DataError(msg)
    chosen = chosen.with_columns(
        label=pl.format("{}. {} ({} pts)", pl.col("rank"), pl.col("player_id"),
                        pl.col("match_points")),
        position=pl.int_range(1, pl.len() + 1, dtype=pl.Int64))
    data = (rg.filter(pl.col("outcome").is_in(list(_OUTCOME_ORDER)))
            .join(chosen.select("player_id", "label", "position", "rank",
                                pl.col("omwp").alias("omwp_now")), on="player_id", how="inner")
            .select("player_id", "label", "position", "rank", "outcome", "omwp_now",
                    "omwp_min", "omwp_max", *(["match_points"] if "match_points" in rg.columns
                                              else []))
            .sort("position", "outcome"))
    now = chosen.select("player_id", "label", "position", pl.col("omwp").alias("omwp_now"))
    alt = _alt()
    order = chosen["label"].to_list()
    y = alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=280))
    outcome_scale = alt.Scale(domain=list(_OUTCOME_ORDER), range=list(_OUTCOME_COLORS))
    bars = alt.Chart(_inline(alt, data)).mark_bar(height={"band": 0.3}, cornerRadius=1).encode(
        x=alt.X("omwp_min:Q", title="OMW% after the next round (diamond: now)",
                axis=alt.Axis(format=".0%"), scale=alt.Scale(zero=False)),
        x2="omwp_max:Q",
        y=y,
        yOffset=alt.YOffset("outcome:N", sort=list(_OUTCOME_ORDER),
                            scale=alt.Scale(domain=list(_OUTCOME_ORDER))),
        color=alt.Color("outcome:N", title="Own result", scale=outcome_scale,
                        sort=list(_OUTCOME_ORDER)),
        tooltip=[alt.Tooltip("player_id:N", title="player"), "outcome:N",
                 *_pct_tooltip(alt, ["omwp_min", "omwp_max", "omwp_now"])])
    diamonds = alt.Chart(_inline(alt, now)).mark_point(shape="diamond", filled=True, size=70,
                                         color="black").encode(
        x="omwp_now:Q", y=y,
        tooltip=[alt.Tooltip("player_id:N", title="player"),
                 alt.Tooltip("omwp_now:Q", title="OMW% now", format=".2%")])
    return alt.layer(bars, diamonds).properties(
        width=420, height=24 * max(chosen.height, 1),
        title=title or alt.Title(f"{event}: OMW% ranges after the next round",
                                 subtitle="bars: every OMW% reachable after a win / draw / "
                                          "loss, over all other results"))


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
                     groups: int | None = None, title: str | None = None) -> Chart:
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
        Chart title.

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
    df = _frame(status, what)
    _positive(top, "top", what)
    _positive(groups, "groups", what)
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
        .then(pl.col("p_sum").sum() / pl.col("p_known").sum()))
    data = (agg.join(totals, on=["points_before", "outcome"], how="left")
            .with_columns(points=pl.format("{} pts", pl.col("points_before")),
                          p_label=pl.when(pl.col("mean_probability").is_not_null())
                          .then(pl.format("{}%", (pl.col("mean_probability") * 100)
                                          .round(0).cast(pl.Int64)))
                          .otherwise(pl.lit("")))
            .drop("p_sum", "p_known")
            .sort(pl.col("points_before"), "outcome", "status",
                  descending=[True, False, False]))
    order = (data.select("points_before", "points").unique()
             .sort("points_before", descending=True)["points"].to_list())
    statuses = list(STATUS_COLORS)
    alt = _alt()
    y = alt.Y("points:N", sort=order, title="Points before the final round")
    bars = alt.Chart().mark_bar().encode(
        x=alt.X("sum(players):Q", title="Players", stack="zero",
                axis=alt.Axis(tickMinStep=1, format="d")),
        y=y,
        color=alt.Color("status:N", title="Cut status", sort=statuses,
                        scale=alt.Scale(domain=statuses,
                                        range=[STATUS_COLORS[s] for s in statuses]),
                        legend=alt.Legend(orient="bottom")),
        order=alt.Order("status_order:Q"),
        tooltip=["points:N", "outcome:N", "status:N", "players:Q",
                 alt.Tooltip("mean_probability:Q", title="P(cut), group", format=".0%")],
    ).transform_calculate(
        status_order="indexof(" + repr(statuses).replace("'", '"') + ", datum.status)")
    labels = alt.Chart().mark_text(align="left", dx=4, color="#333333").encode(
        x="max(group_players):Q", y=y, text="max(p_label):N")
    head = title or alt.Title(
        f"{event}: who makes the top {top}" if top else f"{event}: cut status",
        subtitle="by own final-round result; label: mean probability of making the cut")
    layered = alt.layer(bars, labels, data=_inline(alt, data))
    return layered.properties(width=180, height=alt.Step(22)).facet(
        column=alt.Column("outcome:N", sort=list(_OUTCOME_ORDER), title=None,
                          header=alt.Header(labelFontSize=13, labelFontWeight="bold")),
    ).properties(title=head)


def chart_cut_lines(events: Any, *, field: Frame | None = None, top: int = 8,
                    title: str | None = None) -> Chart:
    """Points needed for the top N against field size across events, intentional draws marked.

    One dot per event at (players, match points of place N); filled when the event's last
    Swiss round had intentional draws. Where the IDs were replayed
    (``cf_cut_points_mean``), a grey tick shows the mean cut line with the IDs played out and
    a thin rule joins it to the real one: the shift the draws caused.

    Parameters
    ----------
    events
        One row per event: :func:`swissframe.cut.id_report` (the report or its ``events``
        table): ``event_id, match_points_n, ids_final`` and optionally ``swiss_rounds``,
        ``cf_cut_points_mean``, ``players``.
    field
        A table with ``event_id, players`` (e.g. the ``events`` table of an importer) when
        ``events`` has no ``players`` column.
    top
        N, for the labels.
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
    """
    what = "chart_cut_lines"
    table = getattr(events, "events", events)
    df = _frame(table, what)
    _positive(top, "top", what)
    if "players" not in df.columns and field is not None:
        fl = _frame(field, what)
        _need(fl, ["event_id", "players"], what, "an events table with a players column")
        df = df.join(fl.select("event_id", "players"), on="event_id", how="left")
    _need(df, ["event_id", "players", "match_points_n", "ids_final"], what,
          "swissframe.cut.id_report(...).events joined with the field size (field=...)")
    cf = "cf_cut_points_mean" in df.columns
    extra = [c for c in ("swiss_rounds", "final_ids_safe_both", "cf_topn_changed_share")
             if c in df.columns]
    data = (df.filter(pl.col("players").is_not_null() & pl.col("match_points_n").is_not_null())
            .select("event_id", pl.col("players").cast(pl.Int64),
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
    alt = _alt()
    id_dom = ["IDs in the last round", "no IDs in the last round"]
    x = alt.X("players:Q", title="Players", scale=alt.Scale(type="log", nice=False))
    tooltip = ["event_id:N", "players:Q",
               alt.Tooltip("match_points_n:Q", title=f"points of place {top}"),
               alt.Tooltip("ids_final:Q", title="IDs in the last round"),
               *[f"{c}:Q" for c in extra],
               alt.Tooltip("cf_points:Q", title="cut line, IDs played out", format=".1f")]
    base = alt.Chart(_inline(alt, data))
    shift = base.mark_rule(color="#999999", strokeWidth=1).encode(
        x=x, y="match_points_n:Q", y2="cf_points:Q").transform_filter(
        "isValid(datum.cf_points)")
    ticks = base.mark_tick(color="#555555", thickness=2, size=12, orient="horizontal").encode(
        x=x, y="cf_points:Q", tooltip=tooltip).transform_filter("isValid(datum.cf_points)")
    dots = base.mark_point(size=70, filled=True, opacity=0.75).encode(
        x=x,
        y=alt.Y("match_points_n:Q", title=f"Match points of place {top}",
                scale=alt.Scale(zero=False)),
        color=alt.Color("ids:N", title=None, scale=alt.Scale(
            domain=id_dom, range=[OKABE_ITO[3], OKABE_ITO[0]]),
            legend=alt.Legend(orient="bottom")),
        shape=alt.Shape("ids:N", scale=alt.Scale(domain=id_dom, range=["circle", "square"]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=tooltip)
    return alt.layer(shift, ticks, dots).properties(
        width=460, height=300,
        title=title or alt.Title(f"The top-{top} cut line across {data.height} events",
                                 subtitle="grey tick: mean cut line with the intentional "
                                          "draws played out"))


# --------------------------------------------------------------------------------------------
# Sensitivity
# --------------------------------------------------------------------------------------------


def chart_sensitivity(sens: Frame, *, baseline: bool = False, only_changed: bool = False,
                      title: str | None = None) -> Chart:
    """Heatmap of events x alternative rulesets: how many players the rules swap in the top N.

    Each cell counts the players who enter the top N under that ruleset (as many leave);
    the label repeats the count, the tooltip lists who enters and leaves, Kendall's tau of
    the whole ranking against the baseline and the criterion that decided the cut.

    Parameters
    ----------
    sens
        :func:`swissframe.sensitivity.sensitivity` output (one row per event and ruleset;
        the first ruleset of each event is the baseline).
    baseline
        Keep the baseline column (always 0).
    only_changed
        Keep only events in which some ruleset changes the top N.
    title
        Chart title.

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
    >>> spec = chart_sensitivity(s).to_dict()
    >>> spec["layer"][0]["encoding"]["color"]["field"]
    'changes'
    """
    what = "chart_sensitivity"
    df = _frame(sens, what)
    _need(df, ["event_id", "ruleset", "entering", "leaving"], what,
          "swissframe.sensitivity.sensitivity(...)")
    if df.height == 0:
        msg = f"{what}: the table is empty. Hint: run sensitivity over at least one event."
        raise DataError(msg)
    rulesets = df["ruleset"].unique(maintain_order=True).to_list()
    base_name = rulesets[0]
    extra = [c for c in ("players", "kendall_tau", "cut_criterion") if c in df.columns]
    data = df.select(
        "event_id", "ruleset", *extra,
        changes=pl.col("entering").list.len().cast(pl.Int64),
        entering_names=pl.col("entering").list.join(", "),
        leaving_names=pl.col("leaving").list.join(", "))
    changed = data.group_by("event_id").agg(_any=(pl.col("changes") > 0).any())
    if only_changed:
        keep = changed.filter(pl.col("_any"))["event_id"]
        data = data.filter(pl.col("event_id").is_in(keep.implode()))
    if not baseline:
        data = data.filter(pl.col("ruleset") != base_name)
        rulesets = rulesets[1:]
    if data.height == 0:
        msg = (f"{what}: nothing to draw (no alternative ruleset"
               f"{' or no event with a change' if only_changed else ''}). Hint: pass several "
               "rulesets to sensitivity(), the first being the baseline.")
        raise DataError(msg)
    if "players" in data.columns:  # largest events first
        ev_order = data.select("event_id", "players").unique().sort(
            ["players", "event_id"], descending=[True, False])
    else:
        ev_order = data.select("event_id").unique().sort("event_id")
    events = ev_order["event_id"].to_list()
    n_events = len(events)
    alt = _alt()
    step = 18 if n_events <= 40 else max(6, int(720 / n_events))
    max_changes = max(int(data["changes"].max() or 0), 1)  # type: ignore[arg-type]
    x = alt.X("ruleset:N", sort=rulesets, title=f"Ruleset (versus {base_name})",
              axis=alt.Axis(labelAngle=-35, labelLimit=200, orient="top"))
    y = alt.Y("event_id:N", sort=events, title=None,
              axis=alt.Axis(labelLimit=260, labels=n_events <= 60))
    tooltip = ["event_id:N", "ruleset:N", alt.Tooltip("changes:Q", title="top-N changes"),
               alt.Tooltip("entering_names:N", title="enter"),
               alt.Tooltip("leaving_names:N", title="leave"),
               *[alt.Tooltip("kendall_tau:Q", format=".3f") for c in extra
                 if c == "kendall_tau"],
               *[f"{c}:{'Q' if c == 'players' else 'N'}" for c in extra
                 if c != "kendall_tau"]]
    base = alt.Chart(_inline(alt, data)).encode(x=x, y=y)
    cells = base.mark_rect(stroke="white", strokeWidth=0.5).encode(
        color=alt.Color("changes:Q", title="Players swapped in the top N",
                        scale=alt.Scale(domain=[0, max_changes], range=["#F2F2F2", "#D55E00"]),
                        legend=alt.Legend(orient="bottom", format="d",
                                          tickCount=min(max_changes, 8))),
        tooltip=tooltip)
    layers = [cells]
    if n_events <= 60:
        layers.append(base.mark_text(fontSize=10).encode(
            text=alt.Text("changes:Q"),
            color=alt.condition(alt.datum.changes >= max(1.0, max_changes * 0.6),
                                alt.value("white"), alt.value("#333333")))
            .transform_filter(alt.datum.changes > 0))
    share = float(changed["_any"].cast(pl.Float64).mean() or 0.0)
    return alt.layer(*layers).properties(
        width=alt.Step(max(36, 10 * max(map(len, rulesets), default=4) // 3)),
        height=alt.Step(step),
        title=title or alt.Title(
            f"Does the top N depend on the rules? {n_events} events",
            subtitle=f"cells: players entering the top N versus {base_name}; "
                     f"{share:.0%} of events change under some ruleset"))
