"""Jinja2 templates and CSS of the rendered outputs. Only locates them."""

from pathlib import Path

TEMPLATE_DIR = Path(__file__).resolve().parent
