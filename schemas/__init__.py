"""The JSON Schemas of the content model. Only locates them; never imports jsonschema."""

from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent
