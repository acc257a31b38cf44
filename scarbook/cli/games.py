"""`scarbook games`: list the shipped games."""

from scarbook.cli.common import FormatOption, TextOrJson
from scarbook.cli.reporters import render
from scarbook.cli.terminal import echo


def games(fmt: FormatOption = TextOrJson.text) -> None:
    """List the games scarbook ships, with their ids.

    Example: scarbook games --format json
    """
    from scarbook.compiler.load import shipped_games
    from scarbook.kernel.yamlload import load_file

    rows = []
    for gid, folder in shipped_games().items():
        meta: dict[str, object] = {}
        for path in sorted(folder.glob("*.yaml")):
            data = load_file(path, path.name).data
            if isinstance(data, dict) and isinstance(data.get("game"), dict):
                meta = data["game"]
                break
        players = meta.get("players") if isinstance(meta.get("players"), dict) else {}
        rows.append({"id": gid, "title": meta.get("title", gid), "legacy": bool(meta.get("legacy")),
                     "players": players})
    echo(render(fmt, "games", rows))
