"""The Typer command line: a thin face over `scarbook.compiler` and `scarbook.campaign`.

One command (or one small group) per module. Command bodies parse arguments, call one
function and report; heavy libraries are imported inside the commands that need them.
"""
