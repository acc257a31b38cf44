"""The campaign's shape as the tracker reads it: the typed view of `game.campaign` built in
`compiler/campaign_model.py` (the content's own model, where its raw reads are), re-exported here."""

from __future__ import annotations

from scarbook.compiler.campaign_model import (
    NO_ENTRY,
    ROLES,
    TEAM_RESULTS,
    CampaignModel,
    Chapters,
    Draft,
    GameType,
    Level,
    Obligation,
    OwedWhen,
    OwedWhenOpened,
    PieceKind,
    ScenarioNode,
    ScheduleEntry,
    StartCheck,
    Step,
    Token,
    Track,
    cite_of,
)

__all__ = ["NO_ENTRY", "ROLES", "TEAM_RESULTS", "CampaignModel", "Chapters", "Draft", "GameType", "Level",
           "Obligation", "OwedWhen", "OwedWhenOpened", "PieceKind", "ScenarioNode", "ScheduleEntry", "StartCheck",
           "Step", "Token", "Track", "cite_of"]
