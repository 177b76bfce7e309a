"""What a user reads in a real terminal (80 columns) from commands on a chess (TRF) and a
Pokémon (TOM) event: the players under the names the file gives them, the game's own
vocabulary, and no progress bar left on the screen."""

from __future__ import annotations

from tests.cli.test_terminal import STORE, _fits, run_raw, screen


def test_cut_simulation_bar_is_erased() -> None:
    # `cut` with simulated probabilities left "simulating: 100%|████| 4/4 …" on the screen
    # above the answer (tqdm's default leave=True), though every other bar is erased
    (code, raw), = run_raw([["cut", STORE, "--top", "4", "--exact-limit", "0"]])
    assert code == 0
    assert "simulating" in raw  # drawn on a terminal stderr …
    lines = screen(raw)
    assert not any("simulating" in x for x in lines), lines  # … and erased
    assert "Top 4 before round 4" in "\n".join(lines)
    _fits(lines)
