"""The kernel both halves share: diagnostics as values, capped YAML loading with positions, atomic file
writes, and the cache folder. It imports nothing of the compiler, the tracker or the CLI.
"""
