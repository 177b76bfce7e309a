"""``swissframe simulate``: generate synthetic Swiss events to Parquet (or CSV).

Wiring for the lead's ``cli.py``::

    from swissframe.cli.commands import simulate as simulate_cmd
    simulate_cmd.add_parser(subparsers)      # registers "simulate", sets func=run
    ...
    return args.func(args)                   # or simulate_cmd.run(args)
"""

from __future__ import annotations

import argparse
import contextlib
import warnings
from pathlib import Path

import polars as pl

from swissframe._display import count
from swissframe.cli._common import (
    add_quiet,
    atomic_path,
    counting,
    non_negative_int,
    positive_int,
    progress,
    wrote,
)
from swissframe.errors import DataWarning, SwissframeError
from swissframe.rules._infer import RULESET_COLUMN
from swissframe.simulate._simulate import SIM_RULES, IdPolicy, Simulation, simulate

__all__ = ["add_parser", "parse_players", "run"]


def parse_players(text: str) -> int | range | list[int]:
    """Parse ``--players``: ``200``, a range ``32-1500`` or a list ``32,64,128``.

    Examples
    --------
    >>> parse_players("200"), parse_players("32-40"), parse_players("8,16")
    (200, range(32, 41), [8, 16])
    """
    msg = (f"{text!r} is not a player count. Hint: use 200, a range like 32-1500 or a "
           "list like 32,64,128 (at least 2 players)")
    try:
        if "," in text:
            out: int | range | list[int] = [int(x) for x in text.split(",") if x.strip()]
            counts = list(out)  # type: ignore[arg-type]
        elif "-" in text.strip("-"):
            lo, hi = text.split("-", 1)
            out = range(int(lo), int(hi) + 1)
            counts = [int(lo), int(hi)] if out else []
        else:
            out = int(text)
            counts = [out]
    except ValueError:
        raise argparse.ArgumentTypeError(msg) from None
    if not counts or min(counts) < 2:
        raise argparse.ArgumentTypeError(msg)
    return out


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``simulate`` subcommand.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="swissframe")
    >>> add_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["simulate", "--players", "64", "-o", "x.parquet"])
    >>> args.players, args.events, args.rules
    (64, 1, 'mtg')
    """
    p = subparsers.add_parser(
        "simulate", help="generate synthetic Swiss events (results long table)",
        description="Simulate Swiss events with real pairing rules and write the results "
                    "table (long form) to Parquet or CSV.")
    p.add_argument("--players", type=parse_players, required=True,
                   help="players per event: 200, a range 32-1500 or a list 32,64,128")
    p.add_argument("--events", type=positive_int, default=1, metavar="N",
                   help="number of events (default 1)")
    p.add_argument("--rules", choices=sorted(SIM_RULES), default="mtg",
                   help="pairing/round rules (default mtg)")
    p.add_argument("--rounds", type=positive_int, default=None, metavar="N",
                   help="Swiss rounds (default: the rules' round table by attendance)")
    p.add_argument("--seed", type=non_negative_int, default=0, metavar="N",
                   help="random seed (default 0)")
    p.add_argument("--skill", type=float, default=0.5, metavar="SD",
                   help="std. dev. of latent ratings, logit units per game (default 0.5)")
    p.add_argument("--drop-rate", type=float, default=0.02, metavar="P",
                   help="per-round drop probability in contention (default 0.02)")
    p.add_argument("--id-policy", choices=["likely", "safe", "none"], default="likely",
                   help="intentional draws in the final round (default likely)")
    p.add_argument("--id-rounds", type=non_negative_int, default=1, metavar="N",
                   help="how many final rounds allow intentional draws (default 1)")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="OUT",
                   help="results file (.parquet or .csv)")
    p.add_argument("--players-output", type=Path, default=None, metavar="OUT",
                   help="optional players table file (.parquet or .csv)")
    p.add_argument("--events-output", type=Path, default=None, metavar="OUT",
                   help="optional events table file (.parquet or .csv)")
    add_quiet(p)
    p.set_defaults(func=run)


def _write(frame: pl.DataFrame, path: Path, tmp: Path) -> None:
    if path.suffix.lower() == ".csv":
        frame.write_csv(tmp)
    else:
        frame.write_parquet(tmp, compression="zstd")


def run(args: argparse.Namespace) -> int:
    """Run ``swissframe simulate``; returns 0 (errors raise; exit status 2 in the CLI).

    Examples
    --------
    >>> import argparse, tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "s.parquet"
    >>> ns = argparse.Namespace(players=32, events=2, rules="pokemon", rounds=None, seed=1,
    ...     skill=0.5, drop_rate=0.02, id_policy="likely", id_rounds=1, output=out,
    ...     players_output=None, events_output=None, quiet=True)
    >>> run(ns), out.exists()
    (0, True)
    """

    for suffix_path in (args.output, args.players_output, args.events_output):
        if suffix_path is not None and suffix_path.suffix.lower() not in (".parquet", ".csv"):
            msg = (f"cannot write {str(suffix_path)!r}: the simulation is written as .parquet "
                   "or .csv. Hint: -o season.parquet.")
            raise SwissframeError(msg)
    if not 0 <= args.drop_rate <= 1 or args.skill < 0:
        msg = (f"--drop-rate {args.drop_rate} / --skill {args.skill}: a drop rate is a "
               "probability in [0, 1] and the skill spread is ≥ 0. Hint: --drop-rate 0.02.")
        raise SwissframeError(msg)
    outputs = {"results": args.output, "players": args.players_output,
               "events": args.events_output}
    with contextlib.ExitStack() as stack:
        # (every output's temporary file made before the simulation, and each renamed only
        # once all are written: an output that could not be written was found after the
        # simulation had run, and left the outputs before it written — bad data 130)
        tmps = {what: stack.enter_context(atomic_path(path))
                for what, path in outputs.items() if path is not None}
        with progress(args, total=args.events, unit="event", desc="simulating",
                      bar_format=counting("event")) as bar:
            sim = simulate(
                args.players, args.rounds, args.rules, seed=args.seed, n_events=args.events,
                skill=args.skill, drop_rate=args.drop_rate,
                id_policy=IdPolicy(mode=args.id_policy, rounds=args.id_rounds),
                progress=bar.update)
        # (the file names its game: read back, rules="auto" ranks it by the rules it was
        # simulated with; a Pokémon season was read as MTG)
        frames = {"results": sim.results.with_columns(pl.lit(args.rules).alias(RULESET_COLUMN)),
                  "players": sim.players, "events": sim.events}
        for what, tmp in tmps.items():
            _write(frames[what], outputs[what], tmp)
    said = {"results": f"{count(sim.results.height, 'result row')}, "
                       f"{count(sim.events.height, 'event')}, "
                       f"{count(sim.players.height, 'player')}",
            "players": count(sim.players.height, "player"),
            "events": count(sim.events.height, "event")}
    for what in tmps:
        wrote(args, outputs[what], said[what])
    _say_short(sim, args)
    return 0


def _say_short(sim: Simulation, args: argparse.Namespace) -> None:
    """A warning where events played fewer rounds than planned (every player had
    dropped): the output is not what was asked for, and a line saying what was asked
    ("5 rounds") would be wrong. The events table's ``swiss_rounds`` holds the rounds
    played, ``rounds_planned`` those asked for."""
    short = sim.short_events
    if not short.height:
        return
    played = sorted(set(short["swiss_rounds"].to_list()))
    planned = sorted(set(short["rounds_planned"].to_list()))
    said = (f"{played[0]} round" + ("s" if played[0] != 1 else "") if len(played) == 1
            else f"{played[0]} to {played[-1]} rounds")
    of = (f"{planned[0]}" if len(planned) == 1 else f"{planned[0]} to {planned[-1]}")
    which = ("every event" if short.height == sim.events.height
             else f"{short.height:,} of the {sim.events.height:,} events")
    msg = (f"{which} played only {said} of the {of} planned: every player had dropped by "
           f"then (--drop-rate {args.drop_rate:g}). Hint: a lower --drop-rate plays every "
           "round; the events table (--events-output) gives each event's rounds played "
           "(swiss_rounds) and planned (rounds_planned).")
    warnings.warn(msg, DataWarning, stacklevel=2)
