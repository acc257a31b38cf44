"""Join PDF parts into one PDF, reproducibly.

A long print-and-play sheet is laid out in parts, in parallel (`compiler.build`); this module
puts the parts back together with pypdf. The result depends only on the parts: the document
information comes from the first part (without dates) and no random file identifier is written,
so the same parts give byte-identical output.
"""

from __future__ import annotations

from io import BytesIO


def join_pdfs(parts: list[bytes]) -> bytes:
    """One PDF with the pages of every part, in order."""
    if len(parts) == 1:
        return parts[0]
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for data in parts:
        writer.append(PdfReader(BytesIO(data)))
    info = PdfReader(BytesIO(parts[0])).metadata
    if info:
        writer.add_metadata({k: v for k, v in info.items() if k not in ("/CreationDate", "/ModDate")})
    out = BytesIO()
    writer.write(out)
    return out.getvalue()
