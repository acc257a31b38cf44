"""Code written by tools (never by hand): `validator` is fastjsonschema's code for the content schema,
written by `tools/generate_validator.py` and loaded by `scarbook.compiler.compiled` while its digest matches.
"""
