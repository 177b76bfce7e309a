"""An independent, plain-Python reference of every game preset, in exact Fractions.

Written from the rules reference (``docs/rules.md`` in the shared folder) only: no Polars and
no code from ``swissframe``. Input is a list of result rows (dicts with the keys of the long
table: ``round, player_id, opponent_id, games_won, games_lost, games_drawn`` and, for chess,
``unplayed``; ``double_loss`` True on both seats of a match both players lost), one
event. Output: ``{player_id: {criterion: Fraction | int | None}}`` plus
``rank`` and the exact sort key ``_key`` (:data:`PRESETS`: ranking keys; ties as exact
equality).

Readings chosen where rules.md leaves an option open (each the preset's documented choice):

- MTG (§1.3): a bye is a 2-0 win counted in the player's own MW% (``mtg-wer``: left out);
  floor 0.33 (``mtg-1/3``: 1/3); own GW% floored (``mtg-1999``: not).
- Pokémon (§2.2, §9 item 1): a round with no row before a player's last is a loss (§2.3
  late arrivals); tie = 1/2 in win %; bye rounds removed from win %; clamps
  [1/4, 1] / [1/4, 3/4] for a player who dropped; a dropped player's own values are taken
  at their last round (standings recomputed on the rounds up to it).
- Yu-Gi-Oh! (§3.1): MW% = MP / (3 × rounds), byes in own rate, no floor; the printed number
  ``AABBBCCC`` truncates.
- FaB (§3.3, §9 item 3): CTB over the rounds from the first to the last row, a missed
  middle round carrying the unchanged total; a bye counts as a match played in PML.
- melee two-game (§3.2): 3 per game won, +1 for a 2-0; OMP% = Σ opponents' points /
  Σ opponents' 7 × rounds (86/161 reading).
- SWU (§3.5): match wins → OMW% → GW% → OGW%, floor 33.33%.
- One Piece (§3.4): own win rate = wins / rounds, byes removed, draws worth 0; "minimum
  0.33" read as applying to every win rate, the player's own included (OP-F2 states it for
  the opponents' side only; the own-side floor is the summary's wording).
- FIDE (§4, §9 item 5): C.07 Art. 16 (2023 / 2026 / 2009), a registered player with no row
  in a round after their first row is absent; VUR = half_bye, zero_bye, forfeit_loss,
  absent; cuts remove VUR contributions first (Art. 16.5; not under the 2009 rule).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

Row = Mapping[str, Any]
Values = dict[str, dict[str, Any]]

F0 = Fraction(0)


def _outcome(r: Row) -> str:
    if r.get("double_loss"):  # both seats lost the match (rules.md §9 item 2, OP-F2)
        return "L"
    if r["games_won"] > r["games_lost"]:
        return "W"
    if r["games_won"] < r["games_lost"]:
        return "L"
    return "D"


def _is_bye(r: Row) -> bool:
    return r["opponent_id"] is None and _outcome(r) == "W"


def _by_player(rows: Iterable[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        out[r["player_id"]].append(r)
    for rs in out.values():
        rs.sort(key=lambda r: r["round"])
    return dict(out)


def _mean(xs: Sequence[Fraction | None]) -> Fraction | None:
    vals = [x for x in xs if x is not None]
    return sum(vals, F0) / len(vals) if vals else None


def _clamp(x: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    return min(hi, max(lo, x))


def _record(rs: Sequence[Row]) -> dict[str, int]:
    w = sum(_outcome(r) == "W" for r in rs)
    lo = sum(_outcome(r) == "L" for r in rs)
    d = sum(_outcome(r) == "D" for r in rs)
    byes = sum(_is_bye(r) for r in rs)
    return {"wins": w, "losses": lo, "draws": d, "byes": byes, "rounds_played": len(rs)}


def _opps(rs: Sequence[Row]) -> list[str]:
    return [r["opponent_id"] for r in rs if r["opponent_id"] is not None]


# ------------------------------------------------------------------------------ MTG family


def mtg_family(rows: Iterable[Row], *, floor: Fraction = Fraction(33, 100),
               bye_in_own: bool = True, floor_own_gw: bool = True,
               points: tuple[Fraction | int, ...] = (3, 1, 0, 3),
               draw_value: Fraction = Fraction(1, 3), drawn_game_value: Fraction = Fraction(1, 3),
               cap: Fraction = Fraction(1), cap_dropped: Fraction = Fraction(1)) -> Values:
    """MTR Appendix C (rules.md §1.2–1.3): MP, MW%, GW%, OMW%, OGW%. MW% = (wins + 1/3 ×
    draws) / rounds is MP / (3 × rounds); the keywords give the MTG-like variants."""
    pw, pd, pl_, pb = (Fraction(x) for x in points)
    rows = list(rows)
    last = max(r["round"] for r in rows)
    out: Values = {}
    for p, rs in _by_player(rows).items():
        rec = _record(rs)
        dropped = rs[-1]["round"] < last
        hi = cap_dropped if dropped else cap
        mp = (pw * (rec["wins"] - rec["byes"]) + pb * rec["byes"] + pd * rec["draws"]
              + pl_ * rec["losses"])
        own = rs if bye_in_own else [r for r in rs if not _is_bye(r)]
        won = sum(_outcome(r) == "W" for r in own) + draw_value * sum(
            _outcome(r) == "D" for r in own)
        mw = None if not own else _clamp(won / Fraction(len(own)), floor, hi)
        gp = sum(r["games_won"] + drawn_game_value * r["games_drawn"] for r in rs)
        ng = sum(r["games_won"] + r["games_lost"] + r["games_drawn"] for r in rs)
        raw = None if ng == 0 else Fraction(gp) / ng
        gw_opp = None if raw is None else _clamp(raw, floor, hi)
        out[p] = {**rec, "dropped": dropped, "match_points": mp, "mwp": mw,
                  "gwp": gw_opp if floor_own_gw or raw is None else min(hi, raw),
                  "_gw_opp": gw_opp, "_opps": _opps(rs)}
    for v in out.values():
        v["omwp"] = _mean([out[o]["mwp"] for o in v["_opps"]])
        v["ogwp"] = _mean([out[o]["_gw_opp"] for o in v["_opps"]])
    return out


# ------------------------------------------------------------------------------ Pokémon


def _pokemon_once(rows: Sequence[Row], tie: Fraction) -> Values:
    bp = _by_player(rows)
    last = max(r["round"] for r in rows)
    out: Values = {}
    for p, rs in bp.items():
        rec = _record(rs)
        dropped = rs[-1]["round"] < last
        played = [r for r in rs if not _is_bye(r)]
        w = sum(_outcome(r) == "W" for r in played)
        t = sum(_outcome(r) == "D" for r in played)
        wp = None if not played else _clamp((w + tie * t) / Fraction(len(played)), Fraction(1, 4),
                                            Fraction(3, 4) if dropped else Fraction(1))
        out[p] = {**rec, "dropped": dropped, "_wp": wp, "_opps": _opps(rs),
                  "match_points": Fraction(3 * rec["wins"] + rec["draws"])}
    for v in out.values():
        v["omwp"] = _mean([out[o]["_wp"] for o in v["_opps"]])
    for v in out.values():
        v["oomwp"] = _mean([out[o]["omwp"] for o in v["_opps"]])
    return out


def _missed_rounds_lost(rows: Sequence[Row]) -> list[Row]:
    """TRH §5.2.2: a late arrival loses every round already played; §5.3.3.1: a player who
    completed the event is divided by its rounds. So each round the event played before a
    player's last in which they have no row is a loss (none after their last: a drop)."""
    played = sorted({r["round"] for r in rows})  # the rounds the event played
    losses = []
    for p, rs in _by_player(rows).items():
        have = {r["round"] for r in rs}
        losses += [{"round": n, "player_id": p, "opponent_id": None, "games_won": 0,
                    "games_lost": 1, "games_drawn": 0}
                   for n in played if n < rs[-1]["round"] and n not in have]
    return [*rows, *losses]


def pokemon(rows: Iterable[Row], *, tie: Fraction = Fraction(1, 2), freeze: bool = True) -> Values:
    """TRH §5.2.2, §5.3.3.1, §5.5.1.1 (rules.md §2.2–2.3; §9 item 1: drop-round freeze)."""
    given = list(rows)
    out = _pokemon_once(_missed_rounds_lost(given), tie)
    if freeze:
        for p, v in out.items():
            if v["dropped"]:
                r_d = max(r["round"] for r in given if r["player_id"] == p)
                # the standings after round r_d: of the rows up to it, whose missed rounds
                # are those before each player's last row up to r_d
                snap = _pokemon_once(
                    _missed_rounds_lost([r for r in given if r["round"] <= r_d]), tie)[p]
                for k in ("match_points", "omwp", "oomwp"):
                    v[k] = snap[k]
    return out


def _h2h_winner(rows: Sequence[Row], a: str, b: str) -> str | None:
    """The player who won more of the matches between a and b (a double loss is won by
    neither), or None."""
    def wins(x: str, y: str) -> int:
        return sum(_outcome(r) == "W" for r in rows
                   if r["player_id"] == x and r["opponent_id"] == y)
    wa, wb = wins(a, b), wins(b, a)
    return a if wa > wb else b if wb > wa else None


# ------------------------------------------------------------------------------ Yu-Gi-Oh!


def yugioh(rows: Iterable[Row]) -> Values:
    """KDE policy (rules.md §3.1): points → OMW% → OOMW%; printed number (truncated)."""
    out = mtg_family(rows, floor=F0, floor_own_gw=False)
    for v in out.values():
        v["oomwp"] = _mean([out[o]["omwp"] for o in v["_opps"]])
    def mille(x: Fraction | None) -> int:  # a 3-digit field: 100% prints 999, none 000
        return 0 if x is None else min(999, int(x * 1000))

    for v in out.values():
        v["ygo_tiebreaker"] = (int(v["match_points"]) * 10**6 + mille(v["omwp"]) * 1000
                               + mille(v["oomwp"]))
    return out


def yugioh_ddd(rows: Iterable[Row]) -> Values:
    """``yugioh`` with ``DDD`` (rules.md §3.1 [S]): the sum of the squares of the rounds the
    player lost, a round counted as its place among the rounds the event played (numbered
    1, 2, 4, a loss in the last is 3² = 9); the printed number gains the block, at most 999."""
    rows = list(rows)
    out = yugioh(rows)
    place = {n: i + 1 for i, n in enumerate(sorted({r["round"] for r in rows}))}
    for p, rs in _by_player(rows).items():
        ddd = sum(place[r["round"]] ** 2 for r in rs if _outcome(r) == "L")
        out[p]["lost_round_squares"] = ddd
        out[p]["ygo_tiebreaker"] = out[p]["ygo_tiebreaker"] * 1000 + min(999, ddd)
    return out


def digimon(rows: Iterable[Row]) -> Values:
    """rules.md §3.6: MTG-like (floor 0.33), points → OMW% → own win rate → OOMW%."""
    out = mtg_family(rows)
    for v in out.values():
        v["oomwp"] = _mean([out[o]["omwp"] for o in v["_opps"]])
    return out


# ------------------------------------------------------------------------------ FaB


def fab(rows: Iterable[Row]) -> Values:
    """FaB policy (rules.md §3.3, FAB-F1/F2; §9 item 3)."""
    rows = list(rows)
    bp = _by_player(rows)
    # the rounds of the tournament are the rounds the event played: numbered 1, 2, 4, it
    # played three (a number no row has is not a round in which CTB is divided by 4)
    event = sorted({r["round"] for r in rows})
    out: Values = {}
    for p, rs in bp.items():
        rec = _record(rs)
        by_round = {r["round"]: (1 if _outcome(r) == "W" else 0) for r in rs}
        ctb, total = F0, 0
        for rnd in event:
            if not rs[0]["round"] <= rnd <= rs[-1]["round"]:
                continue
            total += by_round.get(rnd, 0)
            ctb = ctb / 4 + total
        played = len(rs) - rec["byes"]  # a bye is not a match played (the policy)
        out[p] = {**rec, "match_points": Fraction(rec["wins"]), "ctb": ctb,
                  # (no match played, only byes: no loss, PML 0 — class 137)
                  "pml": Fraction(rec["losses"], played) if played else F0,
                  "_opps": _opps(rs)}
    for v in out.values():
        v["omlp"] = _mean([out[o]["pml"] for o in v["_opps"]])
        v["octb"] = _mean([out[o]["ctb"] for o in v["_opps"]])
    return out


# ------------------------------------------------------------------------------ melee two-game


def two_game(rows: Iterable[Row]) -> Values:
    """melee.gg two-game matches (rules.md §3.2 MEL, LOR-F1)."""
    bp = _by_player(rows)
    out: Values = {}

    def pts(r: Row) -> int:
        sweep = r["games_won"] >= 2 and r["games_lost"] == 0 and r["games_drawn"] == 0
        return 3 * r["games_won"] + (1 if sweep else 0)

    for p, rs in bp.items():
        out[p] = {**_record(rs), "match_points": Fraction(sum(pts(r) for r in rs)),
                  "game_wins": sum(r["games_won"] for r in rs), "_opps": _opps(rs)}
    for v in out.values():
        num = sum((out[o]["match_points"] for o in v["_opps"]), F0)
        den = sum(7 * out[o]["rounds_played"] for o in v["_opps"])
        v["omp"] = num / den if den else None
    return out


# ------------------------------------------------------------------------------ SWU, One Piece


def swu(rows: Iterable[Row]) -> Values:
    """melee.gg SWU (rules.md §3.5): match wins → OMW% → GW% → OGW%, floor 33.33%."""
    out = mtg_family(rows, floor=Fraction(3333, 10000))
    for v in out.values():
        v["match_wins"] = v["wins"]
    return out


def one_piece(rows: Iterable[Row]) -> Values:
    """Bandai TRM §5.4 summary (rules.md §3.4, OP-F1/F2)."""
    bp = _by_player(rows)
    out: Values = {}
    for p, rs in bp.items():
        rec = _record(rs)
        played = [r for r in rs if not _is_bye(r)]
        raw = None if not played else Fraction(sum(_outcome(r) == "W" for r in played),
                                                len(played))
        out[p] = {**rec, "match_points": Fraction(3 * rec["wins"] + rec["draws"]),
                  "mwp": None if raw is None else max(Fraction(33, 100), raw),
                  "_opps": _opps(rs)}
    for v in out.values():
        v["omwp"] = _mean([out[o]["mwp"] for o in v["_opps"]])
    return out


# ------------------------------------------------------------------------------ FIDE

VUR = ("half_bye", "zero_bye", "forfeit_loss", "absent")
_UNPLAYED_POINTS = {"forfeit_win": Fraction(1), "forfeit_loss": F0, "pairing_bye": Fraction(1),
                    "full_bye": Fraction(1), "half_bye": Fraction(1, 2), "zero_bye": F0,
                    "absent": F0}


def _chess_entries(rows: Sequence[Row], n: int) -> dict[str, list[dict[str, Any]]]:
    """Per player, one entry per round from their first row to the last round of the event:
    a round with no row after the first row is an absence (rules.md §9 item 5)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for p, rs in _by_player(rows).items():
        by_round = {r["round"]: r for r in rs}
        entries = []
        for rnd in range(rs[0]["round"], n + 1):
            r = by_round.get(rnd)
            if r is None:
                entries.append({"round": rnd, "opp": None, "kind": "absent", "pts": F0,
                                "otb": False, "res": "L"})
                continue
            kind = r.get("unplayed")
            res = _outcome(r)
            if kind is None and r["opponent_id"] is None:
                kind = "pairing_bye" if res == "W" else "half_bye" if res == "D" else "absent"
            pts = _UNPLAYED_POINTS[kind] if kind else {"W": Fraction(1), "D": Fraction(1, 2),
                                                        "L": F0}[res]
            entries.append({"round": rnd, "opp": r["opponent_id"] or r.get(
                "scheduled_opponent_id"), "kind": kind, "pts": pts, "otb": kind is None,
                            "res": res})
        out[p] = entries
    return out


def fide(rows: Iterable[Row], *, rule: str = "fide-2023",
         trailing: Sequence[str] = VUR) -> Values:
    """FIDE C.07 (rules.md §4.1–4.3, CH-F1..F3): score, BH-C1, BH, SB, (DE), WIN; BH-M1,
    PS, WON. DE is filled in by :func:`fide_direct_encounter` (it needs the tie groups).
    ``trailing``: the VUR kinds an opponent's trailing VURs become draws for (Art. 16.3;
    ``Ruleset.trailing_draw_kinds``)."""
    # the event's rounds are the rounds it played, counted from 1 whatever their numbers
    # (numbered 1, 2, 4: three rounds, the last is the third; no absence in a number no row
    # of the event has)
    place = {k: i + 1 for i, k in enumerate(sorted({r["round"] for r in rows}))}
    rows = [{**r, "round": place[r["round"]]} for r in rows]
    n = len(place)
    ent = _chess_entries(rows, n)
    score = {p: sum((e["pts"] for e in es), F0) for p, es in ent.items()}
    half = Fraction(1, 2)

    def adjusted(o: str) -> Fraction:
        es = ent[o]
        if rule == "fide-2009":  # every unplayed game of an opponent counts as a draw
            return score[o] + sum((half - e["pts"] for e in es if not e["otb"]), F0)
        adj = score[o]
        for e in reversed(es):  # trailing VURs count as draws (Art. 16.3)
            if e["kind"] not in VUR:
                break
            if e["kind"] in trailing:
                adj += half - e["pts"]
        return adj

    out: Values = {}
    for p, es in ent.items():
        contrib: list[tuple[Fraction, bool, Fraction]] = []  # (value, is VUR, points scored)
        running = F0
        ps = F0
        for e in es:
            before = running
            running += e["pts"]
            ps += running
            if e["otb"]:
                val = adjusted(e["opp"])
            elif rule == "fide-2009":
                val = before + (1 - e["pts"]) + half * (n - e["round"])
            else:
                val = score[p]
                if rule == "fide-2026":
                    if e["kind"] in ("forfeit_win", "forfeit_loss") and e["opp"] is not None:
                        val = min(val, adjusted(e["opp"]))
                    else:
                        val = min(val, half * n)
            contrib.append((val, e["kind"] in VUR, e["pts"]))
        bh = sum((c[0] for c in contrib), F0)

        def cut_low(cs: list[tuple[Fraction, bool, Fraction]]) -> list[tuple[Fraction, bool,
                                                                                Fraction]]:
            if not cs:
                return cs
            # Art. 16.5 (2023 text on): VUR contributions are cut first; the 2009 rule
            # (rules.md §4.2) has no such clause: the lowest contribution goes
            vurs = [c for c in cs if c[1]] if rule != "fide-2009" else []
            drop = min(vurs, key=lambda c: c[0]) if vurs else min(cs, key=lambda c: c[0])
            rest = list(cs)
            rest.remove(drop)
            return rest

        c1 = cut_low(contrib)
        m1 = list(c1)
        if m1:
            m1.remove(max(m1, key=lambda c: c[0]))
        out[p] = {"match_points": score[p], "bh": bh, "bh_c1": sum((c[0] for c in c1), F0),
                  "bh_m1": sum((c[0] for c in m1), F0),
                  "sb": sum((c[0] * c[2] for c in contrib), F0), "ps": ps,
                  "win": sum(e["pts"] == 1 for e in es),
                  "won": sum(e["otb"] and e["res"] == "W" for e in es),
                  "_otb": {(e["opp"], e["round"]): e["pts"] for e in es if e["otb"]}}
    return out


def _de_classes(group: list[str], games: Mapping[tuple[str, str], list[Fraction]],
                win: Fraction) -> list[list[str]]:
    """FIDE C.07 Art. 6 (2024 and 2026 texts) on one group of tied players: the group in
    direct-encounter order, as classes of players it leaves equal.

    6.1 / 6.1.2: each player's points against the others, a pair met more than once
    counting the average of its games. 6.2: every pair met: rank by those points, each
    set of players still equal ranked by Art. 6 again. 6.3: not every pair met: the
    player whose points are above what every other player could reach by winning every
    encounter they did not have ranks first, then the same for the next; Art. 6 again on
    the rest."""
    if len(group) < 2:
        return [group]

    def met(p: str, q: str) -> bool:
        return bool(games.get((p, q)))

    points = {p: sum((sum(games[p, q], F0) / len(games[p, q]) for q in group
                      if q != p and met(p, q)), F0) for p in group}
    missing = {p: sum(1 for q in group if q != p and not met(p, q)) for p in group}
    if not any(missing.values()):  # 6.2
        levels = sorted(set(points.values()), reverse=True)
        if len(levels) == 1:
            return [group]
        return [c for lv in levels
                for c in _de_classes([p for p in group if points[p] == lv], games, win)]
    reach = {p: points[p] + missing[p] * win for p in group}  # 6.3
    order = sorted(group, key=lambda p: points[p], reverse=True)
    first: list[list[str]] = []
    for i, p in enumerate(order):
        if not all(points[p] > reach[q] for q in order[i + 1:]):
            break
        first.append([p])
    if not first:
        return [group]
    rest = order[len(first):]
    return first + (_de_classes(rest, games, win) if rest else [])


def fide_direct_encounter(vals: Values, before: Sequence[str]) -> None:
    """DE (C.07 Art. 6; rules.md §4.1) among the players tied on every criterion in
    ``before``, over the games played over the board: the number of players of the tie
    group that direct encounter ranks below the player (:func:`_de_classes`)."""
    groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for p, v in vals.items():
        groups[tuple(v[c] for c in before)].append(p)
    for ps in groups.values():
        games: dict[tuple[str, str], list[Fraction]] = defaultdict(list)
        for p in ps:
            for (o, _r), pt in vals[p]["_otb"].items():
                if o in ps:
                    games[p, o].append(pt)
        classes = _de_classes(sorted(ps), games, Fraction(1))
        below = len(ps)
        for c in classes:
            below -= len(c)
            for p in c:
                vals[p]["direct_encounter"] = below


# ------------------------------------------------------------------------------ dispatch

#: preset → (reference function, ranking keys as (name, higher is better), random tail).
PRESETS: dict[str, tuple[Any, tuple[tuple[str, bool], ...], bool]] = {
    "mtg": (mtg_family, (("match_points", True), ("omwp", True), ("gwp", True),
                                         ("ogwp", True)), False),
    "mtg-1/3": (lambda rs: mtg_family(rs, floor=Fraction(1, 3)),
                (("match_points", True), ("omwp", True), ("gwp", True), ("ogwp", True)), False),
    "mtg-1999": (lambda rs: mtg_family(rs, floor_own_gw=False),
                 (("match_points", True), ("omwp", True), ("gwp", True), ("ogwp", True)), False),
    "mtg-wer": (lambda rs: mtg_family(rs, bye_in_own=False),
                (("match_points", True), ("omwp", True), ("gwp", True), ("ogwp", True)), False),
    "pokemon": (pokemon, (("match_points", True), ("omwp", True), ("oomwp", True)), True),
    "pokemon-2016": (pokemon, (("match_points", True), ("late", False), ("omwp", True),
                               ("oomwp", True)), True),
    "yugioh": (yugioh, (("match_points", True), ("omwp", True), ("oomwp", True)), False),
    "yugioh-ddd": (yugioh_ddd, (("match_points", True), ("omwp", True), ("oomwp", True),
                                ("lost_round_squares", True)), False),
    "fab": (fab, (("match_points", True), ("ctb", True), ("pml", False), ("omlp", False),
                  ("octb", True)), True),
    "melee-two-game": (two_game, (("match_points", True), ("game_wins", True), ("omp", True)),
                       False),
    "swu": (swu, (("match_wins", True), ("omwp", True), ("gwp", True), ("ogwp", True)), False),
    "one-piece": (one_piece, (("match_points", True), ("mwp", True), ("omwp", True)), False),
    "digimon": (digimon, (("match_points", True), ("omwp", True), ("mwp", True),
                          ("oomwp", True)), False),
}
_FIDE_KEYS = (("match_points", True), ("bh_c1", True), ("bh", True), ("sb", True),
              ("direct_encounter", True), ("win", True))


def _fide_rule(rule: str) -> Any:
    return lambda rs: fide(rs, rule=rule)


for _name, _rule in (("fide", "fide-2023"), ("fide-2026", "fide-2026"),
                     ("fide-2009", "fide-2009")):
    PRESETS[_name] = (_fide_rule(_rule), _FIDE_KEYS, False)


def _key(v: Mapping[str, Any], keys: Sequence[tuple[str, bool]]) -> tuple[Any, ...]:
    """A sort key, larger = better; None below every value."""
    out: list[Any] = []
    for name, desc in keys:
        x = v.get(name)
        out.append((0, 0) if x is None else (1, x if desc else -x))
    return tuple(out)


def reference(rows: Iterable[Row], preset: str) -> Values:
    """Every criterion value of ``preset`` per player, plus ``_key`` (the exact sort key) and
    ``rank`` (competition rank on the exact key; for presets that end in a random order the
    rank is the first place of the player's group of exact equals)."""
    rows = [r for r in rows if r.get("phase", "swiss") == "swiss"]  # playoffs never count
    fn, keys, _random = PRESETS[preset]
    vals: Values = fn(rows)
    if preset.startswith("fide"):
        fide_direct_encounter(vals, [k for k, _ in keys[:4]])
    if preset == "pokemon-2016":  # tardiness (rules.md §8 SEED-F2, §9 item 6)
        first = min(r["round"] for r in rows)
        for p, v in vals.items():
            # late: no round-1 row other than an unopposed loss (the only signal of a late
            # arrival in the data)
            v["late"] = int(not any(
                r["player_id"] == p and r["round"] == first
                and not (r["opponent_id"] is None and _outcome(r) == "L") for r in rows))
    if preset.startswith("pokemon"):  # head-to-head: exactly two still tied, and they met
        groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
        for p, v in vals.items():
            groups[_key(v, keys)].append(p)
        for v in vals.values():
            v["_h2h"] = 0
        for ps in groups.values():
            if len(ps) == 2:
                w = _h2h_winner(rows, ps[0], ps[1])
                if w is not None:
                    vals[w]["_h2h"] = 1
        keys = (*keys, ("_h2h", True))
    if preset == "pokemon-2016":  # standing of the last-round opponent (lower first)
        prelim = sorted((_key(v, keys) for v in vals.values()), reverse=True)
        for p, v in vals.items():
            last_opp = max((r for r in rows if r["player_id"] == p),
                           key=lambda r: r["round"])["opponent_id"]
            v["last_opponent_rank"] = (None if last_opp is None
                                       else prelim.index(_key(vals[last_opp], keys)) + 1)
        keys = (*keys, ("last_opponent_rank", False))
    for v in vals.values():
        v["_key"] = _key(v, keys)
    ordered = sorted((v["_key"] for v in vals.values()), reverse=True)
    for v in vals.values():
        v["rank"] = ordered.index(v["_key"]) + 1
    return vals
