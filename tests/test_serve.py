"""`scarbook serve` through Starlette's test client: writes go through the service (the ledger changes as the
CLI would change it), refusals leave the file byte-identical, a page built on an older ledger is refused,
the join token and the CSRF check guard every write, and content text is escaped everywhere."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from campaigns.helpers import invoke, playing_bytes, setup_bytes

pytest.importorskip("starlette")
warnings.filterwarnings("ignore", message=".*httpx.*")  # starlette's test client names its successor

from starlette.testclient import TestClient  # noqa: E402

from scarbook.serve.app import create_app, join_link  # noqa: E402
from scarbook.serve.security import Guard  # noqa: E402

BASE = "http://127.0.0.1:8000"


def client(file: Path, host: str = "127.0.0.1", read_only: bool = False) -> tuple[TestClient, Guard]:
    guard = Guard.for_host(host, 8000, read_only)
    return TestClient(create_app(file, guard), base_url=BASE), guard


def hidden(html: str) -> dict[str, str]:
    """The csrf and sha256 hidden fields of the page's first form."""
    return {name: value for name, value in re.findall(r'name="(csrf|sha256)" value="([^"]*)"', html)[:2]}


@pytest.fixture
def ready(tmp_path: Path) -> Path:
    """A Risk Legacy campaign set up for game 1."""
    file = tmp_path / "c.yaml"
    file.write_bytes(setup_bytes())
    return file


@pytest.fixture
def playing(tmp_path: Path) -> Path:
    """Game 1 in progress."""
    file = tmp_path / "c.yaml"
    file.write_bytes(playing_bytes())
    return file


def test_the_table_page_carries_the_ledger_hash_and_the_forms_the_game_declares(ready: Path) -> None:
    import hashlib

    c, _ = client(ready)
    page = c.get("/")
    assert page.status_code == 200
    sha = hashlib.sha256(ready.read_bytes()).hexdigest()
    assert f'data-sha256="{sha}"' in page.text
    assert c.get("/api/fingerprint").json() == {"sha256": sha}
    assert "Start game 1" in page.text and 'name="play-0-0"' in page.text  # one faction select per player
    assert '<option value="khan-industries">Khan Industries</option>' in page.text
    assert "Nothing is owed now." in page.text
    assert 'name="viewport"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    sub = re.search(r'<p class="sub">(.*?)</p>', page.text, re.S)
    assert sub and " ".join(sub[1].split()) == "Risk Legacy · next: game 1 · Ann, Bob, Cat"  # a space each side of ·


def test_a_write_records_the_event_the_cli_would_and_says_it(ready: Path) -> None:
    c, _ = client(ready)
    form = hidden(c.get("/").text)
    done = c.post("/do/start", data={**form, "play-0-0": "khan-industries", "play-1-0": "saharan-republic",
                                     "play-2-0": "die-mechaniker"})
    assert done.status_code == 200, done.text
    assert "Recorded:" in done.text and "End game 1" in done.text
    assert "scarbook campaign game start --play Ann=khan-industries" in done.text
    last = invoke(["log"], ready).output.splitlines()[-1]
    assert "game 1" in last and "khan-industries" in last, last


def test_a_refusal_shows_the_rule_and_writes_nothing(playing: Path) -> None:
    c, _ = client(playing)
    form = hidden(c.get("/").text)
    before = playing.read_bytes()
    refused = c.post("/do/place", data={**form, "sticker": "major-city", "target": "alaska", "by": "Ann",
                                        "name": "Nome"})
    assert refused.status_code == 422
    assert "Refused; nothing was written." in refused.text
    assert re.search(r'<span class="code">R\d+</span>', refused.text), refused.text
    assert 'class="cite"' in refused.text or 'class="rule"' in refused.text
    assert playing.read_bytes() == before


def test_a_page_built_on_an_older_ledger_is_refused_and_refreshed(playing: Path) -> None:
    c, _ = client(playing)
    form = hidden(c.get("/").text)
    assert invoke(["place", "bunker", "peru", "--by", "Ann"], playing).exit_code == 0  # another device: the CLI
    after_cli = playing.read_bytes()
    stale = c.post("/do/place", data={**form, "sticker": "bunker", "target": "peru", "by": "Bob", "note": "Bob's"})
    assert stale.status_code == 409
    assert "the campaign changed since you opened this page" in stale.text
    assert "your note, not written: Bob&#39;s" in stale.text  # to copy into the page as it is now
    assert playing.read_bytes() == after_cli
    fresh = hidden(stale.text)
    import hashlib

    assert fresh["sha256"] == hashlib.sha256(after_cli).hexdigest()  # the answer is the page as it is now
    undo_stale = c.post("/do/undo", data=form)
    assert undo_stale.status_code == 409 and playing.read_bytes() == after_cli


def test_undo_asks_first_then_removes_the_last_event(playing: Path) -> None:
    c, _ = client(playing)
    before = playing.read_bytes()
    assert invoke(["place", "bunker", "peru", "--by", "Ann"], playing).exit_code == 0
    confirm = c.get("/undo")
    assert "Undo the last event?" in confirm.text and "bunker" in confirm.text and "Redo" in confirm.text
    assert playing.read_bytes() != before
    done = c.post("/do/undo", data=hidden(confirm.text))
    assert done.status_code == 200 and "Undone:" in done.text
    assert playing.read_bytes() == before


@pytest.mark.parametrize("change", ["no-csrf", "wrong-csrf", "foreign-origin"])
def test_a_write_without_the_csrf_token_is_refused(playing: Path, change: str) -> None:
    c, _ = client(playing)
    form = hidden(c.get("/").text)
    before = playing.read_bytes()
    data = {**form, "sticker": "bunker", "target": "peru", "by": "Ann"}
    headers = {}
    if change == "no-csrf":
        data.pop("csrf")
    elif change == "wrong-csrf":
        data["csrf"] = "x" * 32
    else:
        headers["origin"] = "http://evil.example"
    refused = c.post("/do/place", data=data, headers=headers)
    assert refused.status_code == 403 and "CSRF" in refused.text
    assert playing.read_bytes() == before


def test_shared_on_the_network_every_request_needs_the_join_token(playing: Path) -> None:
    c, guard = client(playing, host="0.0.0.0")
    assert guard.token and len(guard.token) >= 32
    assert join_link("192.168.1.5", 8000, guard.token) == f"http://192.168.1.5:8000/join?token={guard.token}"
    before = playing.read_bytes()
    assert c.get("/").status_code == 403
    sha = c.get("/api/fingerprint")
    assert sha.status_code == 403 and "\"sha256\":" not in sha.text
    refused = c.post("/do/place", data={"sticker": "bunker", "target": "peru", "by": "Ann"})
    assert refused.status_code == 403 and playing.read_bytes() == before
    assert c.get("/join", params={"token": "wrong"}).status_code == 403
    joined = c.get("/join", params={"token": guard.token})
    assert joined.status_code == 200 and "To do now" in joined.text  # followed the redirect with the cookie
    done = c.post("/do/place", data={**hidden(joined.text), "sticker": "bunker", "target": "peru", "by": "Ann"})
    assert done.status_code == 200 and "Recorded:" in done.text and playing.read_bytes() != before


def test_on_loopback_a_foreign_host_name_is_refused(playing: Path) -> None:
    c, _ = client(playing)
    assert c.get("/", headers={"host": "evil.example:8000"}).status_code == 421
    assert c.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_read_only_writes_nothing_and_shows_no_forms(playing: Path) -> None:
    c, _ = client(playing, read_only=True)
    page = c.get("/")
    assert "End game 1" not in page.text and 'action="/do/' not in page.text
    before = playing.read_bytes()
    form = hidden(c.get("/history").text) or {}
    assert c.post("/do/undo", data=form).status_code == 403 and playing.read_bytes() == before


def test_place_and_sticker_pages_answer_as_where_does(playing: Path) -> None:
    c, _ = client(playing)
    place = c.get("/place/peru")
    assert place.status_code == 200 and "Peru" in place.text
    assert 'value="bunker"' in place.text  # a scar may go on Peru during the game
    where = invoke(["where", "bunker", "--by", "Ann"], playing).output.split()
    sticker = c.get("/sticker/bunker", params={"by": "Ann"})
    shown = re.findall(r'name="target" value="([^"]+)"', sticker.text)
    assert shown == where
    assert c.get("/sticker/no-such-sticker").status_code == 404


def test_a_place_page_says_what_is_on_it_and_why_a_sticker_may_not_go_there(playing: Path) -> None:
    """Tapping a territory shows its stickers and its card's, in the game's words, a scar covered by a scar cancel
    too (a place with none says so), and each sticker that may not go there now with the rule `place` cites."""
    for line in (["place", "bunker", "greenland", "--by", "Ann"], ["game", "end", "--winner", "Ann"],
                 ["place", "scar-cancel", "greenland", "--by", "Ann"]):
        assert invoke(line, playing).exit_code == 0, line
    c, _ = client(playing)
    def items(target: str) -> list[str]:
        on = re.search(r'<ul class="on-place">(.*?)</ul>', c.get(f"/place/{target}").text, re.S)
        return re.findall(r"<li>(.*?)</li>", on[1]) if on else []

    assert items("alaska") == ["Alaska card: Coin (+1 resource) ×2: before game 1"]  # SETUP's two coins
    assert items("greenland") == ["Bunker: Ann, during game 1, covered by Scar Cancel (white sticker)",
                                  "Scar Cancel (white sticker): Ann, after game 1, cancels the Bunker under it"]
    assert "No sticker is on it." in c.get("/place/peru").text
    refused = dict(re.findall(r"<li><strong>(.*?)</strong>: (.*?)</li>", c.get("/place/greenland").text))
    cli = invoke(["place", "bunker", "greenland", "--by", "Ann", "--dry-run"], playing).output
    assert refused["Bunker"] == "no game is in progress (a Bunker is placed during a game; Risk Legacy rulebook § " \
                                "Playing a Scar Card)" and refused["Bunker"] in cli  # the rule `place` cites


def test_a_step_to_do_names_its_player_once(playing: Path) -> None:
    import html

    assert invoke(["game", "end", "--winner", "Ann"], playing).exit_code == 0
    page = client(playing)[0].get("/").text
    whats = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", w)).split())
             for w in re.findall(r'<div class="what">(.*?)</div>', page, re.S)]
    assert whats[0] == "Ann: The winner's reward" and not any("(Ann)" in w for w in whats), whats
    cites = re.findall(r'<div class="cite">(.*?)</div>', page)
    assert cites[0] == "Risk Legacy rulebook § If you won", cites


def test_a_sticker_that_asks_a_name_asks_it_once_and_then_where(playing: Path) -> None:
    """A city the winner may found on any of many territories: one name field and one list of the legal places
    (those `where` gives), not a name field for each place; the form records what the CLI would."""
    assert invoke(["game", "end", "--winner", "Ann"], playing).exit_code == 0
    c, _ = client(playing)
    page = c.get("/sticker/major-city", params={"by": "Ann"}).text
    where = invoke(["where", "major-city", "--by", "Ann"], playing).output.split()
    assert len(where) > 3 and page.count('name="name"') == 1
    assert re.findall(r'<option value="([^"]+)">', page.split('name="target"', 1)[1]) == where
    done = c.post("/do/place", data={**hidden(page), "sticker": "major-city", "by": "Ann", "name": "Lima",
                                     "target": "peru", "note": ""})
    assert done.status_code == 200 and "Recorded:" in done.text, done.text
    assert "peru: major-city 'Lima' (Ann, after game 1" in invoke(["status"], playing).output


def test_history_shows_the_world_after_a_game_and_what_it_changed(playing: Path) -> None:
    import html

    for line in (["game", "end", "--winner", "Ann"],):
        assert invoke(line, playing).exit_code == 0
    c, _ = client(playing)
    page = c.get("/history/1")
    assert page.status_code == 200 and "After game 1" in page.text and "/board.svg?after=1" in page.text
    assert "Ann" in page.text
    assert c.get("/board.svg", params={"after": "1"}).headers["content-type"].startswith("image/svg+xml")
    assert c.get("/history/9").status_code == 404
    told = [html.unescape(re.sub(r"<[^>]+>", "", t)) for t in re.findall(r'<li value="\d+">(.*?)</li>', page.text)]
    assert told[0] == "10: the group places Coin (+1 resource) on Alaska"  # the story's words, not the ledger's ids
    assert told[-1].endswith(": game 1 ends: Ann wins; Bob and Cat held on")


def test_hostile_names_are_text_on_every_page(tmp_path: Path) -> None:
    """A pack's names (quotes: tags are refused by validation, B301) and the players' and campaign's names
    (the ledger takes anything) never become markup."""
    pack = tmp_path / "hostile" / "pack.yaml"
    pack.parent.mkdir()
    source = (Path(__file__).resolve().parents[1] / "examples" / "new-scar" / "pack.yaml").read_text("utf-8")
    hostile = source.replace("name: Sinkhole\n", 'name: "Sink\\" autofocus onfocus=\\"window.pwned=1\\" & x"\n')
    pack.write_text(hostile.split("envelopes:")[0], "utf-8")  # no envelope: not sealed, shown from game 1
    file = tmp_path / "h.yaml"
    made = invoke(["new", str(file), "--game", "risk-legacy", "--player", "<script>window.pwned=4</script>",
                   "--player", 'Bob "the" <i>', "--player", "Cat", "--pack", str(pack),
                   "--name", "<img src=x onerror=window.pwned=5>"])
    assert made.exit_code == 0, made.output
    c, _ = client(file)
    pages = [c.get(u).text for u in ("/", "/sticker/sinkhole", "/place/alaska", "/history", "/undo")]
    for page in pages:
        assert "<script>window" not in page and "<img src=x" not in page and "<i>" not in page
        assert 'onfocus="window' not in page
    assert "&lt;script&gt;window.pwned=4&lt;/script&gt;" in pages[0]
    assert "&lt;img src=x onerror=window.pwned=5&gt;" in pages[0]
    assert "Sink&#34; autofocus onfocus=&#34;window.pwned=1&#34; &amp; x" in pages[0]  # the stickers to tap
    assert "<h1>Sink&#34; autofocus onfocus=&#34;window.pwned=1&#34; &amp; x</h1>" in pages[1]


def test_a_sticker_that_picks_an_option_offers_the_targets_options(tmp_path: Path) -> None:
    """A starting power (`choice-of`): the page offers each faction's powers by name; the pick is recorded
    as `place STICKER TARGET --name OPTION` would record it."""
    file = tmp_path / "c.yaml"
    assert invoke(["new", str(file), "--game", "risk-legacy", "--player", "Ann", "--player", "Bob",
                   "--player", "Cat"]).exit_code == 0
    c, _ = client(file)
    page = c.get("/sticker/first-game-power", params={"by": ""})
    assert '<option value="die-mechaniker-fortified-hq">Fortified HQ</option>' in page.text
    done = c.post("/do/place", data={**hidden(page.text), "sticker": "first-game-power", "target": "die-mechaniker",
                                     "by": "", "option": "die-mechaniker-fortified-hq"})
    assert done.status_code == 200 and "Recorded:" in done.text, done.text
    assert "fortified-hq" in invoke(["log"], file).output.splitlines()[-1]


@pytest.mark.parametrize("game", ["risk-legacy", "risk-shadow-forces", "risk-warhammer-40k", "shadow-blades",
                                  "harbor-watch", "bridge-isles", "tiny-game"])
def test_every_page_of_a_new_campaign_of_each_game_answers(tmp_path: Path, game: str) -> None:
    """Each shipped game and each example game (co-operative, characters, chapters ...): the table, a place,
    a sticker, the history and undo answer, in the game's words, with the forms its shape asks for."""
    from scarbook.campaign.service import table

    source = game
    if game in ("harbor-watch", "bridge-isles", "tiny-game"):
        source = str(Path(__file__).resolve().parents[1] / "examples" / game)
    file = tmp_path / "c.yaml"
    players = ["Ann", "Bob"] if game == "bridge-isles" else ["Ann", "Bob", "Cat"]  # each game's own count (R306)
    made = invoke(["new", str(file), "--game", source, *[x for p in players for x in ("--player", p)]])
    assert made.exit_code == 0, made.output
    c, _ = client(file)
    home = c.get("/")
    assert home.status_code == 200, home.text
    t = table.table(file)
    assert "Start game 1" in home.text
    for kind, choices in t.play_kinds:
        assert f"{kind} <select" in home.text and all(ch.name.replace("'", "&#39;") in home.text for ch in choices)
    board = table.board(file)
    urls = ["/history", "/undo", *(f"/sticker/{s.id}" for s in t.stickers[:3]),
            *(f"/place/{tid}" for tid, *_ in (board.places[:2] if board else []))]
    for url in urls:
        answer = c.get(url)
        assert answer.status_code in (200, 404), (url, answer.text)
        assert "Traceback" not in answer.text


def test_a_campaign_file_gone_is_a_diagnostic_page(playing: Path) -> None:
    c, _ = client(playing)
    playing.unlink()
    page = c.get("/")
    assert page.status_code == 500 and "L001" in page.text and "Traceback" not in page.text


def test_a_note_typed_with_a_write_is_kept_and_shown_as_text(playing: Path) -> None:
    """The note field of a form: recorded on the event (a form's CRLF line breaks as LF), shown in the answer
    and in the history, escaped; too long: refused with L020 and nothing written."""
    c, _ = client(playing)
    form = hidden(c.get("/").text)
    note = "Bob said <b>fine</b>\r\nsecond: line"
    before = playing.read_bytes()
    too_long = c.post("/do/place", data={**form, "sticker": "bunker", "target": "peru", "by": "Ann",
                                         "note": "x" * 1001})
    assert too_long.status_code == 422 and "L020" in too_long.text and playing.read_bytes() == before
    done = c.post("/do/place", data={**form, "sticker": "bunker", "target": "peru", "by": "Ann", "note": note})
    assert done.status_code == 200 and "Recorded:" in done.text, done.text
    assert "with the note: Bob said &lt;b&gt;fine&lt;/b&gt;" in done.text
    assert "--note &#39;Bob said &lt;b&gt;fine&lt;/b&gt;" in done.text  # the CLI command it stands for
    import json

    assert json.loads(invoke(["log", "--format", "json"], playing).output)[-1]["event"]["note"] == (
        "Bob said <b>fine</b>\nsecond: line")
    history = c.get("/history").text
    assert '<span class="event-note">Bob said &lt;b&gt;fine&lt;/b&gt;\nsecond: line</span>' in history
    assert "<b>fine" not in history


def test_redo_asks_first_then_records_the_undone_event_again(playing: Path) -> None:
    c, _ = client(playing)
    assert "There is nothing to redo" in c.get("/redo").text
    assert invoke(["place", "bunker", "peru", "--by", "Ann", "--note", "kept"], playing).exit_code == 0
    noted = playing.read_bytes()
    undone = c.post("/do/undo", data=hidden(c.get("/undo").text))
    assert "Undone:" in undone.text and "its note: kept" in undone.text and 'href="/redo"' in undone.text
    confirm = c.get("/redo")
    assert "Redo the event undone last?" in confirm.text and "bunker" in confirm.text and "kept" in confirm.text
    stale_form = hidden(confirm.text)
    assert invoke(["place", "coin", "peru"], playing).exit_code != 0  # a refusal writes nothing: still redoable
    done = c.post("/do/redo", data=stale_form)
    assert done.status_code == 200 and "Recorded:" in done.text, done.text
    assert "scarbook campaign redo" in done.text and playing.read_bytes() == noted
    again = c.post("/do/redo", data=hidden(c.get("/").text))
    assert again.status_code == 422 and "L019" in again.text and playing.read_bytes() == noted


def test_a_redo_from_a_page_built_on_an_older_ledger_is_refused(playing: Path) -> None:
    c, _ = client(playing)
    assert invoke(["place", "bunker", "peru", "--by", "Ann"], playing).exit_code == 0
    assert invoke(["undo"], playing).exit_code == 0
    form = hidden(c.get("/redo").text)
    assert invoke(["redo"], playing).exit_code == 0  # another device redid it
    assert invoke(["undo"], playing).exit_code == 0  # and undid it again: the same bytes, other history
    assert invoke(["place", "bunker", "peru", "--by", "Bob"], playing).exit_code == 0
    after = playing.read_bytes()
    stale = c.post("/do/redo", data=form)
    assert stale.status_code == 409 and "the campaign changed since you opened this page" in stale.text
    assert playing.read_bytes() == after


@pytest.mark.parametrize(("action", "fields", "code"), [
    ("tick", {"target": "alaska"}, "R320"),
    ("link", {"sticker": "bunker", "a": "alaska", "b": "peru", "by": "Ann"}, "R3"),
])
def test_tick_and_link_forms_refuse_as_the_cli_does(playing: Path, action: str, fields: dict[str, str],
                                                    code: str) -> None:
    c, _ = client(playing)
    before = playing.read_bytes()
    refused = c.post(f"/do/{action}", data={**hidden(c.get("/").text), **fields, "note": "n"})
    assert refused.status_code == 422 and "Refused; nothing was written." in refused.text
    assert f'<span class="code">{code}' in refused.text, refused.text
    assert f"scarbook campaign {action} " in refused.text and playing.read_bytes() == before
    bad = c.post("/do/tick", data={**hidden(refused.text), "target": "alaska", "boxes": "0"})
    assert "a whole number, 1 or more" in bad.text and playing.read_bytes() == before


def test_a_pack_beside_the_campaign_file_is_offered_and_added_with_its_note(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_bytes(setup_bytes())
    pack = tmp_path / "packs" / "sinkhole" / "pack.yaml"
    pack.parent.mkdir(parents=True)
    source = (Path(__file__).resolve().parents[1] / "examples" / "new-scar" / "pack.yaml").read_text("utf-8")
    pack.write_text(source, "utf-8")
    c, _ = client(file)
    home = c.get("/")
    assert 'action="/do/add-pack"' in home.text and '<option value="packs/sinkhole">' in home.text
    before = file.read_bytes()
    for elsewhere in ("../outside", "/tmp", "packs"):
        refused = c.post("/do/add-pack", data={**hidden(home.text), "pack": elsewhere})
        assert "no house-rule pack" in refused.text and file.read_bytes() == before
    done = c.post("/do/add-pack", data={**hidden(home.text), "pack": "packs/sinkhole", "note": "house rule"})
    assert done.status_code == 200 and "Recorded:" in done.text, done.text
    import json

    last = json.loads(invoke(["log", "--format", "json"], file).output)[-1]["event"]
    assert (last["event"], last["pack"], last["note"]) == ("add-pack", "packs/sinkhole", "house rule")
    assert 'action="/do/add-pack"' not in c.get("/").text  # added: no longer offered
