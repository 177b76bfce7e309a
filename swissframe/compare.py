"""Why did one player finish ahead of another? The criterion that separated them, with numbers.

:func:`compare` reads one event's standings and walks the ruleset's criteria in their ranking
order (``sf.rules.get(name).criteria``; match points first when the ruleset puts them first).
The deciding criterion is the first one on which the two players differ **as exact values**:
ties come from the standings' own ranks (which compare exact rationals), and each prefix of
the criteria is re-ranked by the engine, so a float that differs only in its last bit never
decides anything. The values shown are the standings' own columns.

The event report (:mod:`swissframe.report`) writes its cut sentence ("8th beat 9th on OMW%:
66.33% vs 65.71%") with this function.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from types import MappingProxyType
from typing import Final

import polars as pl

import swissframe as sf
from swissframe._collect import scoped
from swissframe._display import number_text
from swissframe.engine.standings import check_through_round, past_last_round
from swissframe.engine.tiebreakers import drawn_by_lot
from swissframe.errors import DataError, check_id, did_you_mean
from swissframe.rules import LABELS, Criterion, Ruleset, get, label_of
from swissframe.schema import DISQUALIFIED, read_once, validated_once

__all__ = ["COLUMN_HEADINGS", "CRITERION_LABELS", "PERCENT_CRITERIA", "Comparison",
           "column_heading", "compare", "criterion_label", "criterion_unit", "format_value",
           "knows_intentional_draws", "ordinal", "with_unit"]

Frame = pl.DataFrame | pl.LazyFrame

#: How each criterion column is called in prose and tables.
CRITERION_LABELS: Final[Mapping[str, str]] = MappingProxyType({
    "match_points": "match points", "match_wins": "match wins", "mwp": "MW%",
    "omwp": "OMW%", "gwp": "GW%", "ogwp": "OGW%", "oomwp": "OOMW%",
    "head_to_head": "head-to-head", "random": "random draw", "late": "tardiness",
    "last_opponent_rank": "last opponent's standing", "ctb": "CTB", "pml": "PML",
    "omlp": "OML%", "octb": "OCTB", "game_wins": "game wins", "omp": "OMP%",
    "bh_c1": "Buchholz cut-1", "bh": "Buchholz", "bh_m1": "median Buchholz",
    "sb": "Sonneborn-Berger", "direct_encounter": "direct encounter", "win": "wins",
    "won": "games won", "ps": "progressive score", "ygo_tiebreaker": "tiebreaker number",
    "lost_round_squares": "lost-round squares",
})

#: Criteria whose values are fractions in [0, 1], shown as percentages.
PERCENT_CRITERIA: Final = frozenset({"mwp", "omwp", "gwp", "ogwp", "oomwp", "omlp", "omp"})


def criterion_label(name: str, rules: Ruleset | None = None, *, unit: bool = False) -> str:
    """The human name of a criterion column (the column name itself when unknown); with
    ``rules``, in that game's words: a chess score (win 1, draw ½) is "points", not
    "match points"; with ``unit`` too, the name a value is read under, followed by what
    the number counts where the name does not say it (:func:`criterion_unit`).

    >>> criterion_label("omwp"), criterion_label("my_tb")
    ('OMW%', 'my_tb')
    >>> criterion_label("match_points", get("mtg")), criterion_label("match_points", get("fide"))
    ('match points', 'points')
    >>> criterion_label("direct_encounter", get("fide"), unit=True)
    'direct encounter (tied players ranked below)'
    """
    label = ("points" if name == "match_points" and _draw_is_half(rules)
             else CRITERION_LABELS.get(name, name))
    return with_unit(label, criterion_unit(name, rules)) if unit else label


def with_unit(label: str, unit: str | None) -> str:
    """A label as a value is read under it: followed by what the number counts, where
    something does (``unit``; "" or None: the label alone).

    >>> with_unit("direct encounter", "tied players ranked below"), with_unit("OMW%", "")
    ('direct encounter (tied players ranked below)', 'OMW%')
    """
    return f"{label} ({unit})" if unit else label


def criterion_unit(name: str, rules: Ruleset | None = None) -> str:
    """What the number of the criterion or extra column ``name`` of ``rules`` counts where
    its name does not say it, "" where it does or without ``rules``
    (:attr:`~swissframe.rules.Criterion.unit`: decided by the criterion's function and
    parameters, so a ruleset's own reading of a criterion says its own unit).

    >>> criterion_unit("direct_encounter", get("fide")), criterion_unit("omwp", get("mtg"))
    ('tied players ranked below', '')
    """
    crit = _criterion(name, rules)
    return crit.unit if crit is not None else ""


def _criterion(name: str, rules: Ruleset | None) -> Criterion | None:
    """The criterion or extra column ``name`` of ``rules`` (None: not there, or no rules)."""
    if rules is None:
        return None
    return next((c for c in (*rules.criteria, *rules.columns) if c.name == name), None)


def _draw_is_half(rules: Ruleset | None) -> bool:
    """A chess score: a win 1, a draw ½ (a score is "points"; a draw, a result)."""
    return rules is not None and rules.points_win == 1 and rules.points_draw == Fraction(1, 2)


#: Headings of the columns a text table shows that are not criteria (the standings'
#: record, the analyses' keys); a criterion is headed by its label (:func:`column_heading`).
COLUMN_HEADINGS: Final[Mapping[str, str]] = MappingProxyType({
    "player_id": "player", "name": "player", "event_id": "event",
    "rounds_played": "rounds played", "kendall_tau": "Kendall τ",
    "cut_criterion": "decided by", "match_points_n": "points of place N",
})


def column_heading(name: str, rules: Ruleset | None = None) -> str:
    """A data column's heading in a text table, the one mapping every table of the
    command line reads (the column itself keeps its name in CSV, JSON and Parquet): a
    criterion by its short label, as ``explain`` writes it (``OMW%``, ``BH-C1``, ``DE``;
    a word in lower case, ``head-to-head``), the points in the game's word (chess:
    "points"; :func:`criterion_label`), a known column by :data:`COLUMN_HEADINGS`, any
    other by its name. A number whose name does not say what it counts
    (:func:`criterion_unit`) is headed by the short label a legend under the table
    explains (chess' direct encounter: "DE: direct encounter (tied players ranked below)").

    >>> column_heading("match_points", get("mtg")), column_heading("match_points", get("fide"))
    ('match points', 'points')
    >>> [column_heading(c, get("fide")) for c in ("bh_c1", "direct_encounter", "win")]
    ['BH-C1', 'DE', 'WIN']
    >>> column_heading("omwp"), column_heading("head_to_head"), column_heading("my_tb")
    ('OMW%', 'head-to-head', 'my_tb')
    >>> column_heading("rounds_played"), column_heading("kendall_tau")
    ('rounds played', 'Kendall τ')
    >>> import dataclasses
    >>> mine = dataclasses.replace(get("fide"), name="mine",
    ...     criteria=(Criterion("sb_x", "sb", label="Sonneborn-Berger"),))
    >>> column_heading("sb_x", mine)
    'Sonneborn-Berger'
    """
    if name == "match_points":
        return criterion_label(name, rules)
    crit = _criterion(name, rules)
    label = crit.label if crit is not None else label_of(name)
    if label == name:
        return COLUMN_HEADINGS.get(name, name)
    # (the registry's capitalised words in lower case, "head-to-head"; a label a ruleset's
    # author wrote, "Sonneborn-Berger", as written)
    if label[1:2].islower() and label in LABELS.values():
        return label[:1].lower() + label[1:]
    return label


def knows_intentional_draws(rules: Ruleset | None = None) -> bool:
    """Whether the game speaks of intentional draws (IDs): card games do; where a draw is
    half a win (chess) a draw is an ordinary result, and nothing in the results tells an
    agreed one from a played one.

    >>> knows_intentional_draws(get("mtg")), knows_intentional_draws(get("fide"))
    (True, False)
    """
    return not _draw_is_half(rules)


def ordinal(n: int) -> str:
    """``1`` → ``'1st'``, ``12`` → ``'12th'``, ``23`` → ``'23rd'``.

    >>> [ordinal(i) for i in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def format_value(name: str, value: object, decimals: int = 2) -> str:
    """A criterion value as a person reads it: percentages with ``decimals``, whole numbers
    without a decimal point, other numbers with up to ``decimals`` places.

    >>> format_value("omwp", 0.66333), format_value("match_points", 36), format_value("bh", 8.5)
    ('66.33%', '36', '8.5')
    """
    return number_text(value, percent=name in PERCENT_CRITERIA, decimals=decimals, null="–")


def difference_text(name: str, diff: float | None) -> str:
    """A signed difference between two players' values of a criterion: percentage points
    (``pp``, not "pts", which reads as match points) for a percentage, else the number
    with up to 4 decimals; "" for none, "level" for equal values.

    >>> difference_text("omwp", -0.335), difference_text("bh", 1.5), difference_text("gwp", 0.0)
    ('-33.50 pp', '+1.5', 'level')
    """
    if diff is None:
        return ""
    if abs(diff) < 1e-12:
        return "level"
    if name in PERCENT_CRITERIA:
        return f"{100 * diff:+.2f} pp"
    return f"{diff:+.4f}".rstrip("0").rstrip(".")


def _distinct(name: str, a: object, b: object) -> tuple[str, str]:
    """The two values with enough decimals that they read differently (up to 8)."""
    for d in range(2, 9):
        fa, fb = format_value(name, a, d), format_value(name, b, d)
        if fa != fb:
            return fa, fb
    return format_value(name, a, 8), format_value(name, b, 8)


def _order(rules: Ruleset) -> list[tuple[Criterion, tuple[Criterion, ...]]]:
    """Each ranking criterion with the criteria tuple that ranks up to and including it."""
    crit = list(rules.criteria)
    names = [c.name for c in crit]
    out: list[tuple[Criterion, tuple[Criterion, ...]]] = []
    if rules.points_first and "match_points" not in names:
        out.append((Criterion("match_points"), ()))
    out.extend((c, tuple(crit[:i + 1])) for i, c in enumerate(crit))
    return out


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found.

    Attributes
    ----------
    event_id, ruleset
        The event and the ruleset's name.
    player_a, player_b
        The players, in the order given.
    rank_a, rank_b
        Their ranks (equal when exactly tied on every criterion).
    ahead
        The player ranked ahead (``None`` when tied).
    criterion
        The first criterion, in the ruleset's order, on which they differ (``None`` when
        tied); ``label`` is its human name, ``unit`` what its number counts where the
        name does not say it ("" where it does; :func:`criterion_unit`).
    value_a, value_b
        Both players' values of that criterion (``None`` when tied).
    margin
        The ahead player's advantage on it, positive (lower-is-better criteria are
        oriented so that positive still means ahead); in percentage points × 1/100 for
        percentages, i.e. the raw difference of the fractions. ``None`` when tied, and when
        the order was drawn by lot (the ``lot`` row's values are a seeded stand-in, whose
        difference is no advantage).
    table
        Every criterion in ranking order: ``criterion, label, unit`` (what the number
        counts where the label does not say it, else ""), ``value_a, value_b,
        difference`` (a − b), ``decided`` (True on the deciding row) and ``lot`` (True for
        an order drawn by lot, whose values are a seeded stand-in: only their order
        counts; ``tiebreakers.drawn_by_lot``).
    """

    event_id: str
    ruleset: str
    player_a: str
    player_b: str
    rank_a: int
    rank_b: int
    ahead: str | None
    criterion: str | None
    label: str | None
    value_a: float | None
    value_b: float | None
    margin: float | None
    table: pl.DataFrame
    descending: bool = True
    unit: str = ""

    @property
    def tied(self) -> bool:
        """True when the players are equal on every criterion (they share a rank)."""
        return self.ahead is None

    @property
    def sentence(self) -> str:
        """One sentence with the numbers, e.g. ``"Slax (8th) beat Evariel (9th) on OMW%: …"``."""
        return self.describe()

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        """:attr:`sentence`, with players shown by ``names`` (player id → display name)."""
        show = names or {}
        a, b = show.get(self.player_a, self.player_a), show.get(self.player_b, self.player_b)
        if self.tied:
            shown = ", ".join(f"{with_unit(r['label'], r['unit'])} "
                              f"{format_value(r['criterion'], r['value_a'])}"
                              for r in self.table.iter_rows(named=True))
            return (f"{a} and {b} are tied on every criterion of {self.ruleset} ({shown}): "
                    f"they share {ordinal(self.rank_a)} place.")
        assert self.criterion is not None
        first_is_a = self.ahead == self.player_a
        win, lose = (a, b) if first_is_a else (b, a)
        rw, rl = (self.rank_a, self.rank_b) if first_is_a else (self.rank_b, self.rank_a)
        vw, vl = (self.value_a, self.value_b) if first_is_a else (self.value_b, self.value_a)
        at = int(self.table["decided"].arg_max() or 0)
        # an order drawn by lot: its seeded stand-in's digits mean nothing, only its order
        values = ("the order drawn by lot" if self.table["lot"][at]
                  else " vs ".join(_distinct(self.criterion, vw, vl)))
        lower = "" if self.descending else " (lower is better)"
        level = self.table.head(at)
        same = ", ".join(f"{r['label']} ({r['unit'] + ': ' if r['unit'] else ''}"
                         f"{format_value(r['criterion'], r['value_a'])})"
                         for r in level.iter_rows(named=True))
        after = f", level on {same}" if same else ""
        # (a count is named with its unit: "direct encounter (tied players ranked below):
        # 1 vs 0" — not a score of 1 to 0)
        return (f"{win} ({ordinal(rw)}) beat {lose} ({ordinal(rl)}) on "
                f"{with_unit(self.label or '', self.unit)}{lower}: {values}{after}.")

    def __str__(self) -> str:
        return self.sentence

    def _repr_html_(self) -> str:
        bold = ' style="font-weight:bold"'
        rows = "".join(
            f"<tr{bold if r['decided'] else ''}><td>"
            f"{escape(with_unit(r['label'], r['unit']))}</td>"
            f"<td>{format_value(r['criterion'], r['value_a'], 4)}</td>"
            f"<td>{format_value(r['criterion'], r['value_b'], 4)}</td></tr>"
            for r in self.table.iter_rows(named=True))
        return (f"<p>{escape(self.sentence)}</p><table><tr><th></th><th>{escape(self.player_a)}"
                f"</th><th>{escape(self.player_b)}</th></tr>{rows}</table>")


def _event(results: Frame, event_id: str | None) -> tuple[pl.DataFrame, str]:
    # (read at the boundary, as the contract's types: its event ids were read before any
    # check, and a list or object column ended in Polars' bare cast error)
    df = read_once(results)
    events = df["event_id"].unique(maintain_order=True).cast(pl.String).to_list()
    if event_id is None:
        if len(events) != 1:
            # (a null event id is shown as such; validation names its rows)
            shown = ", ".join(map(str, events[:5])) + (" …" if len(events) > 5 else "")
            msg = (f"compare needs one event, the results hold {len(events)} ({shown}). "
                   "Hint: pass event_id=….")
            raise DataError(msg)
        return df, events[0]
    if event_id not in events:
        msg = (f"event {event_id!r} is not in the results. Hint: "
               + did_you_mean(event_id, events, "events present: "
                              f"{sorted(e for e in events if e is not None)[:10]}."))
        raise DataError(msg)
    return df.filter(pl.col("event_id") == event_id), event_id


def _row(table: pl.DataFrame, player: str, event: str) -> dict[str, object]:
    hit = table.filter(pl.col("player_id") == player)
    if hit.height == 0:
        known = table["player_id"].cast(pl.String).to_list()
        msg = (f"player {player!r} is not in the standings of {event!r}. Hint: "
               + did_you_mean(player, known, "check the player_id spelling."))
        raise DataError(msg)
    return hit.row(0, named=True)


def _not_disqualified(ra: Mapping[str, object], rb: Mapping[str, object], event: str) -> None:
    """A :class:`DataError` when either player was disqualified: removed from the
    standings (MTG IPG §1.1, Pokémon TRH §5.7.3), so no criterion places them."""
    gone = [r["player_id"] for r in (ra, rb) if r.get(DISQUALIFIED)]
    if not gone:
        return
    who = " and ".join(repr(p) for p in gone)
    was = "were" if len(gone) > 1 else "was"
    msg = (f"{who} {was} disqualified in event {event!r}: removed from the standings (no "
           "rank; everyone below moved up one place), so no criterion places them against "
           "the other player. Their results still count for their opponents. Hint: "
           "explain shows their values; compare two ranked players.")
    raise DataError(msg)


def _rank_of(results: pl.DataFrame, rules: Ruleset, prefix: tuple[Criterion, ...],
             a: str, b: str) -> tuple[int, int]:
    rs = dataclasses.replace(rules, name=f"{rules.name}[:{len(prefix)}]", criteria=prefix)
    st = sf.standings(results, rs).filter(pl.col("player_id").is_in([a, b]))
    ranks = dict(zip(st["player_id"].to_list(), st["rank"].to_list(), strict=True))
    return int(ranks[a]), int(ranks[b])


@scoped
def compare(results: Frame, a: str, b: str, *, rules: str | Ruleset = "mtg",
            event_id: str | None = None, through_round: int | None = None) -> Comparison:
    """Which criterion separated player ``a`` from player ``b``, and by how much.

    Parameters
    ----------
    results
        Long results table (one event, or pass ``event_id``).
    a, b
        Two player ids of that event.
    rules
        Ruleset (name or object); its criteria are read in their ranking order.
    event_id
        The event, when ``results`` holds several.
    through_round
        Compare the standings as they stood after this round.

    Returns
    -------
    Comparison
        The deciding criterion, both values, the margin, the whole criterion-by-criterion
        table and a ``.sentence`` (also ``str(result)``).

    Raises
    ------
    DataError
        Unknown event or player (with a "did you mean"), or ``a == b``.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> c = sf.compare(sf.from_matches(m), "D", "C")
    >>> c.criterion, c.ahead
    ('omwp', 'C')
    >>> print(c)
    C (2nd) beat D (3rd) on OMW%: 75.00% vs 41.50%, level on match points (3).
    """
    for pid in (a, b):
        check_id("a player id", pid, hint="e.g. compare(df, 'A', 'B')")
    if a == b:
        msg = f"compare needs two different players, got {a!r} twice. Hint: pass two ids."
        raise DataError(msg)
    if through_round is not None:
        check_through_round(through_round)
    rs = get(rules)
    df, event = _event(results, event_id)
    if through_round is not None:
        past_last_round(df, through_round)  # (the one check, as standings makes it)
        df = df.filter(pl.col("round") <= through_round)
    # checked once for the ruleset's standings and those of its prefixes
    with validated_once(df) as df:
        table = sf.standings(df, rs)
        ra, rb = _row(table, a, event), _row(table, b, event)
        _not_disqualified(ra, rb, event)
        order = _order(rs)
        rows = [(c.name, criterion_label(c.name, rs), ra.get(c.name), rb.get(c.name),
                 drawn_by_lot(c.function), c.unit) for c, _ in order]
        decided: int | None = None
        rank_a, rank_b = int(ra["rank"]), int(rb["rank"])  # type: ignore[call-overload]
        if rank_a != rank_b:
            for i, (_crit, prefix) in enumerate(order):
                if not prefix:  # match points ranked first outside the criteria: exact values
                    differs = ra["match_points"] != rb["match_points"]
                elif i == len(order) - 1:
                    differs = True  # the full order separates them, so the last key does
                else:
                    pa, pb = _rank_of(df, rs, prefix, a, b)
                    differs = pa != pb
                if differs:
                    decided = i
                    break
            if decided is None:  # pragma: no cover - the full ranking separated them
                decided = len(order) - 1
    frame = pl.DataFrame(
        {"criterion": [r[0] for r in rows], "label": [r[1] for r in rows],
         "unit": [r[5] for r in rows],
         "value_a": [None if r[2] is None else float(r[2]) for r in rows],  # type: ignore[arg-type]
         "value_b": [None if r[3] is None else float(r[3]) for r in rows],  # type: ignore[arg-type]
         "decided": [i == decided for i in range(len(rows))],
         "lot": [r[4] for r in rows]},
        schema={"criterion": pl.String, "label": pl.String, "unit": pl.String,
                "value_a": pl.Float64, "value_b": pl.Float64, "decided": pl.Boolean,
                "lot": pl.Boolean})
    frame = frame.with_columns(difference=pl.col("value_a") - pl.col("value_b")).select(
        "criterion", "label", "unit", "value_a", "value_b", "difference", "decided", "lot")
    if decided is None:
        return Comparison(event, rs.name, a, b, rank_a, rank_b, None, None, None, None, None,
                          None, frame)
    crit = order[decided][0]
    va, vb = frame["value_a"][decided], frame["value_b"][decided]
    ahead = a if rank_a < rank_b else b
    margin = None
    if va is not None and vb is not None and not frame["lot"][decided]:
        diff = (va - vb) if ahead == a else (vb - va)
        margin = diff if crit.descending else -diff
    return Comparison(event, rs.name, a, b, rank_a, rank_b, ahead, crit.name,
                      criterion_label(crit.name, rs), va, vb, margin, frame,
                      descending=crit.descending, unit=crit.unit)
