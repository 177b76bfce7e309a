"""Read results tables from CSV or Parquet, in long or one-row-per-match form."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import polars as pl

from swissframe.errors import ImportFormatError, ValidationError
from swissframe.io import _files
from swissframe.schema import MATCH_COLUMNS, MatchColumns, check_match_columns, validate_results

__all__ = ["expand_paths", "read_results"]

PathLike = str | os.PathLike[str]


def expand_paths(paths: PathLike | Iterable[PathLike], suffixes: tuple[str, ...]) -> list[Path]:
    """Files named by paths, folders (searched recursively for ``suffixes``) and globs.

    Kept for existing callers; :func:`swissframe.io._files.expand` is the one expansion
    (it judges files by their content).

    Raises :class:`~swissframe.errors.ImportFormatError` when a path matches nothing.
    """
    items = _files.path_items(paths)
    out: list[Path] = []
    for item in items:
        p = Path(item)
        found, _ = _files.expand(item, format="table")
        kept = [f for f, _ in found if not p.is_dir()
                or any(f.name.lower().endswith(s) for s in suffixes)]
        if not kept:
            msg = (f"no {'/'.join(suffixes)} file in folder {_files.shown(item)!r}. Hint: "
                   f"folders are searched (recursively) for {', '.join(suffixes)} files.")
            raise ImportFormatError(msg)
        out.extend(kept)
    return list(dict.fromkeys(out))


def read_results(paths: PathLike | Iterable[PathLike], *,
                 columns: MatchColumns = MATCH_COLUMNS) -> pl.DataFrame:
    """Read one or many CSV/Parquet files into the validated long results table.

    Each file is either the long form (``player_id``/``opponent_id`` columns) or the match
    form (``player_a``/``player_b``, see :func:`swissframe.from_matches`). A file without an
    ``event_id`` column is one event named after the file (its name without the suffix).

    Examples
    --------
    >>> import swissframe as sf
    >>> res = sf.read_results("data/events/store-championship.csv")
    >>> res.select("event_id", "round", "player_id").head(2)
    shape: (2, 3)
    ┌────────────────────┬───────┬───────────┐
    │ event_id           ┆ round ┆ player_id │
    │ ---                ┆ ---   ┆ ---       │
    │ str                ┆ i64   ┆ str       │
    ╞════════════════════╪═══════╪═══════════╡
    │ store-championship ┆ 1     ┆ Alice     │
    │ store-championship ┆ 1     ┆ Bob       │
    └────────────────────┴───────┴───────────┘
    """
    found, _ = _files.expand(paths, format="table")
    columns = check_match_columns(columns)
    whole = (columns.games_a, columns.games_b, columns.games_drawn)
    frames = [_files.table_long(f, _files.read_table_file(f, whole=whole), columns)
              for f, _ in found]
    try:
        out = validate_results(_files.concat_files(frames)).collect()
    except ValidationError as exc:  # (named event, round and player, but no file, as
        # sf.read's did before class 138: which of the files to open was not said)
        events = [frame.select(pl.col("event_id").cast(pl.String)).unique()
                  .with_columns(pl.lit(_files.shown(f)).alias("source_file"))
                  for (f, _), frame in zip(found, frames, strict=True)
                  if "event_id" in frame.columns]
        raise (_files.with_files(exc, pl.concat(events)) if events else exc) from None
    if out.height:  # (as every reader: an event with a whole round missing is said)
        _files.warn_missing_rounds(out)
    order = ["event_id", "round", "player_id", "opponent_id"]
    return out.sort(order, nulls_last=True)
