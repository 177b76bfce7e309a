"""Which ruleset the data calls for, when the user names none (``rules="auto"``).

The one table of the inference (documented with its sources in ``docs/inference.md``):

============ ================================================= ==============================
source       ruleset                                           why
============ ================================================= ==============================
TRF          ``fide-2009`` before 1 Jul 2023 (042 start date), FIDE C.07 in force at the
             ``fide`` to 28 Feb 2026, ``fide-2026`` from       event's start (2023 text applied
             1 Mar 2026 or with no date                        1 Jul 2023; revision 1 Mar 2026)
TOM          ``pokemon``                                       TOM runs Play! Pokémon events
                                                               (TRH 2026), ranked per division
decklist     the platform's preset                             :func:`swissframe.platforms.
             (:func:`~swissframe.platforms.assign_rulesets`)   assign_rulesets`: what melee.gg,
                                                               Topdeck, … publish
table        ``mtg``                                           a plain table names no game;
                                                               MTR Appendix C, as before
============ ================================================= ==============================

``rules="auto"`` on a DataFrame (:func:`resolve`) reads the ``ruleset`` column that
:func:`swissframe.read` writes; a table without one is ranked by ``mtg``, exactly as when
``rules`` was left at its old default.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any, Final

import polars as pl

from swissframe._collect import collect

__all__ = ["AUTO", "DEFAULT", "FIDE_ERAS", "RULESET_COLUMN", "auto_rules", "by_ruleset", "describe",
           "infer_rulesets", "is_auto", "run_auto", "table_rulesets"]

#: The value of ``rules=`` / ``--rules`` that asks for the inference.
AUTO: Final = "auto"
#: The ruleset of a table that carries no ``ruleset`` column.
DEFAULT: Final = "mtg"
#: The column of a results table naming each event's inferred ruleset.
RULESET_COLUMN: Final = "ruleset"
#: FIDE C.07 eras: (first start date, preset). The 2023 text applied from 1 Jul 2023 (the
#: 2009 virtual-opponent rule before it); the revision with the capped dummy from 1 Mar 2026.
FIDE_ERAS: Final[tuple[tuple[date, str], ...]] = (
    (date(1900, 1, 1), "fide-2009"),
    (date(2023, 7, 1), "fide"),
    (date(2026, 3, 1), "fide-2026"),
)
#: The FIDE preset of a TRF without a (readable) start date: the rules in force today.
FIDE_UNDATED: Final = "fide-2026"
_BY_KIND: Final = {"table": (DEFAULT, "a results table names no game: MTG, MTR Appendix C"),
                   "tom": ("pokemon", "a TOM file: Play! Pokémon, TRH 2026, per division")}


def fide_era(start: date | None) -> str:
    """The FIDE preset in force on ``start`` (:data:`FIDE_UNDATED` without a date), as
    :func:`infer_rulesets` reads :data:`FIDE_ERAS` for an event.

    >>> fide_era(date(2023, 6, 30)), fide_era(date(2023, 7, 1)), fide_era(None)
    ('fide-2009', 'fide', 'fide-2026')
    """
    # (the eras read once: by _fide, the expression infer_rulesets applies to every event)
    era = pl.select(_fide(pl.lit(start, dtype=pl.Date))).item()
    assert isinstance(era, str)
    return era


def is_auto(rules: object) -> bool:
    """Whether ``rules`` asks for the inference (``"auto"``, any case)."""
    return isinstance(rules, str) and rules.strip().lower() == AUTO


def _fide(start: pl.Expr) -> pl.Expr:
    out: pl.Expr = pl.lit(FIDE_UNDATED)
    for first, name in FIDE_ERAS:
        out = pl.when(start >= pl.lit(first)).then(pl.lit(name)).otherwise(out) \
            if first != FIDE_ERAS[0][0] else pl.lit(name)
    return pl.when(start.is_null()).then(pl.lit(FIDE_UNDATED)).otherwise(out)


def infer_rulesets(events: pl.DataFrame) -> pl.DataFrame:
    """The ruleset each event calls for: ``event_id, ruleset, ruleset_reason``.

    ``events`` has ``event_id, source_kind`` (``table``, ``decklist``, ``tom``, ``trf``),
    ``start_date``, and for decklist events ``platform`` and ``decimals``.

    Examples
    --------
    >>> import datetime as dt
    >>> ev = pl.DataFrame({"event_id": ["a", "b", "c", "d", "e"],
    ...     "source_kind": ["trf", "trf", "tom", "table", "decklist"],
    ...     "platform": [None, None, None, None, "topdeck"],
    ...     "start_date": [dt.date(2024, 5, 1), dt.date(2026, 3, 5), None, None,
    ...                    dt.date(2024, 5, 1)], "decimals": [None] * 5})
    >>> infer_rulesets(ev)["ruleset"].to_list()
    ['fide', 'fide-2026', 'pokemon', 'mtg', 'topdeck']
    """
    from swissframe.rules.platforms import assign_rulesets

    kind = pl.col("source_kind")
    start = pl.col("start_date")
    out = events.select("event_id", "source_kind", "start_date").with_columns(
        pl.when(kind == "trf").then(_fide(start))
        .otherwise(kind.replace_strict({k: v[0] for k, v in _BY_KIND.items()}, default=None))
        .alias("ruleset"),
        pl.when(kind == "trf").then(pl.format(
            "a TRF file: FIDE C.07 in force on the start date ({})",
            start.cast(pl.String).fill_null("none: today's rules")))
        .otherwise(kind.replace_strict({k: v[1] for k, v in _BY_KIND.items()}, default=None))
        .alias("ruleset_reason"))
    deck = events.filter(kind == "decklist")
    if deck.height:
        plat = assign_rulesets(deck.select("event_id", pl.col("platform").alias("source"),
                                           pl.col("start_date").alias("date"), "decimals"))
        plat = plat.select("event_id", pl.col("ruleset").alias("_p"), pl.when(
            pl.col("source") == "unknown").then(pl.lit(
                "a decklist-cache file of no known platform: MTG's tiebreakers, floor 1/3"))
            .when(pl.col("source") == "mtgo").then(pl.lit(MTGO_REASON))
            .otherwise(pl.format(
                "a {} decklist-cache file: the platform's own tiebreakers{}", "source",
                pl.when(pl.col("era").is_not_null()).then(pl.format(" (era {})", "era"))
                .otherwise(pl.lit("")))).alias("_r"))
        out = out.join(plat, on="event_id", how="left").with_columns(
            pl.coalesce("_p", "ruleset").alias("ruleset"),
            pl.coalesce("_r", "ruleset_reason").alias("ruleset_reason")).drop("_p", "_r")
    return out.select("event_id", "ruleset", "ruleset_reason")


#: Why an MTGO decklist-cache file is ranked by ``mtg-1/3``: no public statement of Magic
#: Online's floor or rounding was found (``docs/inference.md``), so it gets the preset of a
#: platform not known, its platform named.
MTGO_REASON: Final = ("an MTGO decklist-cache file: MTG's tiebreakers, floor 1/3, as Magic "
                      "Online publishes no floor or rounding of its own")


def check_ruleset_column(schema: pl.Schema, *, where: str = "") -> None:
    """A :class:`~swissframe.errors.SchemaError` when a table's ``ruleset`` column has no
    text form (a list, a struct, an object: :func:`~swissframe.schema.has_text_form`):
    each reading of the column (:func:`by_ruleset`, :func:`auto_rules`,
    :func:`table_rulesets`, a results file's names) cast it to text, and such a cast was
    Polars' bare error ("cannot cast List type", "casting from Object to String not
    supported"). ``where``: the file, for a message that names it."""
    from swissframe.errors import SchemaError
    from swissframe.schema import has_text_form

    dtype = schema.get(RULESET_COLUMN)
    if dtype is not None and not has_text_form(dtype):
        msg = (f"{where}the {RULESET_COLUMN} column is {dtype}; it names each row's ruleset "
               "as text (mtg, pokemon, fide …). Hint: cast it to text, or drop it and pass "
               "rules= (--rules).")
        raise SchemaError(msg)


def table_rulesets(results: pl.DataFrame) -> pl.DataFrame:
    """The ruleset ``rules="auto"`` gives each event of a results table:
    ``event_id, ruleset, ruleset_reason`` — its ``ruleset`` column (what
    :func:`swissframe.read` writes, as :func:`by_ruleset` reads it), else :data:`DEFAULT`.

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["a", "a", "b"], "ruleset": ["fide", "fide", None]})
    >>> table_rulesets(df).rows()[0]
    ('a', 'fide', "the results' ruleset column")
    >>> table_rulesets(df.drop("ruleset"))["ruleset"].to_list()
    ['mtg', 'mtg']
    """
    check_ruleset_column(results.schema)
    named = pl.col(RULESET_COLUMN) if RULESET_COLUMN in results.columns else pl.lit(None)
    return (results.select("event_id", named.cast(pl.String).alias(RULESET_COLUMN))
            .unique("event_id", keep="first", maintain_order=True)
            .select("event_id", pl.col(RULESET_COLUMN).fill_null(DEFAULT),
                    pl.when(pl.col(RULESET_COLUMN).is_null()).then(pl.lit(_BY_KIND["table"][1]))
                    .otherwise(pl.lit("the results' ruleset column")).alias("ruleset_reason")))


def by_ruleset(results: pl.DataFrame | pl.LazyFrame
               ) -> list[tuple[str, pl.DataFrame | pl.LazyFrame]]:
    """The rows of each inferred ruleset (``rules="auto"``), in name order.

    A table without a ``ruleset`` column is one group under :data:`DEFAULT` (``mtg``).

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["a", "b"], "ruleset": ["pokemon", "fide"]})
    >>> [(name, part["event_id"].to_list()) for name, part in by_ruleset(df)]
    [('fide', ['b']), ('pokemon', ['a'])]
    >>> [name for name, _ in by_ruleset(pl.DataFrame({"event_id": ["a"]}))]
    ['mtg']
    """
    from swissframe.schema import as_frame  # (schema reads the presets: import when used)

    # (a LazyFrame is read once, here: its plan would otherwise run once per part, and a
    # plan that fails is named as every entry point names it)
    results = as_frame(results)
    if RULESET_COLUMN not in results.columns:
        return [(DEFAULT, results)]
    check_ruleset_column(results.schema)
    names = (results.lazy().select(pl.col(RULESET_COLUMN).fill_null(DEFAULT).unique().sort())
             .pipe(collect)[RULESET_COLUMN].to_list())
    if len(names) <= 1:
        return [(names[0] if names else DEFAULT, results)]
    return [(n, results.filter(pl.col(RULESET_COLUMN).fill_null(DEFAULT) == n))
            for n in names]


def auto_rules(frame: pl.DataFrame | pl.LazyFrame) -> tuple[str, list[str]]:
    """The ruleset ``rules="auto"`` checks a table against, and the rulesets its events
    call for: its ``ruleset`` column (what :func:`swissframe.read` writes) when that names
    one ruleset, else :data:`DEFAULT` (``mtg``).

    What files were read is given as their events (:attr:`swissframe.io.Source.events`,
    one row per event with its ``ruleset``), not as their rows: an event with no round
    played has no row, and its rows' column named no ruleset (``validate`` of a TRF
    saved before round 1 checked against ``mtg`` where ``standings`` ranked by FIDE's
    rules: bad data 142).

    >>> auto_rules(pl.DataFrame({"event_id": ["a", "b"], "ruleset": ["fide", "fide"]}))
    ('fide', ['fide'])
    >>> auto_rules(pl.DataFrame({"event_id": ["a"]}))
    ('mtg', [])
    """
    lf = frame.lazy()
    schema = lf.collect_schema()
    if RULESET_COLUMN not in schema.names():
        return DEFAULT, []
    check_ruleset_column(schema)
    # (the distinct names, not every row's: 37.5M rows as a Python list took 2.2 s)
    named = (lf.select(pl.col(RULESET_COLUMN).cast(pl.String, strict=False).drop_nulls()
                       .unique().sort()).pipe(collect).to_series().to_list())
    return (str(named[0]) if len(named) == 1 else DEFAULT), [str(n) for n in named]


def run_auto(fn: Callable[..., pl.DataFrame], results: pl.DataFrame | pl.LazyFrame,
             **kwargs: Any) -> pl.DataFrame:
    """``fn(rows, ruleset, **kwargs)`` per inferred ruleset, stacked (``rules="auto"``).

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["a", "b"], "ruleset": ["pokemon", "fide"]})
    >>> run_auto(lambda rows, rules: rows.lazy().pipe(collect).with_columns(used=pl.lit(rules)),
    ...          df)["used"].to_list()
    ['fide', 'pokemon']
    """
    parts = [fn(rows, name, **kwargs) for name, rows in by_ruleset(results)]
    return parts[0] if len(parts) == 1 else pl.concat(parts, how="diagonal_relaxed")


def describe(events: pl.DataFrame, chosen: str | None = None, *, one: bool = False) -> str:
    """The one line a command prints about the ruleset it used.

    ``one``: the command uses one ruleset for every event (``validate``'s checks:
    :func:`auto_rules`), so events that call for several are checked against
    :data:`DEFAULT`, which the line says.

    Examples
    --------
    >>> ev = pl.DataFrame({"event_id": ["a"], "ruleset": ["pokemon"],
    ...     "ruleset_reason": ["a TOM file: Play! Pokémon, TRH 2026, per division"]})
    >>> describe(ev)
    'rules: pokemon (a TOM file: Play! Pokémon, TRH 2026, per division; --rules to override)'
    >>> describe(ev, "mtg")
    'rules: mtg (from --rules)'
    >>> describe(pl.concat([ev, ev.with_columns(ruleset=pl.lit("fide"))]), one=True)
    'rules: mtg (the files call for fide, pokemon; --rules to choose)'
    """
    if chosen is not None:  # (as the ruleset is named: --rules Pokémon is pokemon)
        from swissframe.rules._ruleset import known_name

        return f"rules: {known_name(chosen) or chosen} (from --rules)"
    if events.height == 0:
        return f"rules: {DEFAULT}"
    groups = (events.group_by("ruleset").agg(pl.len().alias("n"),
                                             pl.col("ruleset_reason").first())
              .sort("n", "ruleset", descending=[True, False]))
    if groups.height == 1:
        r = groups.row(0, named=True)
        return f"rules: {r['ruleset']} ({r['ruleset_reason']}; --rules to override)"
    if one:
        return (f"rules: {DEFAULT} (the files call for "
                f"{', '.join(sorted(groups['ruleset'].to_list()))}; --rules to choose)")
    parts: Sequence[str] = [f"{r['ruleset']} ({r['n']} event{'s' * (r['n'] > 1)})"
                            for r in groups.iter_rows(named=True)]
    return f"rules: {', '.join(parts)}, inferred per event from the files; --rules to override"
