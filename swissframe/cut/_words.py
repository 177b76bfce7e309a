"""How the surfaces (the report, the charts, the command line) name the places an analysis
looks at and the results a table can end in, in the ruleset's own terms: one place.

A card game's Swiss ends in a playoff *cut* (MTR Appendix E, TRH §5.5.4: "top 8"); a chess
Swiss does not: FIDE C.07 ranks the final standings, and places and prizes go by them, so
its pages speak of "the top 8 places", never of a cut. A match of a game whose tiebreakers
read games (GW%, OGW%, game wins, points per game) is told in game scores (2-0, 2-1);
one whose tiebreakers read only the match is told as a win, a draw or a loss with its
points (Pokémon 3/1/0, chess 1/½/0).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import polars as pl

from swissframe.rules._ruleset import Ruleset, fraction_text

__all__ = ["DEFAULT_TOP", "GAME_FUNCTIONS", "CutWords", "absence_notes", "absent_words",
           "advice_words", "cut_words", "draw_forms", "draw_word", "outcome_name",
           "outcome_words", "playoff_size", "reads_games", "result_words",
           "short_absence_legend", "stage_words", "the_top", "top_of", "top_words"]

#: The places an analysis looks at when neither the user nor the event's file says: a card
#: game's top-8 playoff (MTR Appendix E from 17 players), the top 8 places of a chess event.
DEFAULT_TOP: Final = 8

#: Tiebreaker functions (:data:`swissframe.tiebreakers.TIEBREAKERS`) that read a match's
#: games: a ruleset with one of them (or with points per game) tells a result in games.
GAME_FUNCTIONS: Final = frozenset({"gwp", "ogwp", "game_wins"})


@dataclass(frozen=True)
class CutWords:
    """The words for the top ``n`` of an event under a ruleset (:func:`cut_words`).

    Attributes
    ----------
    n
        The number of places.
    playoff
        True: a playoff cut follows the Swiss; False: the places themselves (chess).
    """

    n: int
    playoff: bool

    @property
    def name(self) -> str:
        """``the top-8 cut`` / ``the top 8 places``."""
        return f"the top-{self.n} cut" if self.playoff else f"the top {self.n} places"

    @property
    def heading(self) -> str:
        """A section's heading: ``The cut`` / ``Places 8 and 9``."""
        return "The cut" if self.playoff else f"Places {self.n} and {self.n + 1}"

    @property
    def inside(self) -> str:
        """A player there: ``in the cut`` / ``in the top 8``."""
        return "in the cut" if self.playoff else f"in the top {self.n}"

    @property
    def status(self) -> str:
        """A status' name: ``Cut status`` / ``Top-8 status``."""
        return "Cut status" if self.playoff else f"Top-{self.n} status"

    @property
    def line(self) -> str:
        """The line under place ``n``: ``the cut`` / ``place 8``."""
        return "the cut" if self.playoff else f"place {self.n}"

    @property
    def the_line(self) -> str:
        """The line as a sentence's subject: ``the cut`` / ``the line under place 8``."""
        return "the cut" if self.playoff else f"the line under place {self.n}"

    @property
    def the_line_short(self) -> str:
        """The line once the places are named: ``the cut`` / ``the line``."""
        return "the cut" if self.playoff else "the line"

    @property
    def it(self) -> str:
        """The top once named in the sentence: ``the cut`` / ``it``."""
        return "the cut" if self.playoff else "it"

    @property
    def cut_line(self) -> str:
        """The line's points as a value is named: ``cut line`` / ``line under place 8``."""
        return "cut line" if self.playoff else f"line under place {self.n}"

    @property
    def the_cut_line(self) -> str:
        """The line's points, the places once named: ``the cut line`` / ``the line``."""
        return "the cut line" if self.playoff else "the line"

    @property
    def line_title(self) -> str:
        """The line at the start of a sentence: ``The top-8 cut line`` / ``The line under
        place 8``."""
        return f"The top-{self.n} cut line" if self.playoff else f"The line under place {self.n}"

    @property
    def lines_heading(self) -> str:
        """A season's heading: ``Cut lines against field size`` / ``Place 8 against field
        size``."""
        return ("Cut lines against field size" if self.playoff
                else f"Place {self.n} against field size")

    @property
    def cut_to(self) -> str:
        """A chart's subtitle: ``cut to the top 8`` / ``line under place 8``."""
        return f"cut to the top {self.n}" if self.playoff else f"line under place {self.n}"

    @property
    def top_size(self) -> str:
        """A page's facts, before the number: ``cut to the top`` / ``the top places:``."""
        return "cut to the top" if self.playoff else "the top places:"

    @property
    def dashed_line_note(self) -> str:
        """What a chart's dashed line marks: ``dashed line: the cut`` / ``dashed line:
        under place 8``."""
        return "dashed line: " + ("the cut" if self.playoff else f"under place {self.n}")

    @property
    def fell(self) -> str:
        """Where the line fell, before "at N points": ``The top-8 cut fell`` / ``Place 8
        went``."""
        return f"The top-{self.n} cut fell" if self.playoff else f"Place {self.n} went"

    @property
    def chance(self) -> str:
        """A probability's name, ``P(…)``: ``cut`` / ``top 8``."""
        return "cut" if self.playoff else f"top {self.n}"

    @property
    def unsized(self) -> str:
        """The top when its size is not said: ``top cut`` / ``top places``."""
        return "top cut" if self.playoff else "top places"


def cut_words(rules: Ruleset | None, n: int, *, stated: bool = True) -> CutWords:
    """The words for the top ``n`` under ``rules`` (None: a card game's cut): a cut where
    the ruleset's Swiss ends in a playoff (:attr:`Ruleset.playoff`) and ``stated`` (the
    user or the files give the cut, :func:`the_top`), places otherwise.

    Examples
    --------
    >>> import swissframe as sf
    >>> cut_words(sf.rules.MTG, 8).name, cut_words(sf.rules.FIDE_2026, 8).name
    ('the top-8 cut', 'the top 8 places')
    >>> cut_words(sf.rules.FIDE, 3).heading, cut_words(sf.rules.POKEMON, 8).inside
    ('Places 3 and 4', 'in the cut')
    >>> cut_words(sf.rules.MTG, 8, stated=False).name
    'the top 8 places'
    """
    return CutWords(n, (rules is None or rules.playoff) and stated)


def playoff_size(results: pl.DataFrame) -> int | None:
    """The size of the event's own cut, where its rows hold its playoff: the players who
    played a playoff round (a bracket's byes included: a seed who skips the first round
    plays the next). None without playoff rows (a chess file, a Swiss-only export).

    >>> rows = pl.DataFrame({"phase": ["swiss"] * 3 + ["playoff"] * 6,
    ...     "player_id": ["A", "B", "C", "A", "B", "C", "D", "A", "C"]})
    >>> playoff_size(rows), playoff_size(rows.filter(pl.col("phase") == "swiss"))
    (4, None)
    """
    if "phase" not in results.columns:
        return None
    n = results.filter(pl.col("phase") == "playoff")["player_id"].drop_nulls().n_unique()
    return n if n >= 2 else None


def the_top(results: pl.DataFrame, top: int | None, rules: Ruleset
            ) -> tuple[int, Ruleset, str | None]:
    """The places an analysis of one event (``results``) looks at, and the ruleset its
    words read (:func:`cut_words`): the user's ``top``, else the event's own playoff
    (:func:`playoff_size`), else :data:`DEFAULT_TOP` *places*. Where neither gives a cut,
    a game that cuts is not said to (a 23-player prerelease with no elimination rounds had
    "the top-8 cut fell at 6 points"): ``rules`` with ``playoff=False``, and a note saying
    so (None where a cut is given, or the game has none).

    >>> import swissframe as sf
    >>> swiss = pl.DataFrame({"phase": ["swiss"] * 2, "player_id": ["A", "B"]})
    >>> n, rs, note = the_top(swiss, None, sf.rules.POKEMON)
    >>> n, cut_words(rs, n).name, note
    (8, 'the top 8 places', 'no playoff in the file; showing the top 8 places')
    >>> n, rs, note = the_top(swiss, 4, sf.rules.POKEMON)
    >>> n, cut_words(rs, n).name, note
    (4, 'the top-4 cut', None)
    """
    return top_words(*top_of(results, top), rules)


def top_words(n: int, stated: bool, rules: Ruleset) -> tuple[int, Ruleset, str | None]:
    """:func:`the_top` from :func:`top_of`'s answer (``n`` places, a cut ``stated`` or
    not), for a caller that read it already (the event report names the playoff it found).

    >>> import swissframe as sf
    >>> top_words(8, False, sf.rules.FIDE)[2] is None
    True
    """
    if stated or not rules.playoff:  # (chess: places, as ever)
        return n, rules, None
    return (n, dataclasses.replace(rules, playoff=False),
            f"no playoff in the file; showing the top {n} places")


def top_of(results: pl.DataFrame, top: int | None) -> tuple[int, bool]:
    """The size rule of :func:`the_top`: the places looked at, and whether a cut was stated
    (by the user's ``top`` or the event's own playoff).

    >>> top_of(pl.DataFrame({"phase": ["swiss"], "player_id": ["A"]}), None)
    (8, False)
    """
    if top is not None:
        return top, True
    own = playoff_size(results)
    return (own, True) if own is not None else (DEFAULT_TOP, False)


def reads_games(rules: Ruleset | None) -> bool:
    """Whether ``rules`` reads a match's games (a criterion of :data:`GAME_FUNCTIONS`, or
    points per game): its results are then told in game scores. None: a card game's.

    >>> import swissframe as sf
    >>> [reads_games(r) for r in (sf.rules.MTG, sf.rules.POKEMON, sf.rules.FIDE,
    ...                           sf.rules.MELEE_TWO_GAME, None)]
    [True, False, False, True, True]
    """
    if rules is None:
        return True
    return bool(rules.points_game_win or rules.points_sweep) or any(
        c.function in GAME_FUNCTIONS for c in (*rules.criteria, *rules.columns))


def _pts(value: object) -> str:
    from fractions import Fraction

    v = Fraction(str(value)) if not isinstance(value, Fraction) else value
    return "½" if v == Fraction(1, 2) else fraction_text(v)


def draw_word(rules: Ruleset | None) -> str:
    """What the game calls a drawn match (:attr:`Ruleset.draw_word`): ``tie`` in
    Pokémon (TRH §5.3.1, W/L/T), ``draw`` elsewhere (None: a card game's).

    >>> import swissframe as sf
    >>> draw_word(sf.rules.POKEMON), draw_word(sf.rules.FIDE), draw_word(None)
    ('tie', 'draw', 'draw')
    """
    return "draw" if rules is None else rules.draw_word


def draw_forms(rules: Ruleset | None) -> tuple[str, str, str]:
    """:func:`draw_word` as a verb: the word, its past and its ``-ing`` form.

    >>> import swissframe as sf
    >>> draw_forms(sf.rules.MTG), draw_forms(sf.rules.POKEMON)
    (('draw', 'drew', 'drawing'), ('tie', 'tied', 'tying'))
    """
    word = draw_word(rules)
    known = {"draw": ("draw", "drew", "drawing"), "tie": ("tie", "tied", "tying")}
    return known.get(word, (word, word, word))


def outcome_name(outcome: str, rules: Ruleset | None) -> str:
    """An outcome of the cut analyses (``win``, ``draw``, ``loss``, ``dropped``) in the
    game's words: a draw as :func:`draw_word` says it.

    >>> import swissframe as sf
    >>> [outcome_name(o, sf.rules.POKEMON) for o in ("win", "draw", "loss")]
    ['win', 'tie', 'loss']
    """
    return draw_word(rules) if outcome == "draw" else outcome


#: The advice :func:`swissframe.cut.id_advice` writes in its ``advice`` column (the card
#: games' words), one name each: the surfaces that read a table's advice compare with these.
BOTH_SAFE: Final = "both can draw in"
A_SAFE: Final = "draw safe for A only"
B_SAFE: Final = "draw safe for B only"
BOTH_OUT: Final = "a draw eliminates both: play"
NEITHER_SAFE: Final = "play (a draw is not safe)"

#: The intentional-draw advice above → the words of a game where a draw is an ordinary
#: result (chess: nothing tells an agreed draw from a played one, and there is no playoff
#: to draw into), said of the places (``{inside}``: ``in the top 8``), as short as the card
#: games' advice (a terminal's column).
_RESULT_ADVICE: Final = {
    BOTH_SAFE: "a draw keeps both {inside}",
    A_SAFE: "a draw keeps A {inside}",
    B_SAFE: "a draw keeps B {inside}",
    BOTH_OUT: "a draw leaves both out",
    NEITHER_SAFE: "neither is safe with a draw",
}


def advice_words(advice: str | None, rules: Ruleset | None, n: int) -> str:
    """A table's advice (:func:`swissframe.cut.id_advice`) as the surfaces say it: as it
    is in a game of intentional draws into a playoff (the card games), a draw called as
    the game calls it (:func:`draw_word`: Pokémon's ``tie safe for A only``);
    where a draw is half a win and nobody draws into a playoff (chess), what a draw does
    to the two players' places (``a draw keeps A in the top 8``), not "draw safe".

    >>> import swissframe as sf
    >>> advice_words("draw safe for A only", sf.rules.MTG, 8)
    'draw safe for A only'
    >>> advice_words("play (a draw is not safe)", sf.rules.POKEMON, 8)
    'play (a tie is not safe)'
    >>> advice_words("draw safe for A only", sf.rules.FIDE, 8)
    'a draw keeps A in the top 8'
    >>> advice_words("play (a draw is not safe)", sf.rules.FIDE, 8)
    'neither is safe with a draw'
    """
    from swissframe.compare import knows_intentional_draws

    if not advice:
        return ""
    if knows_intentional_draws(rules):
        return re.sub(r"\bdraw\b", draw_word(rules), advice)
    said = _RESULT_ADVICE.get(advice)
    words = cut_words(rules, n)
    return advice if said is None else said.format(inside=words.inside)


def result_words(rules: Ruleset) -> str:
    """What a match's results score, as the ruleset scores them (a draw as the game calls
    it, :func:`draw_word`).

    >>> import swissframe as sf
    >>> result_words(sf.rules.POKEMON), result_words(sf.rules.FIDE)
    ('a win scores 3 points, a tie 1, a loss 0', 'a win scores 1 point, a draw ½, a loss 0')
    """
    win = _pts(rules.points_win)
    return (f"a win scores {win} point{'' if win == '1' else 's'}, a {draw_word(rules)} "
            f"{_pts(rules.points_draw)}, a loss {_pts(rules.points_loss)}")


def outcome_words(outcomes: Sequence[tuple[int, int, int]], rules: Ruleset | None) -> str:
    """How an analysis weighs a table's results (a uniform model over the ruleset's
    ``match_outcomes``), in the ruleset's terms: the chances of a win and of a draw, and
    the game scores behind them where the ruleset reads games (:func:`reads_games`); a
    game whose tiebreakers read only the match (Pokémon, chess) names no 2-1, but what a
    result scores (:func:`result_words`).

    >>> import swissframe as sf
    >>> from swissframe.rules import BEST_OF_THREE, ONE_GAME
    >>> print(outcome_words(ONE_GAME, sf.rules.FIDE))
    a win for either player (1 chance in 3 each) or a draw (1 in 3): a win scores 1 point,
    a draw ½, a loss 0
    >>> outcome_words(BEST_OF_THREE, sf.rules.MTG)[-52:]
    'in games, 2-0, 2-1, 1-2, 0-2 or 0-0-3 equally likely'
    >>> print(outcome_words(BEST_OF_THREE, sf.rules.POKEMON))
    a win for either player (2 chances in 5 each) or a tie (1 in 5): a win scores 3 points,
    a tie 1, a loss 0
    """
    n = len(outcomes)
    wins = sum(o[0] > o[1] for o in outcomes)  # (as many losses: the space is mirrored)
    draws = n - 2 * wins
    words = (f"a win for either player ({wins} {'chance' if wins == 1 else 'chances'} in {n} "
             f"each) or a {draw_word(rules)} ({draws} in {n})")
    if rules is not None and not reads_games(rules):
        return f"{words}: {result_words(rules)}"
    scores = ["-".join(map(str, o if o[2] else o[:2])) for o in outcomes]
    return f"{words}: in games, {', '.join(scores[:-1])} or {scores[-1]} equally likely"


def stage_words(stage: str | None) -> str:
    """A stage's label (the ``stage`` column) in words: ``day2`` is ``day 2``; another
    label as it is; None: ``the round``.

    >>> stage_words("day2"), stage_words("Day_1"), stage_words("top cut"), stage_words(None)
    ('day 2', 'day 1', 'top cut', 'the round')
    """
    if stage is None:
        return "the round"
    m = re.fullmatch(r"day[\s_-]*(\d+)", stage.strip(), flags=re.IGNORECASE)
    return f"day {m.group(1)}" if m else stage


def absent_words(absent: str, stage: str | None, *, short: bool = False) -> str:
    """Why a player is not playing, in words (``absent`` as
    :func:`~swissframe.cut._round.absent_players` reads it): a player who did not reach
    the round's stage ``missed_stage`` did not make it (``did not make day 2``), another
    ``dropped``; ``short``: as a narrow table's column says it (``no day 2``, explained
    under the table by :func:`short_absence_legend`).

    >>> absent_words("missed_stage", "day2"), absent_words("dropped", "day2")
    ('did not make day 2', 'dropped')
    >>> absent_words("missed_stage", "day2", short=True)
    'no day 2'
    """
    if absent != "missed_stage":
        return "dropped"
    if short and stage is not None:
        return f"no {stage_words(stage)}"
    return f"did not make {stage_words(stage)}"


def short_absence_legend(notes: Sequence[str]) -> str | None:
    """The line under a table whose ``note`` column says an absence short
    (:func:`absent_words` ``short``): what ``no day 2`` means, for the notes shown; None
    when none is short.

    >>> short_absence_legend(["dropped", "no day 2"])
    'no day 2 = did not make day 2 (the cut after day 1; not a drop)'
    """
    said = [n for n in dict.fromkeys(notes) if n and n.startswith("no ")]
    if not said:
        return None
    return "; ".join(f"{n} = did not make {n[3:]}" for n in said) + (
        " (the cut after day 1; not a drop)" if said == ["no day 2"] else " (not a drop)")


def absence_notes(absent: pl.DataFrame, *, short: bool = False) -> pl.DataFrame:
    """:func:`absent_words` of each row of ``absent`` (columns ``event_id, player_id,
    absent, stage``): ``event_id, player_id, note``, the one way every surface (the
    terminal standings, ``explain``, the report) says why a player is not there
    (``short``: as a narrow table says it).

    >>> absence_notes(pl.DataFrame({"event_id": ["e", "e"], "player_id": ["A", "B"],
    ...     "absent": ["missed_stage", "dropped"], "stage": ["day2", "day2"]}))["note"].to_list()
    ['did not make day 2', 'dropped']
    """
    kinds = absent.select("absent", "stage").unique()
    said = kinds.with_columns(note=pl.Series(
        [absent_words(a, st, short=short) for a, st in kinds.iter_rows()], dtype=pl.String))
    return absent.join(said, on=["absent", "stage"], how="left", nulls_equal=True).select(
        "event_id", "player_id", "note")
