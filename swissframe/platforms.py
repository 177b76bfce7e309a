"""Platform rulesets (public path; implemented in :mod:`swissframe.rules.platforms`)."""

from __future__ import annotations

from swissframe.rules.platforms import (
    CARDSREALM,
    CARDSREALM_E1,
    CARDSREALM_E2_START,
    MANATRADERS,
    MELEE_E1,
    MELEE_E2,
    MELEE_E3,
    PLATFORMS,
    ROUNDS_PLAYED,
    TOPDECK,
    assign_rulesets,
    melee,
    option,
    platform_values,
    prepare_results,
    publish,
    rulesets_by_name,
)

__all__ = [
    "CARDSREALM",
    "CARDSREALM_E1",
    "CARDSREALM_E2_START",
    "MANATRADERS",
    "MELEE_E1",
    "MELEE_E2",
    "MELEE_E3",
    "PLATFORMS",
    "ROUNDS_PLAYED",
    "TOPDECK",
    "assign_rulesets",
    "melee",
    "option",
    "platform_values",
    "prepare_results",
    "publish",
    "rulesets_by_name",
]
