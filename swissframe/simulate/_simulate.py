"""Swiss simulator: a pairing engine and synthetic events, many at once.

Skill model
-----------
Every player has a latent rating ``r ~ Normal(0, skill)`` (logit units per game). In a
match between A and B each game is won by A with probability
``g = 1 / (1 + exp(-(r_A - r_B)))``; a best-of-three is played game by game (three uniform
draws per match, all matches of all events of a round at once), giving 2-0 or 2-1, so A wins
the match with probability ``g² (3 - 2g)``. With probability ``unfinished_rate`` a match is
instead unfinished at time and drawn: 1-1-0, or 1-1-1 (one game left unfinished) a third
of the time (MTR §2.4). Pokémon uses the same model and keeps the contract: a win is 2-0
or 2-1, a tie 1-1-0 (or 1-1-1).

Event life cycle
----------------
- **Rounds**: ``rounds=None`` reads :mod:`swissframe.rounds` (MTR Appendix E counting
  awarded byes as 2/4/8 players; Pokémon: the 2026 two-phase table, players below the
  phase-2 threshold stop after phase 1, rows carry ``stage`` ``"day1"``/``"day2"``).
  Events too small for Swiss in Appendix E (≤ 8 players) get ``min_rounds`` (3, MTR §10.2).
- **Awarded byes** (MTG): a fraction ``awarded_bye_rate`` of players start with 1/2/3 byes
  (probabilities 0.5/0.3/0.2), recorded as unpaired 2-0-0 rows with ``unplayed="full_bye"``.
- **Late entries**: a fraction ``late_rate`` enters in round 2 or 3 with unopposed losses
  0-2-0 (``unplayed="absent"``) for the missed rounds (TRH §5.2.2); ``late_entry="absent"``
  in the rules leaves the missed rounds out instead.
- **Pairing**: :func:`pair_round`'s engine (:mod:`swissframe.simulate._pairing`): round 1 random,
  then brackets top-down (MTG: match points; Pokémon: same record, ``SimRules.group_by``),
  one pair-down per odd bracket, no avoidable rematch, at most one pairing bye per player
  (2-0-0, ``unplayed="pairing_bye"``) to the lowest eligible.
- **Intentional draws** (``id_policy``): in the last ``rounds`` Swiss rounds of an event
  with a top cut, two paired players draw 0-0-3 with probability ``rate`` when both are
  safe by points after the draw: with mode ``"safe"`` at most ``cut - 1`` other players can
  still reach their post-draw points (safe even if every tiebreaker goes against them);
  with ``"likely"`` (default) at most ``cut - 1`` can still pass them (ties on points
  assumed won on tiebreakers).
- **Drops**: after each non-final round a player drops with probability ``drop_rate``,
  times ``drop_multiplier`` once out of contention (cannot reach the current points of the
  event's cut line — or, in phase 1 of a two-phase event, the phase-2 threshold — even by
  winning out). Dropped players keep their rows and are not paired again.

Reproducibility: one ``numpy.random.Generator(PCG64)`` stream per batch of events, spawned
from ``seed`` with :class:`numpy.random.SeedSequence`; batches are fixed by the event sizes,
so the same arguments give the same table on any platform (numpy's PCG64 streams are
platform-independent; every sort key is unique, so SIMD and non-SIMD sorts agree; the only
libm call, ``exp`` in the game probability, could differ in the last bit between math
libraries, which flips a game only if a uniform draw lands within that bit).

Speed (2 shared cores, heavily loaded): 10,000 events with log-uniform sizes 32–1,500
(4.3 M players, 37 M rows) take about 24 s of CPU; 1,000 events with uniform sizes take
about 5 s. Pairing one 2,000-player round takes well under 10 ms in the core.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, cast

import polars as pl

from swissframe._collect import collect, scoped
from swissframe._display import count, quoted
from swissframe.engine.standings import with_disqualified
from swissframe.errors import (
    MAX_TABLE_ROWS,
    DataError,
    RulesetError,
    SchemaError,
    check_choice,
    check_seed,
    check_whole,
    listed,
    memory_bytes,
)
from swissframe.rules._ruleset import known_name
from swissframe.schema import DISQUALIFIED, as_frame, blank, is_id_type, validate_results
from swissframe.simulate._pairing import pair_arrays
from swissframe.simulate.rounds import recommended_rounds, rounds_table

__all__ = [
    "SIM_RULES",
    "IdPolicy",
    "SimRules",
    "Simulation",
    "pair_round",
    "simulate",
    "with_rules",
]

if TYPE_CHECKING:  # numpy is imported where it is used: not on `import swissframe`
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

#: Codes of the ``unplayed`` column produced here (index 0 = played over the board).
_UNPLAYED: Final = (None, "pairing_bye", "full_bye", "absent")
_PAIRING_BYE, _FULL_BYE, _ABSENT = 1, 2, 3
#: Players per batch: bounds memory and sets the progress granularity.
_BATCH_PLAYERS: Final = 250_000
#: The largest ``skill`` (the ratings' spread, in logits): far past what changes a game
#: (50 decides nearly every one), and low enough that every rating and difference of two
#: stays finite (a spread of 1e308 made them inf − inf: NaN win chances, every game going
#: to one seat whatever the ratings; bad data 203).
MAX_SKILL: Final = 1000


@dataclass(frozen=True)
class SimRules:
    """Pairing and simulation rules of one game, as data (no code branches on the name).

    Attributes
    ----------
    name
        Key in :data:`SIM_RULES`, and the default event-id prefix.
    rounds_table
        Name of the :mod:`swissframe.rounds` table used when ``rounds=None``.
    win_points, draw_points
        Match points used for pairing and for the ID/drop policies.
    awarded_bye_rate
        Default share of players with awarded byes (MTG: Premier-style byes; Pokémon: none).
    late_entry
        ``"loss"``: missed rounds are unopposed losses (TRH §5.2.2); ``"absent"``: no rows.
    bye_games, late_games, id_games
        Game records of a bye (MTR Appendix C: 2-0), a missed round and an intentional draw
        (MTR §2.5: 0-0-3).
    min_rounds
        Swiss rounds for events the rounds table plays without Swiss (MTR §10.2: 3).
    group_by
        Pairing brackets: ``"points"`` (match points; WotC Swiss basics) or ``"record"``
        (same match points *and* same number of wins, i.e. the same W/L/T record; TRH
        §5.5.1), brackets ordered by points, then wins, highest first.
    """

    name: str
    rounds_table: str
    win_points: int = 3
    draw_points: int = 1
    awarded_bye_rate: float = 0.0
    late_entry: Literal["loss", "absent"] = "loss"
    bye_games: tuple[int, int, int] = (2, 0, 0)
    late_games: tuple[int, int, int] = (0, 2, 0)
    id_games: tuple[int, int, int] = (0, 0, 3)
    min_rounds: int = 3
    group_by: Literal["points", "record"] = "points"

    def pairing_key(self, points: IntArray, wins: IntArray) -> IntArray:
        """The bracket key the pairing engine sorts on (higher = better bracket)."""
        if self.group_by == "record":
            return points * 1024 + wins
        return points


#: Built-in simulation rules by name.
SIM_RULES: Final[Mapping[str, SimRules]] = MappingProxyType({
    "mtg": SimRules("mtg", "mtg", awarded_bye_rate=0.02),
    "pokemon": SimRules("pokemon", "pokemon", group_by="record"),
})


@dataclass(frozen=True)
class IdPolicy:
    """When paired players take an intentional draw (see the module docstring).

    Attributes
    ----------
    mode
        ``"safe"`` (safe even losing every tie on points), ``"likely"`` (safe if ties on
        points go their way) or ``"none"``.
    rounds
        How many final Swiss rounds allow IDs.
    rate
        Probability that an eligible (both safe) pair actually draws.
    """

    mode: Literal["safe", "likely", "none"] = "likely"
    rounds: int = 1
    rate: float = 0.9


@dataclass(frozen=True)
class Simulation:
    """The output of :func:`simulate`.

    Attributes
    ----------
    results
        Long results table per the contract (:func:`swissframe.schema.validate_results`),
        plus ``stage`` (``"day1"``/``"day2"`` for two-phase events, else null) and
        ``unplayed`` (``pairing_bye``, ``full_bye``, ``absent`` or null).
    players
        One row per player: ``event_id, player_id, rating, awarded_byes, enters_round,
        dropped_after`` (last round played by a dropped player, else null).
    events
        One row per event: ``event_id, rules, players, swiss_rounds, rounds_planned,
        phase1_rounds, phase2_threshold, top_cut``: ``swiss_rounds`` is the rounds played,
        ``rounds_planned`` those asked for (``rounds``) or read from the round table;
        fewer are played where every player has dropped before the last
        (:attr:`short_events`).
    """

    results: pl.DataFrame
    players: pl.DataFrame
    events: pl.DataFrame

    @property
    def short_events(self) -> pl.DataFrame:
        """The events that played fewer Swiss rounds than planned (every player had
        dropped): ``event_id, swiss_rounds, rounds_planned``; empty when every event
        played its rounds.

        >>> simulate(8, rounds=5, seed=1, n_events=2, drop_rate=1.0).short_events.rows()
        [('mtg-0001', 1, 5), ('mtg-0002', 1, 5)]
        """
        return self.events.filter(pl.col("swiss_rounds") < pl.col("rounds_planned")).select(
            "event_id", "swiss_rounds", "rounds_planned")

    def _facts(self) -> list[str]:
        from swissframe._display import count

        rules = (", ".join(sorted(self.events["rules"].unique().cast(pl.String).to_list()))
                 if "rules" in self.events.columns else "")
        short = self.short_events.height if "rounds_planned" in self.events.columns else 0
        return [count(self.events.height, "event") + (f" ({rules})" if rules else ""),
                count(self.players.height, "player"), count(self.results.height, "result row"),
                *([f"{short:,} played fewer rounds than planned (.short_events)"]
                  if short else [])]

    def __repr__(self) -> str:
        """A one-line summary (the frames are ``.results``, ``.players``, ``.events``).

        >>> ev = pl.DataFrame({"rules": ["mtg"]})
        >>> Simulation(pl.DataFrame(), pl.DataFrame({"p": [1, 2]}), ev)
        Simulation: 1 event (mtg), 2 players, 0 result rows — .results, .players, .events
        """
        from swissframe._display import summary_text

        return summary_text("Simulation", self._facts(), ["results", "players", "events"])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("Simulation", self._facts(), {
            "events": self.events, "players": self.players, "results": self.results})


def _sim_rules(rules: str | SimRules | object) -> SimRules:
    if isinstance(rules, SimRules):
        # (any other text was read as its other value: late_entry="losses" as "absent")
        check_choice("SimRules.late_entry", rules.late_entry, ("loss", "absent"))
        check_choice("SimRules.group_by", rules.group_by, ("points", "record"))
        return rules
    name = str(getattr(rules, "name", rules))
    # (in any case and spelling, as a ruleset's name: "MTG", "pokémon"; bad data 247)
    found = SIM_RULES.get(known_name(name, among=SIM_RULES) or name)
    if found is None:
        base = name.strip().split("-", maxsplit=1)[0].split("_", maxsplit=1)[0]
        found = SIM_RULES.get(known_name(base, among=SIM_RULES) or base)
    if found is None:
        msg = (f"no simulation rules for {name!r}. "
               f"Hint: use one of {sorted(SIM_RULES)} or pass a SimRules.")
        raise RulesetError(msg)
    return found


def _id_policy(policy: str | IdPolicy | None) -> IdPolicy:
    if policy is None:
        return IdPolicy(mode="none")
    if isinstance(policy, IdPolicy):
        # (a count past 64 bits ended in NumPy's OverflowError mid-simulation)
        check_whole("id_policy.rounds", policy.rounds,
                    hint="how many final Swiss rounds allow IDs, e.g. IdPolicy(rounds=1)")
        # (another mode was read as "safe": only "likely" and "none" were compared with)
        check_choice("id_policy.mode", policy.mode, ("likely", "safe", "none"))
        return policy
    if policy in ("safe", "likely", "none"):
        return IdPolicy(mode=policy)  # type: ignore[arg-type]
    msg = (f"unknown id_policy {policy!r}. Hint: use 'safe', 'likely', 'none' or an "
           "IdPolicy(mode=..., rounds=..., rate=...).")
    raise DataError(msg)


# --------------------------------------------------------------------------------------
# pair_round
# --------------------------------------------------------------------------------------

#: The optional columns of :func:`pair_round`'s players table that are whole numbers, and
#: the least each may be (a round is from 1; rounds of byes and the last round played
#: from 0).
_PLAYER_COUNTS: Final = {"enters_round": 1, "byes": 0, "dropped_after": 0}


def _checked_players(players: pl.DataFrame) -> pl.DataFrame:
    """:func:`pair_round`'s players table, its ids as text, or an error naming the column
    or the row: ids of a kind that is no id's (``schema.is_id_type``: a float, a list),
    a null or blank id, a ``dropped`` that is not Boolean, a count that is not a whole
    number or below its least. Nothing was checked: a null or blank id was paired as a
    player (its opponent's row read as a bye), a null ``event_id`` left every player
    unpaired without a word, ``enters_round="2"`` or ``-5`` was read, and a list id, a
    text flag or count ended in Polars' bare cast errors (bad data 209)."""
    def kind_ok(column: str, dtype: pl.DataType) -> bool:
        if column in ("event_id", "player_id"):
            return is_id_type(dtype)
        if column == "dropped":
            return dtype in (pl.Boolean, pl.Null)
        return column not in _PLAYER_COUNTS or dtype == pl.Null or dtype.is_integer()

    wrong = [f"{c} is {t}" for c, t in players.schema.items() if not kind_ok(c, t)]
    if wrong:
        msg = (f"players table has mistyped column(s): {'; '.join(wrong)}. Hint: ids are "
               "text (or whole numbers), dropped is True/False, enters_round, byes and "
               "dropped_after are whole numbers.")
        raise SchemaError(msg)
    base = players.with_columns(pl.col("event_id", "player_id").cast(pl.String))
    no_id = base.filter(pl.any_horizontal(pl.col(c).is_null() | blank(pl.col(c))
                                          for c in ("event_id", "player_id")))
    low = [(c, least) for c, least in _PLAYER_COUNTS.items() if c in base.columns]
    below = base.filter(pl.any_horizontal(pl.col(c) < least for c, least in low)) if low \
        else base.clear()
    if no_id.height or below.height:
        row = (no_id if no_id.height else below).row(0, named=True)
        what = ("an empty event_id or player_id (a blank cell is no player)" if no_id.height
                else "; ".join(f"{c} {row[c]} (from {least})" for c, least in low
                               if row[c] is not None and row[c] < least))
        msg = (f"players table, event {quoted(row['event_id'])}, player "
               f"{quoted(row['player_id'])}: {what}. Hint: one row per player, with its "
               "ids; a player's rounds are numbered from 1.")
        raise DataError(msg)
    return base


def _players_frame(results: pl.DataFrame, players: pl.DataFrame | None) -> pl.DataFrame:
    if players is None:
        if results.height == 0:
            msg = ("no results and no players table: nobody to pair. "
                   "Hint: pass players=pl.DataFrame({'event_id': ..., 'player_id': ...}).")
            raise DataError(msg)
        base = results.select("event_id", "player_id").unique()
    else:
        players = as_frame(players, what="players table",  # (a path, a list: named)
                           made_by="pl.DataFrame({'event_id': ..., 'player_id': ...})")
        if "player_id" not in players.columns:
            msg = (f"players table has columns {players.columns}, no player_id. "
                   "Hint: one row per player with event_id, player_id.")
            raise DataError(msg)
        base = _checked_players(players if "event_id" in players.columns
                                else players.with_columns(pl.lit("event").alias("event_id")))
        dup = base.filter(pl.len().over("event_id", "player_id") > 1)
        if dup.height:
            row = dup.row(0, named=True)
            msg = (f"event {row['event_id']!r}: player {row['player_id']!r} is listed twice in "
                   "the players table. Hint: one row per player.")
            raise DataError(msg)
        unknown = results.select("event_id", "player_id").unique().join(
            base.select(pl.col("event_id").cast(pl.String), pl.col("player_id").cast(pl.String)),
            on=["event_id", "player_id"], how="anti")
        if unknown.height:
            row = unknown.sort("event_id", "player_id").row(0, named=True)
            msg = (f"event {row['event_id']!r}: player {row['player_id']!r} has results but is "
                   "not in the players table. Hint: list every player, with dropped=True "
                   "for those who left.")
            raise DataError(msg)
    cols = base.columns
    opt = {
        "dropped": pl.col("dropped").fill_null(False).cast(pl.Boolean)
        if "dropped" in cols else pl.lit(False),
        "dropped_after": pl.col("dropped_after").cast(pl.Int64)
        if "dropped_after" in cols else pl.lit(None, dtype=pl.Int64),
        "enters_round": pl.col("enters_round").fill_null(1).cast(pl.Int64)
        if "enters_round" in cols else pl.lit(1, dtype=pl.Int64),
        "byes": pl.col("byes").fill_null(0).cast(pl.Int64)
        if "byes" in cols else pl.lit(0, dtype=pl.Int64),
    }
    return base.select(pl.col("event_id").cast(pl.String), pl.col("player_id").cast(pl.String),
                       **opt).sort("event_id", "player_id")


def pair_round(
    results: pl.DataFrame | pl.LazyFrame | None,
    players: pl.DataFrame | None = None,
    rules: str | SimRules | object = "mtg",
    *,
    seed: int | None = 0,
    form: Literal["long", "match"] = "long",
) -> pl.DataFrame:
    """Pair the next round of every event.

    The next round of an event is one past its last Swiss round in ``results`` (round 1
    for an event with no results). Pairing follows :mod:`swissframe.simulate._pairing`: round 1
    random; then point groups top-down with random order inside a group, an odd group
    sending one player down to the adjacent group; no rematch unless unavoidable; a pairing
    bye (at most one per player) to the lowest-ranked eligible player, never to a
    paired-down player. Match points are computed here (``rules.win_points`` /
    ``draw_points``; tiebreakers are not used for pairing). The per-event Python work is
    limited to repairing rematches (see :mod:`swissframe.simulate._pairing`); everything else is
    vectorized across events.

    Parameters
    ----------
    results
        Results so far (long form, validated), or ``None``/empty before round 1. A player
        disqualified in them (``disqualified``) is out of the event: not paired again.
    players
        One row per player: ``event_id``, ``player_id`` and optionally ``dropped`` (bool:
        never pair again), ``dropped_after`` (last round played), ``enters_round`` (late
        entry; default 1) and ``byes`` (awarded byes: rounds 1..byes are byes). Defaults to
        everybody in ``results``.
    rules
        ``"mtg"``, ``"pokemon"`` or a :class:`SimRules`.
    seed
        Seed of the random order (numpy PCG64); None draws fresh entropy (another
        pairing of equal players on each call).
    form
        ``"long"`` (two rows per match) or ``"match"`` (one row per table).

    Returns
    -------
    pl.DataFrame
        Long form: ``event_id, round, table, player_id, opponent_id, unplayed``: two rows
        per match (``table`` 1 = top table), and one row with a null ``opponent_id`` for a
        pairing bye (``unplayed="pairing_bye"``), an awarded bye (``"full_bye"``) or, with
        ``late_entry="loss"``, a round missed by a late entry (``"absent"``, a loss).
        Match form: ``event_id, round, table, player_a, player_b, unplayed`` with seat A the
        higher-bracket player and a null ``player_b`` for the unpaired rows.

    Examples
    --------
    >>> import polars as pl
    >>> from swissframe.simulate import pair_round
    >>> roster = pl.DataFrame({"player_id": ["a", "b", "c"]})
    >>> r1 = pair_round(None, roster, seed=1)
    >>> r1.height, r1["opponent_id"].null_count()
    (3, 1)
    """
    import numpy as np
    checked = check_seed(seed)  # (a text or -1 ended in NumPy's SeedSequence errors)
    check_choice("form", form, ("long", "match"))
    sim = _sim_rules(rules)
    if results is None:
        res = pl.DataFrame(schema={"event_id": pl.String, "round": pl.Int64,
                                   "player_id": pl.String, "opponent_id": pl.String,
                                   "games_won": pl.Int64, "games_lost": pl.Int64,
                                   "games_drawn": pl.Int64, "phase": pl.String})
    else:
        res = validate_results(results).pipe(collect)
    if "unplayed" not in res.columns:
        res = res.with_columns(pl.lit(None, dtype=pl.String).alias("unplayed"))
    res = res.filter(pl.col("phase") == "swiss")
    roster = _players_frame(res, players).with_row_index("_gid").with_columns(
        pl.col("_gid").cast(pl.Int64))
    events = roster.select("event_id").unique(maintain_order=True).with_row_index("_ev")
    nxt = res.group_by("event_id").agg((pl.col("round").max() + 1).alias("_round"))
    events = events.join(nxt, on="event_id", how="left").with_columns(
        pl.col("_round").fill_null(1), pl.col("_ev").cast(pl.Int64))
    win = pl.col("games_won") > pl.col("games_lost")
    draw = pl.col("games_won") == pl.col("games_lost")
    stats = res.group_by("event_id", "player_id").agg(
        (win.cast(pl.Int64) * sim.win_points + draw.cast(pl.Int64) * sim.draw_points)
        .sum().alias("_points"),
        win.cast(pl.Int64).sum().alias("_wins"),
        (pl.col("opponent_id").is_null() & win
         & (pl.col("unplayed").fill_null("") != "full_bye")).any().alias("_had_bye"),
    )
    state = (roster.join(events, on="event_id").join(stats, on=["event_id", "player_id"],
                                                      how="left")
             .with_columns(pl.col("_points").fill_null(0), pl.col("_wins").fill_null(0),
                           pl.col("_had_bye").fill_null(False))
             .sort("_gid"))
    r = pl.col("_round")
    alive = ~pl.col("dropped") & (pl.col("dropped_after").is_null() | (pl.col("dropped_after")
                                                                       >= r))
    if DISQUALIFIED in res.columns:
        # a disqualified player is out of the event (MTG IPG §1.1, Pokémon TRH §5.7.3):
        # paired again, as if the flag were not there (bad data 210)
        state = with_disqualified(state, res.lazy(), ["event_id", "player_id"])
        alive = alive & ~pl.col(DISQUALIFIED)
    state = state.with_columns(
        pl.when(~alive).then(pl.lit("out"))
        .when(pl.col("enters_round") > r).then(pl.lit("late"))
        .when(pl.col("byes") >= r).then(pl.lit("full_bye"))
        .otherwise(pl.lit("pair")).alias("_status"))
    paired = res.filter(pl.col("opponent_id").is_not_null()).join(
        roster.select("event_id", pl.col("player_id").alias("opponent_id"),
                      pl.col("_gid").alias("_ogid")), on=["event_id", "opponent_id"])
    paired = paired.join(roster.select("event_id", "player_id", "_gid"),
                         on=["event_id", "player_id"])
    gids = paired["_gid"].to_numpy()
    width = max(1, int(np.bincount(gids).max()) if gids.shape[0] else 1)
    opp = np.full((roster.height, width), -1, dtype=np.int64)
    if paired.height:
        paired = paired.with_columns(pl.int_range(pl.len()).over("_gid").alias("_k"))
        opp[paired["_gid"].to_numpy(), paired["_k"].to_numpy()] = paired["_ogid"].to_numpy()
    todo = state.filter(pl.col("_status") == "pair")
    a, b, bye = pair_arrays(
        todo["_ev"].to_numpy().astype(np.int64), todo["_gid"].to_numpy().astype(np.int64),
        sim.pairing_key(todo["_points"].to_numpy().astype(np.int64),
                        todo["_wins"].to_numpy().astype(np.int64)),
        todo["_had_bye"].to_numpy(),
        opp, rng=np.random.Generator(np.random.PCG64(checked)))
    pid, ev_id, rnd = todo["player_id"], todo["event_id"], todo["_round"]
    a_s, b_s = pl.Series(a), pl.Series(b)
    matches = pl.DataFrame({"event_id": ev_id.gather(a_s), "round": rnd.gather(a_s),
                            "player_id": pid.gather(a_s), "opponent_id": pid.gather(b_s)})
    matches = matches.with_columns(
        pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("event_id").alias("table"),
        pl.lit(None, dtype=pl.String).alias("unplayed"))
    mirror = matches.with_columns(pl.col("opponent_id").alias("player_id"),
                                  pl.col("player_id").alias("opponent_id"))
    byes = todo[bye].select("event_id", pl.col("_round").alias("round"), "player_id",
                            pl.lit(None, dtype=pl.String).alias("opponent_id"),
                            pl.lit(None, dtype=pl.Int64).alias("table"),
                            pl.lit("pairing_bye").alias("unplayed"))
    shown = ["full_bye", "late"] if sim.late_entry == "loss" else ["full_bye"]
    others = state.filter(pl.col("_status").is_in(shown)).select(
        "event_id", pl.col("_round").alias("round"), "player_id",
        pl.lit(None, dtype=pl.String).alias("opponent_id"),
        pl.lit(None, dtype=pl.Int64).alias("table"),
        pl.col("_status").replace({"late": "absent"}).alias("unplayed"))
    cols = ["event_id", "round", "table", "player_id", "opponent_id", "unplayed"]
    if form == "match":
        out = pl.concat([matches.select(cols), byes.select(cols), others.select(cols)],
                        how="vertical_relaxed")
        return out.sort("event_id", "table", "player_id", nulls_last=True).rename(
            {"player_id": "player_a", "opponent_id": "player_b"})
    out = pl.concat([matches.select(cols), mirror.select(cols), byes.select(cols),
                     others.select(cols)], how="vertical_relaxed")
    return out.sort("event_id", "table", "player_id", nulls_last=True)


# --------------------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Params:
    rules: SimRules
    skill: float
    drop_rate: float
    drop_multiplier: float
    ids: IdPolicy
    unfinished_rate: float
    late_rate: float
    awarded_bye_rate: float


if TYPE_CHECKING:
    Arrays = dict[str, npt.NDArray[np.generic]]


def _batches(sizes: IntArray) -> list[tuple[int, int]]:
    bounds, start, acc = [], 0, 0
    for i, s in enumerate(sizes.tolist()):
        acc += s
        if acc >= _BATCH_PLAYERS:
            bounds.append((start, i + 1))
            start, acc = i + 1, 0
    if start < sizes.shape[0]:
        bounds.append((start, sizes.shape[0]))
    return bounds


def _kth_points(ev: IntArray, pts: IntArray, offsets_k: IntArray, span: int) -> IntArray:
    """Per event, the points of its k-th best player (0 if it has fewer players).

    ``offsets_k[e]`` is k; sorting the composite key ``event * span + (span - 1 - points)``
    puts each event's best first, and only values are sorted, so ties cannot matter.
    """
    import numpy as np
    n_events = offsets_k.shape[0]
    keys = np.sort(ev * span + (span - 1 - pts))
    starts = np.searchsorted(keys, np.arange(n_events, dtype=np.int64) * span, side="left")
    ends = np.searchsorted(keys, np.arange(1, n_events + 1, dtype=np.int64) * span, side="left")
    at = starts + offsets_k - 1
    has = at < ends
    line = np.zeros(n_events, dtype=np.int64)
    line[has] = span - 1 - (keys[at[has]] - np.flatnonzero(has) * span)
    return line


def _simulate_batch(sizes: IntArray, fixed_rounds: int | None, p: _Params,
                    rng: np.random.Generator,
                    progress: Callable[[float], object] | None = None
                    ) -> tuple[Arrays, Arrays, Arrays]:
    """Simulate one batch of events; returns (result rows, players, events) as arrays.

    All events of the batch advance round by round together: every step is a numpy
    operation over all players of the batch, except the rematch repair inside pairing.
    """
    import numpy as np
    sr = p.rules
    n_ev = sizes.shape[0]
    n = int(sizes.sum())
    ev = np.repeat(np.arange(n_ev, dtype=np.int64), sizes)
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    rating = rng.normal(0.0, p.skill, n)
    late = rng.random(n) < p.late_rate
    enter = np.where(late, rng.integers(2, 4, n), 1).astype(np.int64)
    has_byes = ~late & (rng.random(n) < p.awarded_bye_rate)
    byes = np.where(has_byes, rng.choice(np.array([1, 2, 3]), n, p=[0.5, 0.3, 0.2]),
                    0).astype(np.int64)
    effective = np.bincount(ev, weights=2.0 ** byes, minlength=n_ev).astype(np.int64)
    if fixed_rounds is not None:  # the table only sets the top cut: clip into its range
        rows = rounds_table(sr.rounds_table).rows
        effective = np.maximum(effective, rows[0].min_players)
        if rows[-1].max_players is not None:
            effective = np.minimum(effective, rows[-1].max_players)
    table = recommended_rounds(
        pl.DataFrame({"event_id": np.arange(n_ev).astype(str), "players": effective}),
        sr.rounds_table)
    top_cut = table["top_cut"].to_numpy().astype(np.int64)
    if fixed_rounds is None:
        total = np.maximum(table["swiss_rounds"].to_numpy(), sr.min_rounds).astype(np.int64)
        phase1 = np.maximum(table["phase1_rounds"].to_numpy(), sr.min_rounds).astype(np.int64)
        thr = table["phase2_threshold"].fill_null(-1).to_numpy().astype(np.int64)
    else:
        total = np.full(n_ev, fixed_rounds, dtype=np.int64)
        phase1 = total.copy()
        thr = np.full(n_ev, -1, dtype=np.int64)
    two_phase = thr >= 0
    enter = np.minimum(enter, total[ev])
    r_max = int(total.max())
    span = sr.win_points * r_max + 2
    pts = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    had_bye = np.zeros(n, dtype=np.bool_)
    dropped_after = np.full(n, 1 << 30, dtype=np.int64)
    advanced = np.ones(n, dtype=np.bool_)
    opp = np.full((n, r_max), -1, dtype=np.int64)  # pairing history = the opponents column
    present = np.zeros((r_max, n), dtype=np.bool_)
    games = np.zeros((3, r_max, n), dtype=np.int8)
    code = np.zeros((r_max, n), dtype=np.int8)
    contention_k = np.where(top_cut > 0, top_cut, 8)
    ev_total, ev_phase1, ev_thr = total[ev], phase1[ev], thr[ev]
    ev_two, ev_cut = two_phase[ev], top_cut[ev]

    for r in range(1, r_max + 1):
        ri = r - 1
        alive = (ev_total >= r) & (dropped_after >= r) & advanced
        absent = alive & (enter > r)
        awarded = alive & ~absent & (byes >= r)
        to_pair = np.flatnonzero(alive & ~absent & ~awarded)
        if sr.late_entry == "loss":
            present[ri] |= absent
            games[:, ri, absent] = np.array(sr.late_games, dtype=np.int8)[:, None]
            code[ri, absent] = _ABSENT
        present[ri] |= awarded
        games[:, ri, awarded] = np.array(sr.bye_games, dtype=np.int8)[:, None]
        code[ri, awarded] = _FULL_BYE
        pts[awarded] += sr.win_points
        wins[awarded] += 1
        a, b, bye = pair_arrays(ev[to_pair], to_pair, sr.pairing_key(pts[to_pair],
                                                                     wins[to_pair]),
                                had_bye[to_pair], opp, rng=rng)
        a, b, bye = to_pair[a], to_pair[b], to_pair[bye]
        present[ri, bye] = True
        games[:, ri, bye] = np.array(sr.bye_games, dtype=np.int8)[:, None]
        code[ri, bye] = _PAIRING_BYE
        pts[bye] += sr.win_points
        wins[bye] += 1
        had_bye[bye] = True
        # intentional draws: both players safe by points after the draw
        is_id = np.zeros(a.shape[0], dtype=np.bool_)
        id_draw = rng.random(a.shape[0])
        if p.ids.mode != "none":
            last = (r > ev_total[a] - p.ids.rounds) & (ev_cut[a] > 0)
            if last.any():
                reach = pts + sr.win_points * np.where(alive, ev_total - r + 1, 0)
                keys = np.sort(ev * span + reach)
                strict = 1 if p.ids.mode == "likely" else 0

                def safe(x: IntArray, _keys: IntArray = keys, _reach: IntArray = reach,
                         _strict: int = strict) -> npt.NDArray[np.bool_]:
                    target = pts[x] + sr.draw_points + _strict
                    end = np.searchsorted(_keys, ev[x] * span + span, side="left")
                    above = end - np.searchsorted(_keys, ev[x] * span + target, side="left")
                    above -= (_reach[x] >= target).astype(np.int64)
                    return np.asarray(above <= ev_cut[x] - 1)

                is_id = np.asarray(last & safe(a) & safe(b) & (id_draw < p.ids.rate))
        # games: best of three, game by game (see the module docstring)
        # (a difference past ~709 logits overflows exp to inf: g is then 0.0, as it should
        # be, without NumPy's RuntimeWarning; the ratings stay finite by MAX_SKILL)
        with np.errstate(over="ignore"):
            g = 1.0 / (1.0 + np.exp(rating[b] - rating[a]))
        w = rng.random((a.shape[0], 3)) < g[:, None]
        same = w[:, 0] == w[:, 1]
        a_won = np.where(same, 2 * w[:, 0], 1 + w[:, 2]).astype(np.int8)
        b_won = np.where(same, 2 * ~w[:, 0], 2 - w[:, 2]).astype(np.int8)
        drawn = np.zeros(a.shape[0], dtype=np.int8)
        unfinished = (rng.random(a.shape[0]) < p.unfinished_rate) & ~is_id
        odd_game = np.asarray(rng.random(a.shape[0]) < 1.0 / 3.0)
        a_won[unfinished] = 1
        b_won[unfinished] = 1
        drawn[unfinished] = odd_game[unfinished]
        a_won[is_id], b_won[is_id], drawn[is_id] = sr.id_games
        present[ri, a] = True
        present[ri, b] = True
        games[0, ri, a], games[1, ri, a], games[2, ri, a] = a_won, b_won, drawn
        games[0, ri, b], games[1, ri, b], games[2, ri, b] = b_won, a_won, drawn
        pts[a] += np.where(a_won > b_won, sr.win_points,
                           np.where(a_won == b_won, sr.draw_points, 0))
        pts[b] += np.where(b_won > a_won, sr.win_points,
                           np.where(a_won == b_won, sr.draw_points, 0))
        wins[a] += a_won > b_won
        wins[b] += b_won > a_won
        opp[a, ri] = b
        opp[b, ri] = a
        # drops after non-final rounds; phase-2 qualification after phase 1
        remaining = ev_total - r
        played = present[ri] & (code[ri] != _ABSENT)
        cut_line = _kth_points(ev[alive], pts[alive], contention_k, span)
        out = pts + sr.win_points * remaining < cut_line[ev]
        out |= ev_two & (r < ev_phase1) & (pts + sr.win_points * (ev_phase1 - r) < ev_thr)
        hazard = np.minimum(1.0, p.drop_rate * np.where(out, p.drop_multiplier, 1.0))
        leave = played & (remaining > 0) & (rng.random(n) < hazard)
        dropped_after[leave] = r
        at_cut = ev_two & (ev_phase1 == r)
        advanced[at_cut] &= pts[at_cut] >= ev_thr[at_cut]
        if progress is not None:  # one step per round: events of the batch / rounds
            progress(n_ev / r_max)

    # rows in (event, round, player) order: nonzero() yields (round, player) order, and a
    # stable sort by event merges its r_max sorted runs (deterministic, ~linear)
    r_idx, i_idx = np.nonzero(present)
    order = np.argsort(ev[i_idx], kind="stable")
    r_idx, i_idx = r_idx[order], i_idx[order]
    e_idx = ev[i_idx]
    # the rounds each event played: fewer than planned where every player had dropped
    played = np.zeros(n_ev, dtype=np.int64)
    np.maximum.at(played, e_idx, r_idx + 1)
    opp_g = opp[i_idx, r_idx]
    res: Arrays = {
        "event": e_idx.astype(np.int32),
        "round": (r_idx + 1).astype(np.int32),
        "player_local": (i_idx - offsets[e_idx]).astype(np.int32),
        "opp_local": np.where(opp_g >= 0, opp_g - offsets[e_idx], -1).astype(np.int32),
        "won": games[0, r_idx, i_idx],
        "lost": games[1, r_idx, i_idx],
        "drawn": games[2, r_idx, i_idx],
        "code": code[r_idx, i_idx],
        "stage": np.where(two_phase[e_idx], np.where(r_idx < phase1[e_idx], 1, 2),
                          0).astype(np.int8),
    }
    players: Arrays = {
        "event": ev, "player_local": np.arange(n) - offsets[ev], "rating": rating,
        "awarded_byes": byes, "enters_round": enter,
        "dropped_after": np.where(dropped_after < (1 << 30), dropped_after, -1)}
    events: Arrays = {"players": sizes, "swiss_rounds": played, "rounds_planned": total,
                      "phase1_rounds": phase1, "phase2_threshold": thr, "top_cut": top_cut}
    return res, players, events


#: The least memory one simulated result row takes while it is built (bytes): its ten
#: columns alone are 50; a run's peak is about 210 a row (3.8M rows of simulate(64, 8,
#: n_events=8000): 870 MB).
SIM_ROW_BYTES: Final = 100


def _check_rows(least: int, n_events: int, who: str) -> None:
    """Refuse a simulation whose result rows, at the least ``least``, cannot exist: more
    than a table holds, or more than this machine's memory takes at
    :data:`SIM_ROW_BYTES` a row. Checked before any array of the events is built."""
    # (checked before any array of n_events: a typo of a few digits asked for terabytes
    # and ended in "out of memory")
    events = count(n_events, "event")
    if least > MAX_TABLE_ROWS:
        msg = (f"{events} of {who} make at least {least:,} result rows, more "
               f"than a table holds ({MAX_TABLE_ROWS:,}). Hint: simulate fewer events per "
               "call (n_events, --events) and write each batch out.")
        raise DataError(msg)
    # (what the rows need at the least, against the machine's memory: n_events=10**8
    # asked for ~500 GB and ended, after minutes, in the out-of-memory killer or a bare
    # MemoryError; bad data 128)
    need, have = least * SIM_ROW_BYTES, memory_bytes()
    if need > have:
        msg = (f"{events} of {who} make at least {least:,} result rows, at "
               f"least {need / 2**30:,.1f} GiB, more than this machine's memory "
               f"({have / 2**30:,.1f} GiB). Hint: " + (
                   "simulate fewer events per call (n_events, --events) and write each "
                   "batch out." if n_events > 1 else "simulate fewer players or rounds."))
        raise DataError(msg)


def _rows_per_player(rounds: int, drop_rate: float, drop_multiplier: float) -> float:
    """The fewest rows a player of an event of ``rounds`` rounds is expected to have: one
    a round from the third (a late entrant skips two at most), each kept while they stay,
    at the highest drop hazard of the model (out of contention), and at least one. With
    the rounds table's rounds, what :func:`_check_rows` reads when ``rounds`` is not
    given: ``--players 100000000`` counted one row a player (10 GB, under this machine's
    memory), simulated ten rounds and was ended by the out-of-memory killer (bad data
    181).

    >>> round(_rows_per_player(10, 0.02, 4.0), 2), _rows_per_player(10, 1.0, 4.0)
    (6.08, 1.0)
    """
    stay = 1.0 - min(1.0, drop_rate * max(1.0, drop_multiplier))
    return max(1.0, sum(stay**r for r in range(max(rounds - 2, 0))))


def _sizes(n_players: int | Sequence[int] | range, n_events: int,
           rng: np.random.Generator, *, rounds: int | None = None) -> IntArray:
    import numpy as np
    def whole(v: object) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))

    # (a text or a None reached int() or list() and ended in their bare errors; a range is
    # read by its ends, never listed: range(32, 2**40) holds a trillion sizes)
    n_players = listed(n_players)  # type: ignore[assignment]  # (an array: its numbers)
    single = whole(n_players)
    if not (single or isinstance(n_players, range)
            or (isinstance(n_players, Sequence) and not isinstance(n_players, (str, bytes))
                and all(whole(v) for v in n_players))):
        msg = (f"n_players must be an int or a sequence of ints, got {n_players!r:.60}. "
               "Hint: simulate(200, ...) or simulate(range(32, 257), ...).")
        raise DataError(msg)
    # the sizes to check: the one size, a list's sizes, or a range's two ends
    if single:
        values = [n_players]
    elif isinstance(n_players, range):
        values = [n_players[0], n_players[-1]] if n_players else []
    else:
        values = list(cast("Sequence[int]", n_players))
    if not values:
        msg = "n_players is an empty sequence. Hint: pass an int or e.g. range(32, 1501)."
        raise DataError(msg)
    # (a size past 64 bits ended in NumPy's OverflowError; an event of more players than a
    # table holds rows cannot be written)
    least_players = min(check_whole("n_players", v, low=2, high=MAX_TABLE_ROWS,
                                    hint="events need at least 2 players (4 for the rounds "
                                         "tables), e.g. simulate(200)") for v in values)

    def check_rows(players: int, who: str) -> None:
        _check_rows(players * (rounds or 1), n_events, who)

    check_rows(n_events * least_players, f"at least {least_players:,} players")
    if single:
        return np.full(n_events, least_players, dtype=np.int64)
    if isinstance(n_players, range):
        # (what rng.choice draws from the listed range: the same sizes for a seed)
        sizes = n_players.start + n_players.step * rng.integers(0, len(n_players), n_events)
    else:
        sizes = rng.choice(np.asarray(values, dtype=np.int64), n_events)
    total = int(sizes.sum())
    check_rows(total, f"{total:,} players in all")
    return sizes


@scoped
def simulate(
    n_players: int | Sequence[int] | range,
    rounds: int | None = None,
    rules: str | SimRules | object = "mtg",
    *,
    seed: int | None = 0,
    n_events: int = 1,
    skill: float = 0.5,
    drop_rate: float = 0.02,
    id_policy: str | IdPolicy | None = "likely",
    drop_multiplier: float = 4.0,
    unfinished_rate: float = 0.03,
    late_rate: float = 0.01,
    awarded_bye_rate: float | None = None,
    event_prefix: str | None = None,
    progress: Callable[[float], object] | None = None,
) -> Simulation:
    """Simulate many Swiss events at once (see the module docstring for the model).

    Parameters
    ----------
    n_players
        Players per event: an int, or a sequence/range to draw each event's size from
        (uniformly, e.g. ``range(32, 1501)``).
    rounds
        Swiss rounds of every event; ``None`` reads the rules' rounds table.
    rules
        ``"mtg"``, ``"pokemon"`` or a :class:`SimRules`.
    seed
        Seed; the same arguments give the same tables (None: fresh entropy, other
        tables on each call).
    n_events
        Number of events.
    skill
        Standard deviation of the latent ratings (logit units per game); 0 = coin flips.
    drop_rate
        Per-round drop probability of a player still in contention.
    id_policy
        ``"likely"`` (default), ``"safe"``, ``"none"``/``None`` or an :class:`IdPolicy`.
    drop_multiplier
        Drop hazard multiplier once out of contention.
    unfinished_rate
        Share of non-ID matches that end unfinished and drawn (1-1-0 / 1-1-1).
    late_rate
        Share of players entering in round 2 or 3.
    awarded_bye_rate
        Share of players with awarded byes (default from the rules: MTG 0.02, Pokémon 0).
    event_prefix
        Event ids are ``"{prefix}-{n:04d}"`` (default prefix: the rules' name).
    progress
        Called after every simulated round of every batch with the (fractional) number of
        events it represents; the calls sum to ``n_events`` (e.g. ``tqdm.update``).

    Returns
    -------
    Simulation
        ``results`` (the long table, valid per :func:`swissframe.schema.validate_results`),
        ``players`` and ``events``.

    Examples
    --------
    >>> from swissframe.simulate import simulate
    >>> sim = simulate(64, seed=7, n_events=3, awarded_bye_rate=0.0)
    >>> sim.events.select("event_id", "players", "swiss_rounds").rows()
    [('mtg-0001', 64, 6), ('mtg-0002', 64, 6), ('mtg-0003', 64, 6)]
    >>> sim.results.columns[:5]
    ['event_id', 'round', 'player_id', 'opponent_id', 'games_won']
    """
    import numpy as np
    sr = _sim_rules(rules)
    # (a text, None or a float here ended in a bare TypeError from a comparison)
    n_events = check_whole("n_events", n_events, low=1, hint="simulate(200, n_events=10)")
    rates = [("drop_rate", drop_rate), ("unfinished_rate", unfinished_rate),
             ("late_rate", late_rate)]
    if awarded_bye_rate is not None:
        rates.append(("awarded_bye_rate", awarded_bye_rate))
    for name, value in rates:
        if not (isinstance(value, numbers.Real) and not isinstance(value, bool)
                and 0.0 <= value <= 1.0):
            msg = f"{name} must be a probability, got {value!r}. Hint: use a value in [0, 1]."
            raise DataError(msg)
    if rounds is not None:
        rounds = check_whole("rounds", rounds, low=1, hint="or rounds=None for the table")
    if not (isinstance(drop_multiplier, numbers.Real) and not isinstance(drop_multiplier, bool)
            and math.isfinite(drop_multiplier) and drop_multiplier >= 0):
        msg = (f"drop_multiplier must be a finite number ≥ 0, got {drop_multiplier!r}. Hint: "
               "how many times likelier a player out of contention drops, e.g. 4.0.")
        raise DataError(msg)
    if not (isinstance(skill, numbers.Real) and not isinstance(skill, bool)
            and math.isfinite(skill) and 0 <= skill <= MAX_SKILL):
        msg = (f"skill must be a number from 0 to {MAX_SKILL:,}, got {skill!r}. Hint: the "
               "spread of ratings in logits, e.g. 0.5; 0 for coin flips (a spread of 50 "
               "already decides nearly every game).")
        raise DataError(msg)
    seed = check_seed(seed)
    params = _Params(
        rules=sr, skill=skill, drop_rate=drop_rate, drop_multiplier=drop_multiplier,
        ids=_id_policy(id_policy), unfinished_rate=unfinished_rate, late_rate=late_rate,
        awarded_bye_rate=sr.awarded_bye_rate if awarded_bye_rate is None else awarded_bye_rate)
    root = np.random.SeedSequence(seed)
    sizes = _sizes(n_players, n_events, np.random.Generator(np.random.PCG64(root)),
                   rounds=rounds)
    prefix = event_prefix or sr.name
    lowest = rounds_table(sr.rounds_table).rows[0].min_players
    if rounds is None and int(sizes.min()) < lowest:
        first = int(np.flatnonzero(sizes < lowest)[0])
        msg = (f"event {_event_name(prefix, first, n_events)!r} has {int(sizes[first])} "
               f"players, below the smallest bracket ({lowest}) of rounds table "
               f"{sr.rounds_table!r}. Hint: pass rounds=... for such small events.")
        raise DataError(msg)
    highest = rounds_table(sr.rounds_table).rows[-1].max_players
    if rounds is None and highest is not None and int(sizes.max()) > highest:
        first = int(np.flatnonzero(sizes > highest)[0])
        msg = (f"event {_event_name(prefix, first, n_events)!r} has {int(sizes[first])} "
               f"players, above the largest bracket ({highest}) of rounds table "
               f"{sr.rounds_table!r}. Hint: pass rounds=... explicitly.")
        raise DataError(msg)
    if rounds is None:  # (the rows the rounds table's rounds make, against the memory)
        least_rounds = max(int(recommended_rounds(
            pl.DataFrame({"event_id": ["smallest"], "players": [int(sizes.min())]}),
            sr.rounds_table)["phase1_rounds"][0]), sr.min_rounds)
        per = _rows_per_player(least_rounds, drop_rate, drop_multiplier)
        total = int(sizes.sum())
        _check_rows(int(total * per), n_events,
                    f"{total:,} players in all ({least_rounds} rounds or more each)")
    bounds = _batches(sizes)
    children = root.spawn(len(bounds) + 1)[1:]
    parts: list[tuple[int, Arrays, Arrays, Arrays]] = []
    try:
        for (lo, hi), child in zip(bounds, children, strict=True):
            res, pl_, evs = _simulate_batch(sizes[lo:hi], rounds, params,
                                            np.random.Generator(np.random.PCG64(child)),
                                            progress)
            parts.append((lo, res, pl_, evs))
        return _assemble(parts, sizes, sr, prefix)
    except MemoryError:  # (within the machine's memory, but not free now: as id_report says)
        msg = (f"{n_events:,} events of {int(sizes.sum()):,} players in all need more memory "
               "than is free. Hint: simulate fewer events per call (n_events, --events) and "
               "write each batch out.")
        raise DataError(msg) from None


def _event_name(prefix: str, index: int, n_events: int) -> str:
    return f"{prefix}-{index + 1:0{max(4, len(str(n_events)))}d}"


def _assemble(parts: list[tuple[int, Arrays, Arrays, Arrays]], sizes: IntArray,
              sr: SimRules, prefix: str) -> Simulation:
    import numpy as np
    n_events = sizes.shape[0]
    ev_names = pl.Series([_event_name(prefix, i, n_events) for i in range(n_events)],
                         dtype=pl.String)
    p_width = max(3, len(str(int(sizes.max()))))
    p_names = pl.Series([f"p{i + 1:0{p_width}d}" for i in range(int(sizes.max()))],
                        dtype=pl.String)

    def cat(key: str, src: int) -> pl.Series:
        chunks = []
        for lo, *tables in parts:
            values = tables[src][key]
            chunks.append(values + lo if key == "event" else values)
        return pl.Series(np.concatenate(chunks))

    def nullable(values: pl.Series) -> pl.Series:
        return values.set(values < 0, None)

    stage_names = pl.Series([None, "day1", "day2"], dtype=pl.String)
    unplayed_names = pl.Series(list(_UNPLAYED), dtype=pl.String)
    frames = []
    for lo, res, _, _ in parts:
        ev_idx = pl.Series(res["event"]) + lo
        frames.append(pl.DataFrame({
            "event_id": ev_names.gather(ev_idx),
            "round": pl.Series(res["round"]).cast(pl.Int64),
            "player_id": p_names.gather(pl.Series(res["player_local"])),
            "opponent_id": p_names.gather(nullable(pl.Series(res["opp_local"]))),
            "games_won": pl.Series(res["won"]).cast(pl.Int64),
            "games_lost": pl.Series(res["lost"]).cast(pl.Int64),
            "games_drawn": pl.Series(res["drawn"]).cast(pl.Int64),
            "phase": pl.repeat("swiss", ev_idx.len(), dtype=pl.String, eager=True),
            "stage": stage_names.gather(pl.Series(res["stage"])),
            "unplayed": unplayed_names.gather(pl.Series(res["code"])),
        }))
    results = pl.concat(frames, rechunk=False)
    players = pl.DataFrame({
        "event_id": ev_names.gather(cat("event", 1)),
        "player_id": p_names.gather(cat("player_local", 1)),
        "rating": cat("rating", 1),
        "awarded_byes": cat("awarded_byes", 1).cast(pl.Int64),
        "enters_round": cat("enters_round", 1).cast(pl.Int64),
        "dropped_after": nullable(cat("dropped_after", 1).cast(pl.Int64)),
    })
    events = pl.DataFrame({
        "event_id": ev_names,
        "rules": pl.Series([sr.name] * n_events, dtype=pl.String),
        "players": cat("players", 2).cast(pl.Int64),
        "swiss_rounds": cat("swiss_rounds", 2).cast(pl.Int64),
        "rounds_planned": cat("rounds_planned", 2).cast(pl.Int64),
        "phase1_rounds": cat("phase1_rounds", 2).cast(pl.Int64),
        "phase2_threshold": nullable(cat("phase2_threshold", 2).cast(pl.Int64)),
        "top_cut": cat("top_cut", 2).cast(pl.Int64),
    })
    return Simulation(results=results, players=players, events=events)


def with_rules(sim_rules: SimRules, **changes: object) -> SimRules:
    """A variant of a :class:`SimRules` (thin wrapper over :func:`dataclasses.replace`).

    Examples
    --------
    >>> from swissframe.simulate import SIM_RULES, with_rules
    >>> with_rules(SIM_RULES["mtg"], late_entry="absent").late_entry
    'absent'
    """
    return replace(sim_rules, **changes)  # type: ignore[arg-type]
