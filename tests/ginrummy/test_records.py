"""GinRummy's game records (docs/records.md): written from real games, read back by
replaying them through the real engine, refused with the line when damaged; saved
from the result screens; replayed in the window by ``ginrummy replay FILE``."""
from __future__ import annotations

import datetime
import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from port import __version__
from port.cards import PascalRandom, parse
from port.files.gamerecord import Meta
from port.ginrummy.levels import load_player
from port.ginrummy.main import play
from port.ginrummy.main.replay import GinReplay, step_text
from port.ginrummy.main.table import Mode, shown_hand
from port.ginrummy.main.words import GINRUMMY
from port.main import replay
from port.ginrummy.record import choices, decisions, parse as parse_record, read as read_record, write, write_game
from port.ginrummy.review import Decision, Recording
from port.ginrummy.rules import Options, play_game, preset
from port.ginrummy.rules.options import FirstTurn
from port.ginrummy.rules.players import legal_discards
from port.ginrummy.rules.state import Act, Phase
from port.screen.profiles import LIGHTGRAY, RED, WHITE
from tests.ginrummy.helpers import click_at, open_game, pixels_in, set_hand, shows_text
from tests.record_helpers import TOP, card_in, line_of, read_only, refusal, rewrite, run_replay, text_in

# Rules that reach every line the record has: Oklahoma's doubling, the knock deck and
# its doublers, boxes and the sheet, Hollywood's games, flop gin, gin only, the upcard
# offer and the deal of eleven (the card room, the classic program), one hand.
OPTIONS = [Options(), preset("CARD ROOM"), preset("CLASSIC"), Options(oklahoma=True),
           Options(scoring="HOLLYWOOD"), Options(knock_deck=True, doublers=("SPADES", "HEARTS")),
           Options(scoring="FLOP"), Options(knocking=False, score_limit=50),
           Options(scoring="GAME_ONLY", shutout=True), Options(score_limit=0)]
LEVELS = ("easy", "standard")


def played(i: int, options: Options, a: str = "", b: str = ""):
    a = a or LEVELS[i % 2]
    b = b or LEVELS[(i // 2) % 2]
    if i % 3:
        options = options.with_(first_turn=FirstTurn.ALTERNATE)   # as the match runner plays
    record = play_game(options, PascalRandom(100 + i), (load_player(a, seed=i), load_player(b, seed=i + 1)),
                       keep=True)
    text = write_game(record, options, Meta((a, b), ("side A", "side B"), seed=100 + i, date="2025-01-31"))
    return record, text, options


@pytest.mark.parametrize("i", range(40))
def test_a_record_replays_through_the_engine_to_the_same_scores(i: int) -> None:
    record, text, options = played(i, OPTIONS[i % len(OPTIONS)])
    log = parse_record(text)
    assert log.scores == record.scores
    assert log.winner == record.winner
    assert log.totals == record.sheet.totals
    assert log.over and log.hands == len(record.hands)
    assert log.options == options
    # every hand's settlement, one by one, and the scores after it
    ends = [st for st in log.steps if st.kind == "end"]
    assert [st.state.result for st in ends] == [h.result for h in record.hands]
    # and written again from the replay's own states, the very same text
    assert rewrite(log, write) == text


def test_expert_against_expert_round_trips() -> None:
    record, text, _ = played(0, Options(score_limit=0), "expert", "expert")
    log = parse_record(text)
    assert log.names == ("expert-0", "expert-1")     # the same level twice: told apart
    assert (log.scores, log.winner) == (record.scores, record.winner)


def test_the_record_reads_as_a_game() -> None:
    """The lines a person reads: the header, each deal, each move with its card, the
    settlement, the scores, the result."""
    _, text, _ = played(1, Options())
    lines = text.splitlines()
    assert lines[:5] == ["GinRummy game record, version 1", f"Program: GinRummy {__version__}",
                         "Date: 2025-01-31", "Seat 0: standard (side A)", "Seat 1: easy (side B)"]
    assert lines[5] == ("Rules: gin bonus 25, undercut bonus 25, score limit 100, Oklahoma no, knocking yes, "
                        "first turn alternates")
    assert lines[6] == ("Table rules: knock deck no, scoring TOTAL, doublers none, shutout doubler no, "
                        "upcard offer no, deal of eleven no, first dealer at random no, winner deals no, "
                        "box bonus 25")
    assert lines[7] == "Seed: 101"
    assert lines[8] == "Hand 1: easy deals, standard moves first."
    assert re.fullmatch(r"standard is dealt: (\w\w ){9}\w\w\.", lines[9])
    assert re.fullmatch(r"easy is dealt: (\w\w ){9}\w\w\.", lines[10])
    assert re.fullmatch(r"Upcard: \w\w\.", lines[11])
    assert re.fullmatch(r"Stock, top first: (\w\w ){30}\w\w\.", lines[12])
    assert re.fullmatch(r"standard (draws \w\w from the stock|takes \w\w from the pile)\.", lines[13])
    assert re.fullmatch(r"standard discards \w\w\.", lines[14])
    assert any(re.fullmatch(r"(Knock|Gin|Undercut): \w+ scores \d+\.", line) for line in lines)
    assert any(line.startswith("Scores after hand 1: standard ") for line in lines)
    assert lines[-1].startswith("Result: ") and lines[-1].endswith("hands.")


def test_each_decision_is_the_seats_own_view_before_it() -> None:
    """What Review will need: before each move, the mover's View (its own cards, the
    public facts), in which that move is one of the moves open to it."""
    _, text, _ = played(2, preset("CLASSIC"))
    log = parse_record(text)
    count = 0
    for view, action in decisions(log):
        assert view.seat == action.seat == view.to_move
        if action.act is Act.DISCARD:
            assert view.phase is Phase.DISCARD and action.card in legal_discards(view)
        elif action.act is Act.DRAW_PILE:
            assert view.pile_top == action.card
        elif action.act is Act.DRAW_STOCK:
            assert action.card not in view.hand
        count += 1
    assert count > 30


@pytest.mark.parametrize("options", [Options(score_limit=50), preset("CLASSIC"), preset("CARD ROOM")],
                         ids=["original", "classic", "card room"])
def test_a_record_gives_each_decision_exactly_as_the_player_saw_it(options: Options) -> None:
    """Review's input: the decisions a record gives are the very ones a Recording
    noted while the game was played (the View to the last event, the choice, the hand
    and the turn)."""
    seat = Recording(load_player("standard", seed=3))
    options = options.with_(first_turn=FirstTurn.ALTERNATE)
    record = play_game(options, PascalRandom(77), (seat, load_player("easy", seed=4)), keep=True)
    log = parse_record(write_game(record, options, Meta(("standard", "easy"), ("A", "B"))))
    noted = [(d.view, d.choice, d.hand, d.turn) for d in seat.decisions]
    assert list(choices(log, seat=0)) == noted and len(noted) > 20
    assert Decision(*noted[0]) == seat.decisions[0]


# ---- damaged records are refused, naming the line ------------------------------------------

@pytest.fixture(scope="module")
def good() -> str:
    return played(1, preset("CARD ROOM"))[1]


def test_a_record_cut_short_anywhere_is_refused_with_a_line(good: str) -> None:
    lines = good.splitlines(keepends=True)
    for cut in range(1, len(lines), 7):
        message = refusal(parse_record, "".join(lines[:cut]))
        assert re.match(r"line \d+: ", message) or message.startswith("the header"), message
    # cut at a hand's end, where a game saved after one hand would end: its result is missing
    end = line_of(good, r"^Scores after hand 1:")
    assert re.fullmatch(rf"line {end}: the record stops here, cut short: "
                        r"'Result: not finished after 1 hand, standard \d+, easy \d+' should follow",
                        refusal(parse_record, "".join(lines[:end])))


def canon_of(line: str) -> str:
    return line.strip().rstrip(".")


def test_a_move_edited_to_one_the_rules_refuse_is_refused_on_its_line(good: str) -> None:
    lines = good.splitlines()
    n = line_of(good, r" discards \w\w\.$")
    who, card = re.fullmatch(r"(.+) discards (\w\w)\.", lines[n - 1]).groups()
    hand_line = next(line for line in lines if line.startswith(f"{who} is dealt: "))
    held = set(parse(hand_line.split(": ", 1)[1].rstrip(".")))
    other = next(c for c in parse("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H") if c not in held
                 and str(c) != card and str(c) not in good.splitlines()[n - 2])
    lines[n - 1] = f"{who} discards {other}."
    message = refusal(parse_record, "\n".join(lines) + "\n")
    assert message.startswith(f"line {n}: {who} cannot discard {other}: ")
    assert "seat 0" not in message and "seat 1" not in message      # the names, not the seats


def test_a_draw_edited_to_another_card_is_refused_on_its_line(good: str) -> None:
    lines = good.splitlines()
    n = line_of(good, r" draws \w\w from the stock\.$")
    m = re.fullmatch(r"(.+) draws (\w\w) from the stock\.", lines[n - 1])
    lines[n - 1] = f"{m.group(1)} draws {'KC' if m.group(2) != 'KC' else 'KD'} from the stock."
    message = refusal(parse_record, "\n".join(lines) + "\n")
    assert message == (f"line {n}: the record says '{canon_of(lines[n - 1])}', "
                       f"but the game gives '{m.group(1)} draws {m.group(2)} from the stock'")


def test_a_score_edited_is_refused_on_its_line(good: str) -> None:
    lines = good.splitlines()
    n = line_of(good, r"^Scores after hand 1:")
    lines[n - 1] = re.sub(r"(\d+),", lambda m: f"{int(m.group(1)) + 1},", lines[n - 1], count=1)
    assert refusal(parse_record, "\n".join(lines) + "\n").startswith(f"line {n}: the record says 'Scores after hand 1: ")


def test_garbage_and_other_files_are_refused_in_one_sentence(good: str) -> None:
    assert refusal(parse_record, "") == "it is empty: no game record"
    assert refusal(parse_record, "hello\nworld\n") == "line 1: not a GinRummy game record (it begins 'hello')"
    assert refusal(parse_record, good.replace("version 1", "version 7", 1)).startswith("line 1: made by another version")
    cribbage = "Cribbage game record, version 1\n"
    assert refusal(parse_record, cribbage) == ("line 1: this is a Cribbage game record, not a GinRummy one: "
                                 "replay it with cribbage replay")
    assert refusal(parse_record, good.replace("score limit 100", "score limit lots")).startswith(
        "line 6: score limit: expected a whole number")
    assert refusal(parse_record, good.replace("first turn alternates", "first turn me")).startswith(
        "line 6: first turn: expected seat 0 or alternates, not 'me'")
    assert refusal(parse_record, good.replace("Seat 1: ", "Seat 9: ")).startswith("line 5: the header has no 'Seat 1' line")
    lines = good.splitlines()
    n = line_of(good, r"^easy is dealt: ")            # a card of the other hand's, dealt twice
    mine = lines[n - 2].split(": ")[1].split()[0]
    twice = lines[:n - 1] + [re.sub(r": \w\w", f": {mine}", lines[n - 1], count=1)] + lines[n:]
    assert refusal(parse_record, "\n".join(twice)) == (
        f"line {n - 2}: cannot deal the hand: the deck needs 52 different cards ({mine} is there twice)")
    lines.append("Hand 99: nobody deals.")
    assert refusal(parse_record, "\n".join(lines)).startswith(f"line {len(lines)}: nothing may follow the result")


def test_comments_blank_lines_and_commentary_are_the_readers_own(good: str) -> None:
    """A person may annotate a record: # lines, blank lines, words in a final
    parenthesis; the game it holds is the same."""
    lines = good.splitlines()
    n = line_of(good, r" discards \w\w\.$")
    lines[n - 1] = lines[n - 1][:-1] + " (a bold throw)."
    lines.insert(n, "# I would have kept it")
    lines.insert(n, "")
    log = parse_record("\n".join(lines) + "\n")
    assert log.scores == parse_record(good).scores


def older(text: str) -> str:
    """A record as versions before 0.2 wrote it: the rules as the engine's fields."""
    log = parse_record(text)
    from port.ginrummy.record import header_lines
    new, old = header_lines(log.meta, log.options), header_lines(log.meta, log.options, words=False)
    for a, b in zip(new, old):
        text = text.replace(a + "\n", b + "\n", 1)
    return text


@pytest.mark.parametrize("options", [Options(first_turn=FirstTurn.ALTERNATE),
                                     Options(knock_deck=True, doublers=("SPADES", "HEARTS"), scoring="BOXES")],
                         ids=["classic", "table rules"])
def test_records_written_before_the_rules_were_in_words_still_replay_and_review(options: Options) -> None:
    """docs/records.md, "What changed": older records read as ever."""
    record, text, options = played(2, options)
    old = older(text)
    assert "Rules: gin_bonus=25 undercut_bonus=25 score_limit=100 oklahoma=no knocking=yes" in old
    assert "Table rules: knock_deck=" in old and "Rules: gin bonus" not in old
    log = parse_record(old)
    assert (log.scores, log.winner, log.options) == (record.scores, record.winner, options)
    for seat in (0, 1):                          # what the review looks at: every decision, the same
        assert list(choices(log, seat)) == list(choices(parse_record(text), seat))


# ---- a game that stopped before its end (the card room's resigned, forfeited, left) ------

@functools.cache
def _game(i: int):   # -> (GameRecord, Options): one game for the stopped records below
    record, _, options = played(i, Options())
    return record, options


def stopped(how: str, loser: int, hand: int, moves: int, i: int = 3) -> tuple[str, Options]:
    """A played game's record cut in hand ``hand`` after ``moves`` of its moves, as the
    room writes a game that stopped there."""
    from port.files.gamerecord import Ending, kept_hands
    from port.ginrummy.record import _apply, _moves_of

    record, options = _game(i)
    hands = kept_hands(record.hands)
    start, end = hands[hand - 1]
    partial = start.copy()
    for action in _moves_of(end)[:moves]:
        _apply(partial, action)
    meta = Meta(("Ann", "Stan"), ("room player", "room bot"), seed=7, date="2025-01-31")
    return write(options, meta, [*hands[:hand - 1], (start, partial)], Ending(how, loser)), options


def test_a_game_that_stopped_says_who_won_and_how_and_holds_its_last_hand_as_far_as_it_went() -> None:
    text, options = stopped("clock", 0, 2, 5)
    lines = text.splitlines()
    assert re.fullmatch(r"Result: Stan wins: Ann forfeited on the clock in hand 2, Ann \d+, Stan \d+\.", lines[-1])
    hand2 = lines.index(next(x for x in lines if x.startswith("Hand 2: ")))
    assert len(lines) - 1 - hand2 == 5 + 5                   # its deal's five lines, its five moves
    log = parse_record(text)
    assert (log.ending.how, log.winner, log.over, log.hands) == ("clock", 1, False, 2)
    assert log.scores == tuple(int(n) for n in re.findall(r"(\d+)", lines[-1])[-2:])
    assert rewrite(log, write) == text                       # written again, the same text
    assert len([c for c in choices(log) if c[2] == 2]) >= 2   # the review sees its decisions
    assert step_text(log.steps[-1], log.names) == [lines[-1]]  # the viewer's last step says it
    for how, words in (("resigned", "resigned"), ("away", "did not come back")):
        other = stopped(how, 1, 1, 0)[0]
        assert other.splitlines()[-1].startswith(f"Result: Ann wins: Stan {words} in hand 1, ")
        assert parse_record(other).ending.how == how
    # The Result line is checked as any line: its score, and who wins.
    n = len(lines)
    wrong = re.sub(r"Stan (\d+)\.$", lambda m: f"Stan {int(m.group(1)) + 1}.", lines[-1])
    assert refusal(parse_record, "\n".join(lines[:-1] + [wrong]) + "\n").startswith(f"line {n}: the record says ")
    swapped = lines[-1].replace("Stan wins: Ann", "Ann wins: Ann")
    assert refusal(parse_record, "\n".join(lines[:-1] + [swapped]) + "\n") == (
        f"line {n}: the Result line should name one seat (Ann or Stan) as the one who stopped and the other "
        "as the winner")
    # Without its Result line, a record cut in a hand is still refused as ever.
    assert refusal(parse_record, "\n".join(lines[:-1]) + "\n").startswith(
        f"line {n - 1}: the record stops in the middle of hand 2")


# ---- SAVE RECORD on the result screens ---------------------------------------------------

ME = "6H 7H 8H 2C 3C 4C 9S 9D 9C 5D"            # draws QS, throws it, knocks with 5
CPU = "5H 4H KS KD QC JC TC 2D 3S 9H"


def to_hand_end(d):
    s = set_hand(d, ME, CPU, "KH", "QS")
    d.key("D")
    d.key("D")
    d.key("Y")
    assert s.table.mode is Mode.HAND_END
    return s


def records_in(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if p.suffix == ".REC")


def test_r_at_the_hands_end_saves_the_game_so_far_once_and_never_overwrites(tmp_path: Path) -> None:
    d = open_game(tmp_path, name="Dave")
    s = to_hand_end(d)
    d.key("R")
    assert records_in(tmp_path) == ["GR0001.REC"]
    assert shows_text(d, 16, play.NOTE_Y, "Record saved as GR0001.REC.")
    log = read_record(tmp_path / "GR0001.REC")
    assert log.names == ("Dave", "COMPUTER") and log.meta.roles == ("human", "STANDARD")
    assert log.meta.date == datetime.date.today().isoformat() and log.meta.seed == 7
    assert (log.hands, log.over, log.scores) == (1, False, (20, 0))
    assert log.text.splitlines()[-1] == "Result: not finished after 1 hand, Dave 20, COMPUTER 0."
    d.key("R")                                     # again: the same game is not written twice
    assert records_in(tmp_path) == ["GR0001.REC"]
    assert shows_text(d, 16, play.NOTE_Y, "Already saved as GR0001.REC.")
    d.key("C")                                     # the next hand: the note goes
    assert s.table.mode is not Mode.HAND_END and not s.note


def test_an_undone_pile_draw_is_in_the_record(tmp_path: Path) -> None:
    d = open_game(tmp_path)
    s = set_hand(d, ME, CPU, "KH", "QS")
    d.key("P")                                     # the pile's KH, put back
    d.key("U")
    d.key("D")
    d.key("D")
    d.key("Y")
    assert s.table.mode is Mode.HAND_END
    d.key("R")
    lines = (tmp_path / "GR0001.REC").read_text().splitlines()
    at = lines.index("PLAYER takes KH from the pile.")
    assert lines[at + 1:at + 4] == ["PLAYER puts KH back on the pile.", "PLAYER draws QS from the stock.",
                                    "PLAYER discards QS."]
    assert read_record(tmp_path / "GR0001.REC").scores == (20, 0)


def test_a_click_on_save_record_at_the_games_end_saves_the_whole_game(tmp_path: Path) -> None:
    d = open_game(tmp_path, score_limit=0)
    (tmp_path / "GR0001.REC").write_text("an earlier record, kept\n")
    s = to_hand_end(d)
    d.key("RETURN")
    assert s.table.mode is Mode.GAME_END
    assert pixels_in(d, *play.SAVE_BOX[:2], play.SAVE_BOX.w, 1, RED) == play.SAVE_BOX.w   # its red box
    click_at(d, play.SAVE_BOX)
    assert records_in(tmp_path) == ["GR0001.REC", "GR0002.REC"]
    assert (tmp_path / "GR0001.REC").read_text() == "an earlier record, kept\n"
    log = read_record(tmp_path / "GR0002.REC")
    assert log.over and log.winner == 0 and log.text.splitlines()[-1] == "Result: PLAYER wins 20 to 0 after 1 hand."


def test_the_score_sheets_page_has_save_record_too(tmp_path: Path) -> None:
    d = open_game(tmp_path, score_limit=0)
    d.controller.ctx.config = d.controller.ctx.config.with_(scoring="BOXES")
    s = to_hand_end(d)
    d.key("RETURN")
    assert s.table.mode is Mode.GAME_END and s.table.sheet_shown
    click_at(d, play.SAVE_BOX)
    assert read_record(tmp_path / "GR0001.REC").totals == s.table.sheet().totals


def test_nodisk_writes_no_record_and_says_so(tmp_path: Path) -> None:
    d = open_game(tmp_path, nodisk=True)
    to_hand_end(d)
    before = sorted(p.name for p in tmp_path.iterdir())
    d.key("R")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert shows_text(d, 16, play.NOTE_Y, "NODISK: the record is not saved.")


def test_a_directory_that_refuses_the_record_loses_nothing(tmp_path: Path) -> None:
    d = open_game(tmp_path)
    s = to_hand_end(d)
    with read_only(tmp_path):
        d.key("R")
        assert records_in(tmp_path) == []
        assert shows_text(d, 16, play.NOTE_Y, "Not saved: Operation not permitted.") or \
            shows_text(d, 16, play.NOTE_Y, "Not saved: Permission denied.")
    d.key("C")                                     # the game goes on
    assert s.table.mode is not Mode.HAND_END


# ---- ginrummy replay FILE: the viewer in the real program --------------------------------

def test_the_replay_shows_a_hands_end_as_the_game_showed_it(tmp_path: Path) -> None:
    """Under the table rules (the knock deck, boxes, the spades doubler): the game's
    hand-end words, in the seats' names, and the Result line whole, on the table the
    game showed (issue 33)."""
    from tests.ginrummy.test_rules import deck_for

    d = open_game(tmp_path, score_limit=0)
    d.controller.ctx.config = d.controller.ctx.config.with_(
        knock_deck=True, scoring="BOXES", doublers=("SPADES",), shutout=True)
    s = set_hand(d, ME, CPU, "KH", "QS")
    s.table.redeal(deck_for(ME, CPU, "KH", "QS"), knock_card=parse("7S")[0])
    for key in "DDY":
        d.key(key)
    assert s.table.mode is Mode.HAND_END
    d.step()
    said = play.result_lines(s.table.result, "PLAYER", s.table.options, s.table.hand.knock_card)
    assert said == ["YOU KNOCKED WITH 5.", "3 CARDS LAID OFF.", "DEADWOOD: YOU 5, COMPUTER 25.",
                    "SPADE KNOCK CARD: DOUBLED.", "YOU SCORE 40, 1 BOX."]
    d.key("R")
    text = (tmp_path / "GR0001.REC").read_text()
    r = open_game(tmp_path, replay=parse_record(text))
    r.key("END")
    words = ["PLAYER KNOCKED WITH 5.", "3 CARDS LAID OFF.", "DEADWOOD: PLAYER 5, COMPUTER 25.",
             "SPADE KNOCK CARD: DOUBLED.", "PLAYER SCORES 40, 1 BOX.",
             "Result: PLAYER wins 130 to 0 after", "1 hand."]
    assert text.splitlines()[-1] == "Result: PLAYER wins 130 to 0 after 1 hand."
    assert all(shows_text(r, GinReplay.text_x, GinReplay.text_y + 14 * i, line) for i, line in enumerate(words))
    for x, y in ((play.RESULT_X, play.CPU_Y + 8), (play.HAND_X, play.HAND_Y)):   # the hands as the game drew them
        assert r.snapshot()[y * 640 + x: y * 640 + x + 48] == d.snapshot()[y * 640 + x: y * 640 + x + 48]
    assert r.snapshot()[(play.HAND_Y - 6) * 640:(play.HAND_Y + 64) * 640] == \
        d.snapshot()[(play.HAND_Y - 6) * 640:(play.HAND_Y + 64) * 640], "your row, bars and cards, the same"


def test_the_replay_viewer_steps_forward_and_back_and_shows_each_step(tmp_path: Path, screen_of) -> None:
    _, text, _ = played(1, Options(score_limit=50))              # standard (seat 0) against easy
    record = tmp_path / "GR000001.REC"
    record.write_text(text)
    log = parse_record(text)
    next_box = replay.BOXES[1]
    shots = run_replay("ginrummy", record, "\n".join([
        "move 636 346", "wait 2", "shot s0", "key RIGHT", "shot s1", "key n", "shot s2", "key LEFT",
        "shot back1", f"click left {next_box[3] + 8} {GinReplay.box_y + 8}", "move 636 346", "wait 1",
        "shot again2",
        "key PAGEDOWN", "shot hand2", "key END", "shot end", "key HOME", "shot home", "key q"]), tmp_path,
        "NODISK")
    assert shots["back1"].pixels == shots["s1"].pixels and shots["again2"].pixels == shots["s2"].pixels
    assert shots["home"].pixels == shots["s0"].pixels != shots["s1"].pixels
    screen = screen_of("EGA")
    n = len(log.steps)

    def shows_step(img, i: int) -> bool:
        st = log.steps[i]
        h = st.state
        lines = GinReplay.wrapped(step_text(st, log.names))
        ok = text_in(img, replay.STATUS_X, GinReplay.box_y + 6, f"HAND {st.hand}/{log.hands} STEP {i + 1}/{n}",
                     LIGHTGRAY)
        ok &= text_in(img, GinReplay.text_x, GinReplay.text_y, lines[0], WHITE)
        ok &= text_in(img, replay.STATUS_X, GinReplay.box_y - 14, f"RECORD LINE {st.line}", LIGHTGRAY)
        for seat in (0, 1):
            ok &= text_in(img, play.SCORE_X, 20 + 14 * seat, f"{log.names[seat]:<8}{st.scores[seat]:>5}", WHITE)
        if h.phase is not Phase.OVER:
            for seat, x0, y, pitch in ((0, play.HAND_X, play.HAND_Y, play.HAND_STEP),
                                       (1, play.RESULT_X, play.CPU_Y + 8, play.RESULT_STEP)):
                cards = [c for c in h.hand(seat) if not (h.phase is Phase.DISCARD and c == h.drawn)]
                for k, c in enumerate(shown_hand(cards, "RANK").cards):
                    ok &= card_in(screen, img, x0 + k * pitch, y, c)
            if h.pile:
                ok &= card_in(screen, img, play.PILE_X, play.ROW_Y, h.pile[-1])
        return ok

    assert shows_step(shots["s0"], 0) and shows_step(shots["s1"], 1) and shows_step(shots["s2"], 2)
    assert log.steps[1].lines[0] in text and log.steps[1].kind == "move"
    second = next(i for i, st in enumerate(log.steps) if st.hand == 2)
    assert shows_step(shots["hand2"], second)
    assert shows_step(shots["end"], n - 1)
    shown = GinReplay.wrapped(step_text(log.steps[-1], log.names))
    final = GinReplay.wrapped([text.splitlines()[-1]])     # "Result: standard wins ..."
    at = len(shown) - len(final)
    assert final[0].startswith("Result: ") and at + len(final) <= GinReplay.rows
    assert all(text_in(shots["end"], GinReplay.text_x, GinReplay.text_y + 14 * (at + k), part, WHITE)
               for k, part in enumerate(final))


@pytest.mark.parametrize("content, sentence", [
    (None, "GR9999.REC: cannot read it (No such file or directory)"),
    ("garbage\n", "GR9999.REC: line 1: not a GinRummy game record (it begins 'garbage')"),
    ("Cribbage game record, version 1\n",
     "GR9999.REC: line 1: this is a Cribbage game record, not a GinRummy one: replay it with cribbage replay"),
])
def test_a_bad_record_file_is_one_sentence_and_exit_2_before_any_window(tmp_path: Path, content, sentence) -> None:
    if content is not None:
        (tmp_path / "GR9999.REC").write_text(content)
    done = subprocess.run([sys.executable, "-m", "port.ginrummy", "replay", "GR9999.REC"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(TOP),
                                                                     "DISPLAY": "", "SDL_VIDEODRIVER": "none"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"ginrummy: {sentence}  (ginrummy /? for help)\n"


def test_a_damaged_record_is_refused_naming_its_line_and_replay_needs_a_file(tmp_path: Path) -> None:
    _, text, _ = played(1, Options(score_limit=0))
    lines = text.splitlines()
    n = line_of(text, r" discards \w\w\.$")
    lines[n - 1] = lines[n - 1].split(" discards ")[0] + " knocks."
    (tmp_path / "bad.rec").write_text("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "port.ginrummy", "replay", "bad.rec"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(TOP)})
    assert done.returncode == 2 and done.stderr.startswith(f"ginrummy: bad.rec: line {n}: ")
    assert done.stderr.count("\n") == 1
    done = subprocess.run([sys.executable, "-m", "port.ginrummy", "replay"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(TOP)})
    assert done.returncode == 2
    assert done.stderr == ("ginrummy: replay needs a game record file (ginrummy replay GR0001.REC)"
                           "  (ginrummy /? for help)\n")


def test_the_help_lists_replay() -> None:
    assert "ginrummy replay FILE        step through a game record (GR0001.REC) in the window" in GINRUMMY.help
