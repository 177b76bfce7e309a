"""The tiebreaker registry (public path; implemented in :mod:`swissframe.engine.tiebreakers`)."""

from __future__ import annotations

from swissframe.engine.tiebreakers import (
    GROUP_TIEBREAKERS,
    TIEBREAKERS,
    Context,
    GroupContext,
    decode_ygo_number,
    register_group_tiebreaker,
    register_tiebreaker,
)

__all__ = [
    "GROUP_TIEBREAKERS",
    "TIEBREAKERS",
    "Context",
    "GroupContext",
    "decode_ygo_number",
    "register_group_tiebreaker",
    "register_tiebreaker",
]
