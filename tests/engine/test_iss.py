"""ISS game records: read with the engine, written back, errors with the move number."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skatschule.engine import SkatError
from skatschule.engine.bench import play_random_game
from skatschule.engine.iss import IssError, parse_record, parse_records, write_record

PUBLIC = Path(__file__).resolve().parents[2].parent / "shared" / "vectors" / "public_iss.json"
RECORD = (
    "(;GM[Skat]PC[International Skat Server]CO[]SE[1]ID[0]DT[2020-01-01/00:00:00/UTC]P0[a]P1[b]P2[c]"
    "R0[]R1[]R2[]MV[w CT.S9.DT.S7.D8.DA.H7.C7.HA.C8.CJ.CK.SK.S8.HK.ST.DJ.HQ.H9.HT.D9.H8.C9.CA.DQ.SQ.CQ.HJ."
    "DK.D7.SA.SJ 1 18 0 p 2 p 1 s w SA.SJ 1 G.S8.H9 0 DT 1 CJ 2 DK 1 ST 2 SQ 0 S7 1 HQ 2 H8 0 H7 1 DJ 2 HJ "
    "0 DA 2 DQ 0 D8 1 HT 2 D7 0 HA 1 SK 2 D9 0 S9 1 SA 2 CQ 0 C7 1 CK 1 HK 2 CA 0 CT 1 SJ 2 C9 0 C8]"
    "R[d:1 win v:72 m:2 bidok p:66 t:6 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)"
)


def test_a_record_is_replayed_move_by_move() -> None:
    game = parse_record(RECORD)
    state = game.state
    assert state.is_over() and state.declarer == 1 and state.bid == 18
    assert state.picked_up and state.trick_count == 10
    assert game.players == ("a", "b", "c")
    outcome = state.score()
    assert game.answer()["score"] == outcome.score
    assert game.answer()["declarer_points"] == state.declarer_augen()


def test_the_server_summary_is_never_read() -> None:
    forged = RECORD.replace("R[d:1 win v:72", "R[d:0 loss v:-999")
    assert parse_record(forged).answer() == parse_record(RECORD).answer()


@pytest.mark.parametrize("seed", range(40))
def test_written_records_read_back_to_the_same_game(seed: int) -> None:
    state = play_random_game(random.Random(seed))
    line = write_record(state, players=("x", "y", "z"), game_id=str(seed))
    assert "\n" not in line and line.startswith("(;GM[Skat]") and line.endswith(";)")
    again = parse_record(line).state
    assert again.record() == state.record()
    assert again.score().as_dict() == state.score().as_dict()


def test_many_records_in_one_text() -> None:
    games = parse_records(RECORD + "\n" + RECORD.replace("ID[0]", "ID[1]"))
    assert [g.properties["ID"] for g in games] == ["0", "1"]


@pytest.mark.parametrize(
    ("change", "move"),
    [
        (("2 SQ 0 S7", "2 DQ 0 S7"), 12),  # Hinterhand holds SQ and must follow spades
        (("1 G.S8.H9", "1 G.S8.S8"), 7),  # the same card put away twice
        (("1 s w SA.SJ", "1 s w SA.S7"), 6),  # the skat shown is not the one dealt
        (("0 p 2 p", "0 p 0 p"), 4),  # Vorhand passes twice
        (("1 G.S8.H9", "1 GH.S8.H9"), 7),  # a hand game after the pick-up
        (("2 C9 0 C8]", "2 C9]"), 36),  # the record stops before the end
        (("0 DT 1 CJ", "0 DT 1 CJ 1 HQ"), 10),  # Mittelhand plays twice
    ],
)
def test_errors_name_the_move(change: tuple[str, str], move: int) -> None:
    broken = RECORD.replace(*change)
    assert broken != RECORD
    with pytest.raises(IssError) as err:
        parse_record(broken)
    assert f"Zug {move} " in str(err.value)
    assert f"move {move} " in err.value.text.en


def test_hidden_cards_and_garbage_are_errors() -> None:
    with pytest.raises(SkatError):
        parse_record(RECORD.replace("CT.S9.DT", "??.S9.DT"))
    for text in ("", "(;GM[Skat];)", "(;GM[Go]MV[w];)", "no record", RECORD[:-2]):
        with pytest.raises(SkatError):
            parse_record(text)


def test_resignations() -> None:
    # the declarer (seat 1) gives up after the fourth trick: the rest goes to the defenders
    cut = RECORD.index(" 0 DA 2 DQ")
    declarer_gives_up = RECORD[:cut] + " 1 RE]R[] ;)"
    game = parse_record(declarer_gives_up)
    assert game.resigned == "declarer"
    answer = game.answer()
    assert answer["declarer_points"] == game.state.declarer_augen()
    assert answer["declarer_tricks"] == game.state.declarer_trick_count
    # both defenders give up: the rest goes to the declarer
    defenders_give_up = RECORD[:cut] + " 0 RE 2 RE]R[] ;)"
    game = parse_record(defenders_give_up)
    assert game.resigned == "defenders"
    state = game.state
    left = sum(c.points for s in range(3) for c in state.hand(s)) + sum(c.points for c in state.trick)
    assert state.trick  # the cut falls inside a trick: its cards go to the declarer too
    assert game.answer()["declarer_points"] == state.declarer_augen() + left
    assert game.answer()["won"] is True
    # one defender alone cannot give up the game
    with pytest.raises(IssError):
        parse_record(RECORD[:cut] + " 0 RE]R[] ;)")
    # a timeout counts as giving up
    assert parse_record(RECORD[:cut] + " w TI.1]R[] ;)").resigned == "declarer"


@pytest.mark.skipif(not PUBLIC.exists(), reason="no shared vectors beside the project")
def test_public_records_read() -> None:
    cases = json.loads(PUBLIC.read_text(encoding="utf-8"))["cases"]
    for case in cases:
        if case["expected"].get("error"):
            with pytest.raises(SkatError):
                parse_record(case["input"]["record"])
        else:
            answer = parse_record(case["input"]["record"]).answer()
            assert {k: answer[k] for k in case["expected"]} == case["expected"]


@pytest.mark.parametrize("bid", ["²", "٨٠", "１８", "9" * 5000])
def test_a_bid_that_is_not_plain_ascii_digits_is_a_named_error(bid: str) -> None:
    """ "²" passes ``str.isdigit`` but not ``int``, and 5000 nines exceed ``int``'s limit (both
    were a 500 at /ueben/spiel/iss/); "٨٠" and "１８" would be read as 80 and 18. Each is the
    error of move 2, like any other step the auction does not know."""
    broken = RECORD.replace("DK.D7.SA.SJ 1 18 0 p", f"DK.D7.SA.SJ 1 {bid} 0 p")
    assert broken != RECORD
    with pytest.raises(IssError) as err:
        parse_record(broken)
    assert "Zug 2 " in str(err.value)


def test_records_and_properties_are_read_as_the_old_regexes_read_them() -> None:
    """The one-pass readers (issue 25, item 1) find what ``\\(;.*?;\\)`` and
    ``([A-Z][A-Z0-9]*)\\[([^\\]]*)\\]`` found, on random text made of the characters that matter."""
    import random
    import re

    from skatschule.engine import iss

    records = re.compile(r"\(;.*?;\)", re.S)
    properties = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
    rng = random.Random(25)
    for _ in range(5000):
        text = "".join(rng.choice("AZ19[]x;() \n") for _ in range(rng.randint(0, 40)))
        assert iss.split_records(text) == records.findall(text), text
        assert iss._properties(text) == properties.findall(text), text
