"""Renderers of the compiler's outputs: Jinja2 templates to HTML, WeasyPrint to PDF.

Everything here imports Jinja2 / WeasyPrint lazily, inside functions: importing this package is
cheap, so the no-op build and the tracker never pay for them.
"""
