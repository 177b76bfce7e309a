"""A season of small event files for the reader rows (``tom``, ``trf``): one file per event.

Each event is :func:`gen.one_event` (Swiss pairing by points, byes, drops, draws), 16-96
players and 4-7 rounds, written as the format writes it: a Pokémon TOM save (players,
one pod, rounds of matches with TOM's outcome codes: 1 / 2 player 1 or 2 won, 3 a tie,
5 a bye) or a FIDE TRF-16 file (one ``001`` line per player, a 10-column block per round:
opponent, colour, result; a bye ``0000 - U``). Cached in ``benchmarks/.cache/``.

Usage::

    python benchmarks/season_files.py 1000     # writes .cache/season_1000/{tom,trf}/
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
from gen import CACHE, one_event


def _events(n: int) -> Iterator[tuple[int, pl.DataFrame]]:
    sizes = np.random.default_rng(7).integers((16, 4), (97, 8), (n, 2))
    for i, (players, rounds) in enumerate(sizes):
        yield i, one_event(int(players), int(rounds), seed=i)


def _numbers(ev: pl.DataFrame) -> dict[str, int]:
    ids = sorted(ev["player_id"].unique(), key=lambda p: int(p[1:]))
    return {p: k + 1 for k, p in enumerate(ids)}


def tom_text(ev: pl.DataFrame, name: str) -> str:
    """One event as a TOM save (one pod, Swiss rounds, no published standings)."""
    no = _numbers(ev)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<tournament type="2" stage="5" version="1.86" mode="LEAGUECHALLENGE">',
           f"<data><name>{name}</name><id>{name}</id><startdate>01/02/2026</startdate></data>",
           "<players>"]
    out += [f'<player userid="{n}"><firstname>P{n}</firstname><lastname>L{n}</lastname>'
            "</player>" for n in no.values()]
    out.append('</players><pods><pod category="2"><rounds>')
    for (rnd,), part in ev.sort("round", "player_id").group_by("round", maintain_order=True):
        out.append(f'<round number="{rnd}" type="2" stage="8"><matches>')
        table = 0
        for r in part.iter_rows(named=True):
            me = no[r["player_id"]]
            if r["opponent_id"] is None:
                out.append(f'<match outcome="5"><player userid="{me}"/></match>')
                continue
            them = no[r["opponent_id"]]
            if me > them:
                continue  # (each match once, from its lower number's seat)
            won, lost = r["games_won"], r["games_lost"]
            code = 1 if won > lost else 2 if lost > won else 3
            table += 1
            out.append(f'<match outcome="{code}"><player1 userid="{me}"/><player2 '
                       f'userid="{them}"/><tablenumber>{table}</tablenumber></match>')
        out.append("</matches></round>")
    out.append("</rounds></pod></pods></tournament>")
    return "\n".join(out) + "\n"


def trf_text(ev: pl.DataFrame, name: str) -> str:
    """One event as a TRF-16 file (declared points as the blocks give them)."""
    no = _numbers(ev)
    rounds = int(ev["round"].max())
    blocks: dict[int, list[str]] = {n: [" " * 8] * rounds for n in no.values()}
    points = dict.fromkeys(no.values(), 0.0)
    for r in ev.iter_rows(named=True):
        me = no[r["player_id"]]
        if r["opponent_id"] is None:
            block, got = "0000 - U", 1.0
        else:
            won, lost = r["games_won"], r["games_lost"]
            res, got = ("1", 1.0) if won > lost else ("0", 0.0) if lost > won else ("=", 0.5)
            colour = "w" if (me + r["round"]) % 2 else "b"
            them = no[r["opponent_id"]]
            if (them + r["round"]) % 2 == (me + r["round"]) % 2:  # (colours of a pair differ)
                colour = "w" if me < them else "b"
            block = f"{them:>4} {colour} {res}"
        blocks[me][r["round"] - 1] = block
        points[me] += got
    lines = [f"012 {name}", "042 2026/02/01", f"XXR {rounds}"]
    for n in no.values():
        head = (f"001 {n:>4} m    {'Player ' + str(n):<33} {'':>4} {'':<3} {'':>11} "
                f"{'':<10} {points[n]:>4.1f} {n:>4}  ")
        lines.append((head + "".join(f"{b:<10}" for b in blocks[n])).rstrip())
    return "\n".join(lines) + "\n"


def season(n: int) -> Path:
    """The folder of ``n`` events written both ways (``tom/``, ``trf/``), cached."""
    root = CACHE / f"season_{n}"
    done = root / ".done"
    if done.exists():
        return root
    for kind in ("tom", "trf"):
        (root / kind).mkdir(parents=True, exist_ok=True)
    for i, ev in _events(n):
        name = f"ev{i:05d}"
        (root / "tom" / f"{name}.tdf").write_text(tom_text(ev, name), encoding="utf-8")
        (root / "trf" / f"{name}.trf").write_text(trf_text(ev, name), encoding="utf-8")
    done.write_text("")
    return root


if __name__ == "__main__":
    print(season(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
