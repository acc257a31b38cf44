"""The `campaign` command group and its `game` subgroup, lazy (`scarbook.cli.lazy`): only the module of the
command being run is imported. Typer is imported here, never in the command modules (`scarbook.cli.opt`)."""

from __future__ import annotations

from scarbook.cli.lazy import LazyGroup, lazy_app

_HERE = "scarbook.cli.campaign"


class CampaignGroup(LazyGroup):
    commands_to_load = {
        "new": (f"{_HERE}.new:new", "Create a campaign file: the game, a fingerprint of its content, and the players."),
        "place": (f"{_HERE}.place:place",
                  "Place a sticker or mark for good; refused with the rule that forbids it when illegal."),
        "destroy": (f"{_HERE}.place:destroy",
                    "Destroy a card for good (a winner's reward); nothing goes on it afterwards."),
        "tick": (f"{_HERE}.place:tick",
                 "Tick boxes on a mark that has them (a fortification worn down by attacks), during a game."),
        "link": (f"{_HERE}.place:link", "Draw a line between two territories for a placed sticker that brings "
                 "lines: they become neighbours."),
        "pass": (f"{_HERE}.place:pass_step",
                 "Forgo an end-of-game step: an optional one, or an owed one nothing can be placed for."),
        "join": (f"{_HERE}.players:join", "A newcomer joins the campaign between games (within the game's "
                 "player count)."),
        "leave": (f"{_HERE}.players:leave", "A player leaves the campaign between games, optionally handing their "
                  "holdings to another player."),
        "retire": (f"{_HERE}.players:retire", "Retire a mark for good, or record it lost: it stays on the sheet "
                   "and no longer counts as active."),
        "where": (f"{_HERE}.where:where",
                  "List every target where STICKER could legally go now (for the player given with --by)."),
        "open": (f"{_HERE}.opening:open_packet",
                 "Open a sealed packet: its contents become usable, with the stickers and rules of --pack."),
        "add-pack": (f"{_HERE}.opening:add_pack", "Add a house-rule pack to the campaign between games: its "
                     "stickers, rules and packets apply from now on."),
        "undo": (f"{_HERE}.undo:undo", "Remove the last event from the campaign file."),
        "redo": (f"{_HERE}.undo:redo", "Record again the event the last undo removed (checked like any new event)."),
        "status": (f"{_HERE}.status:status", "Show where the campaign stands: games, signatures, continents, "
                   "cities, scars, cards, packets."),
        "log": (f"{_HERE}.status:log", "List the recorded events in order, with their line in the campaign file."),
        "check": (f"{_HERE}.status:check", "Re-check every event of the campaign file against the rules; report "
                  "the first illegal one at its line."),
        "sheet": (f"{_HERE}.sheet:sheet", "Write the campaign sheet: the board with every permanent mark, then "
                  "the game's regions, players, records, its mark groups (in its own words), changed cards, "
                  "stickers left, packets and games."),
        "game": (f"{_HERE}.group:game_app", "Record the start and the end of a game."),
        "diff": (f"{_HERE}.diff:diff", "Tell what happened between the end of game N and the end of game M "
                 "(default: now), game by game."),
        "chronicle": (f"{_HERE}.chronicle:chronicle", "Write the campaign's chronicle: a title page, one page per "
                      "game with the board as it stood after it, and the end of the campaign."),
    }


app = lazy_app(CampaignGroup, "campaign",
               "Track a legacy campaign: record every permanent change; illegal ones are refused with their "
               "rule.\n\nThe campaign file is --campaign/-c FILE, else $SCARBOOK_CAMPAIGN, else campaign.yaml."
               "\n\nExample: scarbook campaign new campaign.yaml --game risk-legacy --player Ann --player Bob "
               "--player Cat")


class GameGroup(LazyGroup):
    commands_to_load = {
        "start": (f"{_HERE}.game:start", "Start the next game: what each player plays (and, optionally, where each "
                  "starts and how they sit)."),
        "end": (f"{_HERE}.game:end", "End the game in progress; then every step the game's end asks for is taken "
                "with `place`/`destroy` (or `pass`), in the order the rules give; it lists them with the command for "
                "each, as `status` does."),
    }


game_app = lazy_app(GameGroup, "game", "Record the start and the end of a game.\n\nExample: scarbook campaign game "
                    "start --play Ann=khan-industries --play Bob=saharan-republic --play Cat=die-mechaniker")
