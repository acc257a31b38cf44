"""The campaign sheet: a printable PDF of a campaign's state with a picture of the board.

Builds a view model from `report.status_data`, draws the board with `compiler.boardmap.board_svg`
(marks by territory), renders `templates/campaign-sheet.html.j2` with the compiler's Jinja2
environment (autoescape, StrictUndefined) and writes it with `compiler.render.pdf.write_pdf`.
Imports Jinja2 and WeasyPrint, so only the `sheet` command loads this module.
"""

from __future__ import annotations

from pathlib import Path

from .effective import applied
from .engine import Replay
from .ledger import Ledger
from .report import status_data


def board_marks(replay: Replay) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for tid in replay.content.territories:
        for m in replay.state.active_marks(tid):
            if m.cancels:
                continue
            label = f"{m.name} ({m.sticker})" if m.name else m.sticker
            if m.boxes:
                label = f"{m.sticker} {m.boxes - m.ticked}/{m.boxes}"
            out.setdefault(tid, []).append(label)
    for cid, card in replay.content.cards.items():
        if replay.state.destroyed(cid) and isinstance(card.get("territory"), str):
            out.setdefault(card["territory"], []).append("x (card destroyed)")
    return out


def sheet_html(ledger: Ledger, replay: Replay) -> str:
    from scarbook.compiler.boardmap import board_svg, map_withheld
    from scarbook.compiler.render.html import environment

    game = applied(replay)
    data = status_data(ledger, replay)
    template = environment().get_template("campaign-sheet.html.j2")
    withheld = map_withheld(game)
    return str(template.render(title=ledger.name or ledger.path.stem, game_title=game.title, data=data,
                               map_svg=None if withheld else board_svg(game, board_marks(replay)),
                               map_note=withheld))


def write_sheet(ledger: Ledger, replay: Replay, out: Path) -> Path:
    from scarbook.compiler.render.pdf import write_pdf
    from scarbook.templates import TEMPLATE_DIR

    write_pdf(sheet_html(ledger, replay), out, [TEMPLATE_DIR])
    return out
