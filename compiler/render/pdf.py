"""HTML to PDF with WeasyPrint, safely and reproducibly.

`write_pdf(html, out, roots)` renders with a URL fetcher that serves only `data:` URLs and files
inside `roots` (the pack and template folders): no network, no redirects, nothing else from the
disk. Anything else stops the rendering with `UnsafeResource`, which the build turns into a
diagnostic. The same input gives byte-identical PDFs (fixed metadata, fixed identifier).
This module must never be imported by code on the no-op build path; WeasyPrint is imported
only inside the functions here.

With `SCARBOOK_DUMP_HTML=FOLDER` in the environment, every HTML document rendered to a PDF (an aid: only the
version kept) is also written into FOLDER with its base folder (`<digest>.html`, `<digest>.base`): the
renderer's floor that `bench/bench_build.py` measures the build against.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from scarbook.kernel.atomic import replace_file

#: The date written into every PDF (and SOURCE_DATE_EPOCH while rendering): 2020-01-01.
FIXED_EPOCH = "1577836800"


def load_weasyprint() -> Any:
    """Import WeasyPrint (once), without searching the system for its libraries with compilers.

    WeasyPrint opens each of its seven C libraries (Pango, HarfBuzz, fontconfig...) by trying several
    names in turn, for every platform; cffi passes each name that is not a file name to
    `ctypes.util.find_library`, which on Linux runs `ldconfig -p`, then gcc, then ld, and finds nothing
    for most of them: about 20 names, some 60 processes, 0.1-0.15 s of CPU on every build that renders.
    The names WeasyPrint tries include each library's own file name ('libpango-1.0.so.0'), which the
    dynamic loader opens directly, and which is what the search finds for the other names too. So that
    search is skipped while WeasyPrint is imported. Should WeasyPrint then fail to load a library (one
    only the search finds), it is imported again as usual.
    """
    loaded = sys.modules.get("weasyprint")
    if loaded is not None or not sys.platform.startswith("linux"):
        import weasyprint

        return weasyprint
    import contextlib
    import ctypes.util
    import io

    search = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # WeasyPrint prints its advice before it fails
            import weasyprint
        return weasyprint
    except Exception:  # noqa: BLE001 - any failure: import it as usual, which raises what it raises
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    finally:
        ctypes.util.find_library = search
    import weasyprint

    return weasyprint


class UnsafeResource(Exception):
    """A document asked for a resource outside the allowed folders (or on the network)."""

    def __init__(self, urls: list[str]) -> None:
        super().__init__("refused to load " + ", ".join(sorted(set(urls))) +
                         " (only files inside the pack and template folders, and data: URLs, are allowed)")
        self.urls = sorted(set(urls))


def inside(path: Path, roots: list[Path]) -> bool:
    """Whether `path` (symlinks resolved) lies inside one of `roots`."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return any(real == r or r in real.parents for r in (root.resolve() for root in roots))


def file_url_path(url: str) -> Path | None:
    """The local path of a `file:` URL without host, query or fragment; None otherwise."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    return Path(unquote(parts.path))


def make_fetcher(roots: list[Path], refused: list[str]) -> Any:
    """A WeasyPrint URL fetcher confined to `roots`; refused URLs are appended to `refused`."""
    import mimetypes

    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    class Refused(FatalURLFetchingError):
        pass

    class ConfinedFetcher(URLFetcher):
        def __init__(self) -> None:
            super().__init__(allowed_protocols={"data", "file"}, allow_redirects=False, fail_on_errors=True)

        def fetch(self, url: str, headers: Any = None) -> Any:
            scheme = url.split(":", 1)[0].lower() if ":" in url else ""
            if scheme == "data":
                return super().fetch(url, headers)
            path = file_url_path(url)
            if path is not None and path.is_absolute() and inside(path, roots) and path.is_file():
                ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                if path.suffix == ".ttf":
                    ctype = "font/ttf"
                return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": ctype})
            refused.append(url)
            raise Refused(f"refused {url}")

    return ConfinedFetcher()


def paint_once(pages: list[Any]) -> None:
    """Let each of `pages` be painted once: a page printed again replays the drawing operations it
    wrote the first time instead of walking its boxes again.

    A PDF page's content stream is what `Page.paint` appends to it; painting the same laid-out page
    into a fresh stream appends the same operations (fonts, images and patterns are document
    resources, shared by every page, registered the first time), so replaying them gives the same
    bytes as painting again. A deck's mirrored backs pages are mostly one page printed again and
    again: they cost one paint. If WeasyPrint's stream is not the list of operations this expects,
    the page is painted as usual.
    """
    for page in pages:
        paint = page.paint
        recorded: list[Any] = []

        def once(stream: Any, scale: float = 1, *, _paint: Any = paint, _ops: list[Any] = recorded) -> None:
            ops = getattr(stream, "stream", None)
            if not isinstance(ops, list):
                _paint(stream, scale)
                return
            if _ops and _ops[0] == scale:
                ops.extend(_ops[1:])
                return
            start = len(ops)
            _paint(stream, scale)
            _ops[:] = [scale, *ops[start:]]

        page.paint = once


def remove_font_folder(fonts: Any) -> None:
    """Remove the temporary folder where WeasyPrint put the document's @font-face files (about 2 MB).
    WeasyPrint removes it when the font configuration is garbage-collected, which never happens in a
    render worker: it ends at once, without collecting (`build.render_job`)."""
    import shutil

    folder = getattr(fonts, "_folder", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        fonts._folder = None


Box = tuple[float, float, float, float]  # left, top, right, bottom, in mm from the page's top left
MM_TO_PT = 72 / 25.4


def trim_finisher(boxes: list[tuple[Box, Box] | None]) -> Any:
    """A WeasyPrint `finisher` that writes each page's TrimBox and BleedBox (`boxes[i]`: trim and bleed of the
    i-th printed page, None to keep WeasyPrint's, the page itself) into the PDF's page dictionaries."""
    def finish(document: Any, pdf: Any) -> None:
        import pydyf

        page_dicts = [o for o in pdf.objects if isinstance(o, pydyf.Dictionary) and o.get("Type") == "/Page"]
        for page, page_boxes in zip(page_dicts, boxes, strict=False):
            if page_boxes is None:
                continue
            height = float(page["MediaBox"][3])
            for key, (x0, y0, x1, y1) in zip(("TrimBox", "BleedBox"), page_boxes, strict=True):
                page[key] = pydyf.Array([round(x0 * MM_TO_PT, 3), round(height - y1 * MM_TO_PT, 3),
                                         round(x1 * MM_TO_PT, 3), round(height - y0 * MM_TO_PT, 3)])
    return finish


def dump_html(html: str, base_url: Path) -> None:
    """Write `html` and its base folder into `$SCARBOOK_DUMP_HTML` when it is set (see the module's docstring)."""
    folder = os.environ.get("SCARBOOK_DUMP_HTML")
    if not folder:
        return
    import hashlib

    name = hashlib.sha256(html.encode()).hexdigest()[:20]
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / f"{name}.base").write_text(str(base_url.resolve()), "utf-8")
    (Path(folder) / f"{name}.html").write_text(html, "utf-8")


def render_pdf(html: str, roots: list[Path], base_url: Path, pages: list[int] | None = None,
               boxes: list[tuple[Box, Box] | None] | None = None) -> bytes:
    """The PDF bytes of `html`; relative URLs resolve against `base_url` (a folder).

    With `pages`, the PDF prints those laid-out pages in that order (a page may come again). With `boxes`,
    each printed page gets that TrimBox and BleedBox (`trim_finisher`).
    """
    os.environ["SOURCE_DATE_EPOCH"] = FIXED_EPOCH
    load_weasyprint()
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import FatalURLFetchingError

    refused: list[str] = []
    fetcher = make_fetcher(roots, refused)
    fonts = FontConfiguration()
    try:
        document = HTML(string=html, base_url=base_url.resolve().as_uri() + "/", url_fetcher=fetcher).render(
            font_config=fonts)
        if pages is not None:
            if max(pages, default=-1) >= len(document.pages):
                raise ValueError(f"laid out {len(document.pages)} pages, expected {max(pages) + 1}")
            if len(set(pages)) < len(pages):
                paint_once(document.pages)
            document = document.copy([document.pages[i] for i in pages])
        # fixed metadata: no creation/modification dates, a fixed identifier
        document.metadata.created = None
        document.metadata.modified = None
        data = document.write_pdf(pdf_identifier=b"scarbook", uncompressed_pdf=False,
                                  finisher=trim_finisher(boxes) if boxes else None)
    except FatalURLFetchingError as exc:
        raise UnsafeResource(refused or [str(exc)]) from None
    finally:
        remove_font_folder(fonts)
    if refused:
        raise UnsafeResource(refused)
    assert isinstance(data, bytes)
    dump_html(html, base_url)
    return data


class Fitted(NamedTuple):
    """The aid as `render_fitting` printed it: the PDF, its pages, and the version (HTML) laid out."""

    data: bytes
    pages: int
    html: str


def render_fitting(versions: Iterable[str], roots: list[Path], base_url: Path, max_pages: int,
                   memo: bool = True) -> Fitted:
    """The PDF of the first of `versions` (HTML texts, from the fullest to the shortest; an iterable, so
    each is made only when needed) laid out on at most `max_pages` pages, else of the last one.

    With `memo`, a version a build of the very same versions found to fit (`fitmemo`) is laid out first: the
    versions before it are made (to compare their digest) but not laid out; if it no longer fits, the next ones
    are tried as usual. What fits is remembered for the next build."""
    os.environ["SOURCE_DATE_EPOCH"] = FIXED_EPOCH
    load_weasyprint()
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import FatalURLFetchingError

    from scarbook.compiler.render import fitmemo

    made = iter(versions)
    seen: list[str] = []

    def version(i: int) -> str | None:
        """The i-th version, made when first asked for; None past the last."""
        while len(seen) <= i:
            nxt = next(made, None)
            if nxt is None:
                return None
            seen.append(nxt)
        return seen[i]

    first = version(0)
    assert first is not None, "no version to render"
    start = 0
    known = fitmemo.hint(first) if memo else None
    if known is not None and version(known.level) is not None and \
            fitmemo.digest_of(seen[: known.level + 1]) == known.digest:
        start = known.level
    refused: list[str] = []
    fetcher = make_fetcher(roots, refused)
    fonts = FontConfiguration()
    try:
        i, html, document = start, first, None
        while (candidate := version(i)) is not None:
            html = candidate
            document = HTML(string=html, base_url=base_url.resolve().as_uri() + "/", url_fetcher=fetcher).render(
                font_config=fonts)
            fits = len(document.pages) <= max_pages
            if fits or refused:
                if memo and fits and not refused and not (known is not None and i == start == known.level):
                    fitmemo.remember(seen[: i + 1])  # (what the memo said already is not written again)
                break
            i += 1
        assert document is not None, "no version to render"
        dump_html(html, base_url)
        document.metadata.created = None
        document.metadata.modified = None
        data = document.write_pdf(pdf_identifier=b"scarbook", uncompressed_pdf=False)
    except FatalURLFetchingError as exc:
        raise UnsafeResource(refused or [str(exc)]) from None
    finally:
        remove_font_folder(fonts)
    if refused:
        raise UnsafeResource(refused)
    assert isinstance(data, bytes)
    return Fitted(data, len(document.pages), html)


def write_pdf(html: str, out: Path, roots: list[Path], base_url: Path | None = None) -> None:
    """Render `html` to `out` (written atomically); raises UnsafeResource on a refused URL."""
    from scarbook.templates import TEMPLATE_DIR

    data = render_pdf(html, roots, base_url or TEMPLATE_DIR)
    replace_file(out, data)
