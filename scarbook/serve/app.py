"""The web app's routes: pages rendered from the campaign service, and writes through `writing`.

Every page carries the sha256 of the ledger it was built from (`data-sha256`, and a hidden field in each
form); `static/serve.js` polls `/api/fingerprint` and reloads the page when the file changed (another
phone, the CLI). A write whose page is older is refused under the ledger's lock (L012) and answered with
the page as it is now. A refusal is shown with its rule and citation; nothing is written.
"""

from __future__ import annotations

import functools
import shlex
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from scarbook.campaign.ledger.file import resolved_path
from scarbook.campaign.service import LedgerBusy, LedgerError, history, reading, table, writing
from scarbook.kernel.diagnostics import Diagnostic
from scarbook.serve import forms
from scarbook.serve.security import CSRF_COOKIE, HEADERS, JOIN_COOKIE, Guard, csrf_ok, new_csrf
from scarbook.templates import TEMPLATE_DIR

SERVE_TEMPLATES = TEMPLATE_DIR / "serve"


def environment() -> Environment:
    """Jinja2 over templates/serve, escaping every value (content text is untrusted: a pack may hold HTML)."""
    return Environment(loader=FileSystemLoader(str(SERVE_TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True)


class Outcome:
    """What a write did, for the banner of the page that answers it."""

    def __init__(self, kind: str, said: str = "", command: str = "", problems: list[Diagnostic] | None = None,
                 notes: list[str] | None = None) -> None:
        self.kind = kind  # recorded | undone | refused | stale | error
        self.said = said
        self.command = command
        self.problems = problems or []
        self.notes = notes or []


class Boards:
    """The board picture of each ledger version asked for (the page and its picture ask for the same one; it
    takes a second or two to draw): a few kept, keyed by the ledger's sha256 and the game it stands after.
    One lock: two pages that reload at once draw it once."""

    def __init__(self, path: Path, keep: int = 8) -> None:
        self.path, self.keep = path, keep
        self.drawn: dict[tuple[str, int | None], table.Board | None] = {}
        self.lock = threading.Lock()

    def get(self, after: int | None = None) -> tuple[str, table.Board | None]:
        with self.lock:
            sha = table.fingerprint(self.path)
            key = (sha, after)
            if key not in self.drawn:
                board = table.board(self.path, after)
                if table.fingerprint(self.path) != sha:  # written meanwhile: draw it again next time
                    return sha, board
                while len(self.drawn) >= self.keep:
                    self.drawn.pop(next(iter(self.drawn)))
                self.drawn[key] = board
            return sha, self.drawn[key]


def create_app(path: Path, guard: Guard) -> Starlette:
    """The app over the campaign file `path`, with `guard`'s access rules."""
    env = environment()
    boards = Boards(path)

    def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
        body = env.get_template(template).render(csrf=csrf, read_only=guard.read_only, path=request.url.path,
                                             **context)
        response = HTMLResponse(body, status_code=status)
        if request.cookies.get(CSRF_COOKIE) != csrf:
            response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict")
        return response

    async def guarded(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if not guard.host_allowed(request.headers.get("host", "")):
            return Response("this server answers only on 127.0.0.1 or localhost\n", 421, headers=HEADERS)
        if request.url.path != "/join" and not guard.joined(request.cookies.get(JOIN_COOKIE)):
            response: Response = render(request, "join.html.j2", 403)
        else:
            try:
                response = await call_next(request)
            except (LedgerError, LedgerBusy, OSError) as exc:
                response = broken(request, exc)
            except Exception as exc:  # content errors from the compiler (a pack with errors) carry diagnostics
                if getattr(exc, "diagnostics", None) is None:
                    raise
                response = broken(request, exc)
        response.headers.update(HEADERS)
        return response

    def broken(request: Request, exc: Exception) -> Response:
        """A campaign file that cannot be read now (deleted, busy, a pack with errors): why, not a trace."""
        found = getattr(exc, "diagnostics", None)
        text = "; ".join(d.render() for d in found) if found else f"{exc}"
        status = 503 if isinstance(exc, LedgerBusy) else 500
        return render(request, "message.html.j2", status, title="the campaign cannot be shown",
                      text=f"{text}; fix it (see 'scarbook campaign check'), then reload this page")

    async def join(request: Request) -> Response:
        given = request.query_params.get("token", "")
        if guard.token is None:
            return RedirectResponse("/", 303)
        if not guard.token_matches(given):
            return render(request, "join.html.j2", 403, wrong=True)
        response = RedirectResponse("/", 303)
        response.set_cookie(JOIN_COOKIE, given, httponly=True, samesite="strict")
        return response

    def home_page(request: Request, outcome: Outcome | None = None, status: int = 200) -> HTMLResponse:
        t = table.table(path)
        drawn_on, board = boards.get()
        if drawn_on != t.sha256:  # written between the two reads: the picture of the page's own version
            board = table.board(path)
        return render(request, "home.html.j2", status, t=t, board=board, outcome=outcome, sha=t.sha256)

    async def home(request: Request) -> Response:
        return await run_in_threadpool(home_page, request)

    async def place_page(request: Request) -> Response:
        target = request.path_params["target"]

        def build() -> HTMLResponse:
            here = table.legal_here(path, target)
            return render(request, "place.html.j2", target=target, name=here.name, legal=here.legal,
                          here=here.on_it, refused=here.refused, sha=table.fingerprint(path))
        return await run_in_threadpool(build)

    async def sticker_page(request: Request) -> Response:
        sticker = request.path_params["sticker"]
        by = request.query_params.get("by", "")

        def build() -> HTMLResponse:
            ledger = reading.events(path)
            sha = table.ledger_sha256(ledger)
            players = [by] if "by" in request.query_params else list(ledger.players)  # ?by= : whoever may
            found = []
            for player in players:
                where = reading.where(path, sticker, player)
                if isinstance(where, list):
                    return render(request, "sticker.html.j2", 404, sticker=sticker, name=sticker, named=False, found=[],
                                  problems=where, sha=sha, piece="", names={}, options={})
                found.append((player, where.targets))
            name, named = table.sticker_info(path, sticker)
            every = sorted({tid for _, targets in found for tid in targets})
            names = table.labels(path, every)
            options = table.options(path, sticker, every)
            return render(request, "sticker.html.j2", sticker=sticker, name=name, named=named, found=found,
                          problems=[], sha=sha, piece=request.query_params.get("for", ""), names=names,
                          options=options)
        return await run_in_threadpool(build)

    async def undo_page(request: Request) -> Response:
        def build() -> HTMLResponse:
            ledger, lines = reading.log(path)
            note = ledger.events[-1].note if ledger.events else ""
            return render(request, "undo.html.j2", last=lines[-1] if lines else None, note=note,
                          sha=table.ledger_sha256(ledger), display=ledger.display, redo=writing.redoable(path))
        return await run_in_threadpool(build)

    async def redo_page(request: Request) -> Response:
        def build() -> HTMLResponse:
            sha = table.fingerprint(path)
            return render(request, "redo.html.j2", redo=writing.redoable(path), sha=sha)
        return await run_in_threadpool(build)

    async def history_page(request: Request) -> Response:
        raw = request.path_params.get("game")

        def build() -> HTMLResponse:
            ledger, told = reading.told(path)
            lines = [(line, said, ev.note) for (line, said), ev in zip(told, ledger.events, strict=True)]
            sha = table.ledger_sha256(ledger)
            ended = [g for g in reading.status(path).data.get("games", []) if g.get("ended")]
            if raw is None:
                return render(request, "history.html.j2", ended=ended, lines=lines, game=None, sha=sha,
                              changes="", after=None, display=ledger.display)
            number = int(raw)
            try:
                after = history.status_after(path, number)
                changes = history.diff_text(history.diff(path, max(0, number - 1), number))
            except history.NoSuchPoint as exc:
                return render(request, "history.html.j2", 404, ended=ended, lines=lines, game=number,
                              sha=sha, changes=str(exc), after=None, display=ledger.display)
            return render(request, "history.html.j2", ended=ended, lines=lines, game=number, sha=sha,
                          changes=changes, after=after.data, display=ledger.display)
        return await run_in_threadpool(build)

    async def board_svg(request: Request) -> Response:
        raw = request.query_params.get("after", "")
        after = int(raw) if raw.isdigit() else None

        def build() -> Response:
            try:
                _, board = boards.get(after)
            except history.NoSuchPoint:
                board = None
            if board is None:
                return Response("no board\n", 404)
            return Response(board.svg, media_type="image/svg+xml")
        return await run_in_threadpool(build)

    async def fingerprint(request: Request) -> Response:
        return JSONResponse({"sha256": await run_in_threadpool(table.fingerprint, path)})

    async def do(request: Request) -> Response:
        action = request.path_params["action"]
        if guard.read_only:
            return render(request, "message.html.j2", 403, title="read-only",
                          text="this server was started with --read-only: nothing can be written from a page")
        fields = parse_qs((await request.body()).decode("utf-8", "replace"), keep_blank_values=True)
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), forms.one(fields, "csrf"), request.headers.get("origin"),
                       request.headers.get("host", "")):
            return render(request, "message.html.j2", 403, title="refused",
                          text="this form did not come from a page of this server (CSRF check); open the page "
                               "again and retry")
        sha = forms.one(fields, "sha256")
        outcome = await run_in_threadpool(write, action, fields, sha)
        status = {"stale": 409, "refused": 422, "error": 503}.get(outcome.kind, 200)
        return await run_in_threadpool(home_page, request, outcome, status)

    def write(action: str, fields: forms.Fields, sha: str) -> Outcome:
        note = forms.note(fields)
        on_page = functools.partial(writing.from_page, sha)
        try:
            if action == "undo":
                undone = writing.undo(path, expected_sha256=sha or "-")
                return Outcome("undone", f"line {undone.line}: {undone.said}", "scarbook campaign undo",
                               notes=[f"its note: {undone.note}"] if undone.note else [])
            if action == "redo":
                result, command = writing.redo(path, expected_sha256=sha or "-"), "scarbook campaign redo"
            elif action == "open":
                packet = forms.one(fields, "packet")
                command = forms.with_note(f"scarbook campaign open {shlex.quote(packet)}", fields)
                result = writing.open_packet(path, packet, None, note=note, make=on_page)
            elif action == "add-pack":
                chosen = forms.one(fields, "pack")
                offered = {c.id for c in table.pack_choices(path, [])}
                if chosen not in offered:
                    return Outcome("error", f"no house-rule pack {chosen!r} beside the campaign file: a page adds "
                                            "only a pack folder (with a pack.yaml) under the campaign file's folder")
                command = forms.with_note(f"scarbook campaign add-pack {shlex.quote(chosen)}", fields)
                result = writing.add_pack(path, resolved_path(path, chosen), note=note, make=on_page)
            else:
                if action == "start":
                    t = table.table(path)
                    event, command = forms.start(fields, t.players, len(t.play_kinds))
                elif action in forms.MAKERS:
                    event, command = forms.MAKERS[action](fields)
                else:
                    return Outcome("error", f"no such action: {action}")
                command = forms.with_note(command, fields)
                result = writing.record(path, on_page(lambda c, r: event), note=note)
        except ValueError as exc:  # a form field that is not what it asks for (the CLI would exit 2)
            return Outcome("error", f"{exc}; nothing was written")
        except LedgerError as exc:
            return _problems(exc.diagnostics, {"undo": "scarbook campaign undo", "redo": "scarbook campaign redo"}
                             .get(action, ""))
        except LedgerBusy as exc:
            return Outcome("error", f"L005: {exc}; try again in a moment")
        except OSError as exc:
            return Outcome("error", f"L006: cannot write the campaign file: {exc.strerror or exc}; nothing was "
                                    "written")
        if result.problems:
            refused = _problems(result.problems, command)
            if note.strip():  # the typed note, to copy into the page as it is now (nothing was written)
                refused.notes.append(f"your note, not written: {note.strip()}")
            return refused
        notes = [n for n in result.note.splitlines() if n]
        if result.event is not None and result.event.note:
            notes.insert(0, f"with the note: {result.event.note}")
        if action == "open":
            held = table.packet_contents(path, forms.one(fields, "packet"))
            notes.append(f"the packet holds: {', '.join(held)}" if held else "the packet lists no contents")
        notes += [f"open the sealed packet now: {p.name} ({p.trigger})" for p in result.to_open]
        return Outcome("recorded", result.said, command, notes=notes)

    routes = [
        Route("/", home), Route("/join", join), Route("/place/{target}", place_page),
        Route("/sticker/{sticker}", sticker_page), Route("/undo", undo_page), Route("/redo", redo_page),
        Route("/history", history_page), Route("/history/{game:int}", history_page),
        Route("/board.svg", board_svg), Route("/api/fingerprint", fingerprint),
        Route("/do/{action}", do, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(SERVE_TEMPLATES / "static")), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(BaseHTTPMiddleware, dispatch=guarded)])


def _problems(problems: list[Diagnostic], command: str) -> Outcome:
    if any(p.code == "L012" for p in problems):
        return Outcome("stale", writing.STALE_PAGE, command, problems)
    return Outcome("refused", "", command, problems)


def join_link(host: str, port: int, token: str | None) -> str:
    """The address another device opens: with the join token when the server is shared."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"join?token={quote(token)}" if token else "")
