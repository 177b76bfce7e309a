"""Shared test helpers: event builders, a pure-Python Fraction reference, and the
invariants every computed standings table must satisfy."""

from __future__ import annotations

import itertools
import os
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import polars as pl
import pytest

import swissframe as sf
from swissframe import schema
from tests import reference

T = TypeVar("T")

#: The ``swissframe`` command in a process of its own: ``[sys.executable, "-c",
#: CLI_IN_A_PROCESS, *argv]`` (its environment, streams and working folder the test's).
CLI_IN_A_PROCESS = "import sys; from swissframe.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture(scope="module")
def chunks_kept() -> Iterator[None]:
    """The boundary keeps every input's chunks, however small (it makes a table of small
    chunks one chunk first: ``schema.MIN_CHUNK_ROWS``), so that a module's chunked inputs
    reach the checks and the engine in their chunks. Use with
    ``pytestmark = pytest.mark.usefixtures("chunks_kept")`` after importing it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schema, "MIN_CHUNK_ROWS", 1)
        yield


def cut_apart(df: pl.DataFrame, cuts: Sequence[Sequence[int]]) -> pl.DataFrame:
    """``df`` with column ``i`` cut into chunks at the rows ``cuts[i]`` (each column at its
    own rows: chunks that do not line up across columns, as ``hstack`` of frames read
    apart leaves them)."""
    columns = []
    for c, at in zip(df.columns, cuts, strict=True):
        bounds = [0, *sorted(set(at)), df.height]
        columns.append(pl.concat([df[c][a:b] for a, b in itertools.pairwise(bounds)],
                                 rechunk=False))
    return pl.DataFrame(columns)


GAMES = {"W": (2, 0, 0), "L": (0, 2, 0), "D": (1, 1, 0)}


@dataclass(frozen=True)
class Opp:
    """An opponent given by final record (wins, losses, draws) and the subject's result."""

    record: tuple[int, int, int]
    result: str  # subject's result against this opponent: "W", "L", "D", or "BYE"
    games: tuple[int, int, int] | None = None  # subject's games in that match


def event_from_opponents(subjects: dict[str, Sequence[Opp]], event_id: str = "e") -> pl.DataFrame:
    """Build a valid long table in which each subject meets the given opponents, in order
    (round i+1 for opponent i), and each opponent ends with exactly its record; the rest of
    an opponent's rounds are played against one-off filler players. Opponents play rounds
    1..(W+L+D), so a short record is a player who dropped."""
    rows: list[dict[str, object]] = []
    filler = itertools.count()

    def add(rnd: int, a: str, b: str | None, g: tuple[int, int, int]) -> None:
        rows.append({"event_id": event_id, "round": rnd, "player_id": a, "opponent_id": b,
                     "games_won": g[0], "games_lost": g[1], "games_drawn": g[2]})
        if b is not None:
            add_mirror = {"event_id": event_id, "round": rnd, "player_id": b, "opponent_id": a,
                          "games_won": g[1], "games_lost": g[0], "games_drawn": g[2]}
            rows.append(add_mirror)

    for subject, opps in subjects.items():
        for i, o in enumerate(opps):
            rnd = i + 1
            if o.result == "BYE":
                add(rnd, subject, None, (2, 0, 0))
                continue
            oid = f"{subject}-opp{i}"
            g = o.games or GAMES[o.result]
            add(rnd, subject, oid, g)
            w, lo, d = o.record
            # the opponent's result against the subject is the mirror of the subject's
            w, lo, d = (w, lo - 1, d) if o.result == "W" else (w - 1, lo, d) \
                if o.result == "L" else (w, lo, d - 1)
            assert min(w, lo, d) >= 0, (subject, o)
            total = sum(o.record)
            assert rnd <= total, "the opponent must still be playing in that round"
            other_rounds = [r for r in range(1, total + 1) if r != rnd]
            for r, res in zip(other_rounds, ["W"] * w + ["L"] * lo + ["D"] * d, strict=True):
                add(r, oid, f"filler{next(filler)}", GAMES[res])
    return pl.DataFrame(rows, schema={"event_id": pl.String, "round": pl.Int64,
                                      "player_id": pl.String, "opponent_id": pl.String,
                                      "games_won": pl.Int64, "games_lost": pl.Int64,
                                      "games_drawn": pl.Int64})


# --------------------------------------------------------------------------------------
# A deliberately plain, loop-based reference implementation in exact Fractions.


def reference_standings(results: pl.DataFrame, rules: sf.Ruleset) -> dict[tuple[str, str], dict]:
    """MTG-family standings computed naively with Fractions (for cross-checking): the
    independent reference (:func:`tests.reference.mtg_family`) with the ruleset's fields."""
    rows = results.filter(pl.col("phase") == "swiss") if "phase" in results.columns else results
    by_event: dict[str, list[dict]] = defaultdict(list)
    for r in rows.iter_rows(named=True):
        by_event[r["event_id"]].append(r)
    info: dict[tuple[str, str], dict] = {}
    for ev, rs in by_event.items():
        vals = reference.mtg_family(
            rs, floor=rules.floor, bye_in_own=rules.bye_in_own_rate,
            floor_own_gw=rules.floor_own_gw,
            points=(rules.points_win, rules.points_draw, rules.points_loss, rules.points_bye),
            draw_value=rules.draw_value, drawn_game_value=rules.drawn_game_value,
            cap=rules.cap, cap_dropped=rules.cap_dropped)
        for p, v in vals.items():
            info[(ev, p)] = {"pts": v["match_points"], "mw": v["mwp"], "gw": v["gwp"],
                             "gw_opp": v["_gw_opp"], "omw": v["omwp"], "ogw": v["ogwp"],
                             "opps": v["_opps"], "wins": v["wins"], "losses": v["losses"],
                             "draws": v["draws"], "byes": v["byes"], "dropped": v["dropped"],
                             "rounds": v["rounds_played"]}
    # ranks: competition ranking on exact tuples, None below any value
    order = [c.name for c in rules.criteria]
    field = {"match_points": "pts", "omwp": "omw", "gwp": "gw", "ogwp": "ogw", "mwp": "mw"}

    def sort_key(v: dict) -> tuple:
        out = []
        for name, c in zip(order, rules.criteria, strict=True):
            x = v[field[name]]
            out.append((x is not None, (x if c.descending else -x) if x is not None else 0))
        return tuple(out)

    for ev in {k[0] for k in info}:
        players = [(k, v) for k, v in info.items() if k[0] == ev]
        keys = sorted((sort_key(v) for _, v in players), reverse=True)
        for _, v in players:
            v["rank"] = keys.index(sort_key(v)) + 1
    return info


# --------------------------------------------------------------------------------------
# Invariants every standings table must satisfy (shared by the whole suite).


def check_standings_invariants(st: pl.DataFrame, rules: sf.Ruleset,
                               keys: Iterable[str] = ("event_id",)) -> None:
    """One row per player per key; ranks are competition ranks 1..n consistent with the
    criteria; percentages within [floor, cap]; match points consistent with the record."""
    keys = list(keys)
    assert st.select([*keys, "player_id"]).is_duplicated().sum() == 0
    for _, grp in st.group_by(keys):
        ranks = grp["rank"].sort().to_list()
        n = len(ranks)
        assert ranks[0] == 1
        for i, r in enumerate(ranks):
            # competition ranking: a rank r is used by exactly the players at positions r-1…
            assert 1 <= r <= i + 1
            assert r == i + 1 or r == ranks[i - 1]
        assert max(ranks) <= n
    lo, hi = float(rules.floor), float(rules.cap)
    for col in ("mwp", "omwp", "ogwp"):
        vals = st[col].drop_nulls()
        if len(vals):
            assert vals.min() >= lo - 1e-12, col  # type: ignore[operator]
            assert vals.max() <= hi + 1e-12, col  # type: ignore[operator]
    if rules.floor_own_gw:
        vals = st["gwp"].drop_nulls()
        if len(vals):
            assert vals.min() >= lo - 1e-12
    if rules.points_game_win or rules.points_sweep:
        return  # points depend on game scores (two-game matches): not a function of W-L-D
    byes = st["byes"]
    pts = ((st["wins"] - byes) * float(rules.points_win) + byes * float(rules.points_bye)
           + st["draws"] * float(rules.points_draw) + st["losses"] * float(rules.points_loss))
    assert (pts - st["match_points"].cast(pl.Float64)).abs().max() < 1e-9  # type: ignore[operator]
    assert (st["wins"] + st["losses"] + st["draws"] == st["rounds_played"]).all()


# ------------------------------------------------------------------ chess games


def games(rows: list[tuple[int, str, str | None, str, str | None]]) -> pl.DataFrame:
    """(round, player, opponent, result '+'/'='/'-', unplayed kind) → long rows (one seat)."""
    g = {"+": (1, 0, 0), "=": (0, 0, 1), "-": (0, 1, 0)}
    out = [{"round": r, "player_id": p, "opponent_id": o, "games_won": g[res][0],
            "games_lost": g[res][1], "games_drawn": g[res][2], "unplayed": k}
           for r, p, o, res, k in rows]
    return pl.DataFrame(out, schema={"round": pl.Int64, "player_id": pl.String,
                                     "opponent_id": pl.String, "games_won": pl.Int64,
                                     "games_lost": pl.Int64, "games_drawn": pl.Int64,
                                     "unplayed": pl.String})


def decisive(ms: list[tuple[int, str, str, str]]) -> pl.DataFrame:
    """(round, a, b, a's result '+'/'='/'-') → both seats' rows."""
    flip = {"+": "-", "-": "+", "=": "="}
    rows = []
    for rnd, a, b, res in ms:
        rows += [(rnd, a, b, res, None), (rnd, b, a, flip[res], None)]
    return games(rows)


#: A six-player chess round robin (round, a, b, a's result) whose places 3 and 4 direct
#: encounter decides under ``fide``: P1, P5 and P3 finish on 2 points with BH-C1 11.5 and
#: BH 13; Sonneborn-Berger puts P1 and P5 (5) above P3 (3.5); P1 beat P5 in round 2, so
#: direct encounter ranks one tied player below P1 and none below P5 (1 vs 0: a count,
#: not a score).
DE_DECIDES = [
    (1, "P1", "P6", "+"), (1, "P2", "P5", "="), (1, "P3", "P4", "+"), (2, "P1", "P5", "+"),
    (2, "P6", "P4", "+"), (2, "P2", "P3", "+"), (3, "P1", "P4", "-"), (3, "P5", "P3", "+"),
    (3, "P6", "P2", "-"), (4, "P1", "P3", "-"), (4, "P4", "P2", "-"), (4, "P5", "P6", "-"),
    (5, "P1", "P2", "-"), (5, "P3", "P6", "-"), (5, "P4", "P5", "=")]


#: The repository root, the test fixtures, and ``../shared`` (override with SWISSFRAME_SHARED).
REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "tests" / "fixtures"
SHARED_ROOT = Path(os.environ.get("SWISSFRAME_SHARED", REPO_ROOT.parent / "shared"))


def bounded(fn: Callable[[], T], timeout: float = 30.0) -> T:
    """Run ``fn`` in a daemon thread; fail the test if it does not finish in time — a hang
    detector (the bound is far above any normal run), not a performance assertion."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # re-raised in the caller
            box["error"] = exc

    th = threading.Thread(target=target, daemon=True)
    th.start()
    th.join(timeout)
    if th.is_alive():
        pytest.fail(f"no answer within {timeout} s (a hang?)")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def with_top4_playoff(folder: Path) -> Path:
    """``data/events/store-championship.csv`` with a Top 4 playoff round (two semifinals
    of its first four) added, as a Parquet file in ``folder``: an event whose own file
    holds its cut (read by the cut and chart tests)."""
    swiss = sf.read(REPO_ROOT / "data" / "events" / "store-championship.csv").results.drop(
        "source_file", strict=False)
    firsts = sf.standings(swiss)["player_id"].to_list()[:4]
    semis = sf.from_matches(pl.DataFrame({
        "event_id": swiss["event_id"][0], "round": 5, "player_a": firsts[:2],
        "player_b": firsts[:1:-1], "games_a": [2, 2], "games_b": [0, 1],
        "games_drawn": [0, 0], "phase": "playoff"}))
    path = folder / "with-playoff.parquet"
    pl.concat([swiss.select(semis.columns), semis], how="vertical_relaxed").write_parquet(path)
    return path


def reachable(results: pl.DataFrame, through: int | None) -> int | None:
    """``through`` where the Swiss of ``results`` reaches it, else its last Swiss round: a
    round after every event's last is an error (``engine.standings.past_last_round``), and
    a property test comparing two paths at a drawn cutoff compares them at one that is."""
    if through is None:
        return None
    swiss = results.filter(pl.col("phase") == "swiss") if "phase" in results.columns \
        else results
    last = swiss["round"].max()
    return through if not isinstance(last, int) or through <= last else last
