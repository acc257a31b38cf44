"""`scarbook serve`: a local web app over a campaign file, for the phones around the table."""

from typing import Annotated

import typer

from scarbook.cli.terminal import echo


def serve(
    campaign: Annotated[str | None, typer.Argument(help="The campaign file (default: $SCARBOOK_CAMPAIGN, else "
                                                   "campaign.yaml).", show_default=False)] = None,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="The address to listen on: 127.0.0.1 (this machine only), "
                                      "or 0.0.0.0 to share on the home network (then a join link with a token "
                                      "is printed, and every page needs it).")] = "127.0.0.1",
    read_only: Annotated[bool, typer.Option("--read-only", help="Show the campaign; write nothing.")] = False,
) -> None:
    """Serve a campaign to the browsers at the table: the board, what each player owes now with one-tap
    actions, game start and end, packets, undo and the history; pages follow the file live.

    Every write goes through the same checks as the campaign commands; the campaign file stays the only state.

    Example: scarbook serve our-world.yaml

    Example: scarbook serve our-world.yaml --host 0.0.0.0 --port 8080
    """
    from scarbook.cli.campaign._shared import campaign_errors, campaign_path

    try:
        from scarbook.serve.run import serve as run
    except ImportError as exc:
        echo(f"error: scarbook serve needs the web extra ({exc.name} is missing): pip install 'scarbook[serve]'",
             err=True)
        raise typer.Exit(2) from None
    with campaign_errors(writing=False):
        run(campaign_path(campaign), host, port, read_only, echo)
