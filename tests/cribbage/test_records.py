"""Cribbage's game records (docs/records.md): written from real games, read back by
replaying them through the real engine, refused with the line when damaged; saved
from the result screens; replayed in the window by ``cribbage replay FILE``."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from port import __version__
from port.cards import PascalRandom
from port.cribbage.levels import load_player
from port.cribbage.main import layout as L
from port.cribbage.main.board import TRACK_Y, hole_x
from port.cribbage.main.replay import CribReplay, step_text
from port.cribbage.main.words import CRIBBAGE
from port.cribbage.record import decisions, parse as parse_record, read as read_record, write, write_game
from port.cribbage.rules import Options, play_game
from port.cribbage.rules.state import Act, Phase
from port.files.gamerecord import Meta
from port.main import replay
from port.screen.profiles import LIGHTGRAY, LIGHTGREEN, LIGHTRED, RED, WHITE, YELLOW
from tests.cribbage.helpers import box_up, click_at, in_game, open_cribbage, pixels_in
from tests.cribbage.scenes import _until as until
from tests.cribbage.test_game import keyboard_game
from tests.ginrummy.helpers import shows_text
from tests.record_helpers import TOP, card_in, line_of, read_only, refusal, rewrite, run_replay, text_in

OPTIONS = [Options(), Options(61, True), Options(121, True), Options(61)]


def played(i: int, a: str = "standard", b: str = "standard", options: Options | None = None):
    options = options or OPTIONS[i % len(OPTIONS)]
    record = play_game(options, PascalRandom(200 + i), (load_player(a, seed=i), load_player(b, seed=i + 1)),
                       keep=True)
    text = write_game(record, options, Meta((a, b), ("side A", "side B"), seed=200 + i, date="2025-01-31"))
    return record, text, options


@pytest.mark.parametrize("i", range(24))
def test_a_record_replays_through_the_engine_to_the_same_scores(i: int) -> None:
    record, text, options = played(i)
    log = parse_record(text)
    assert log.scores == record.scores
    assert (log.winner, log.skunk, log.over) == (record.winner, record.skunk, True)
    assert log.hands == len(record.hands) and log.options == options
    ends = [st.state for st in log.steps if st.kind == "end"]
    assert [s.scores for s in ends] == [h.scores for h in record.hands]
    assert [(s.pegging, s.heels, s.hand_points, s.crib_points) for s in ends] == [
        (list(h.pegging), list(h.heels), list(h.hand), list(h.crib)) for h in record.hands]
    assert rewrite(log, write) == text


def test_expert_against_standard_round_trips() -> None:
    record, text, _ = played(1, "expert", "standard", Options(61))
    log = parse_record(text)
    assert (log.scores, log.winner) == (record.scores, record.winner)


def test_the_record_reads_as_a_game() -> None:
    _, text, _ = played(1, "expert", "standard", Options(61, True))
    lines = text.splitlines()
    assert lines[:7] == ["Cribbage game record, version 1", f"Program: Cribbage {__version__}",
                         "Date: 2025-01-31", "Seat 0: expert (side A)", "Seat 1: standard (side B)",
                         "Rules: score limit 61, skunking yes", "Seed: 201"]
    assert re.fullmatch(r"Hand 1: (expert|standard) deals\.", lines[7])
    assert re.fullmatch(r"expert is dealt: (\w\w ){5}\w\w\.", lines[8])
    assert re.fullmatch(r"standard is dealt: (\w\w ){5}\w\w\.", lines[9])
    assert re.fullmatch(r"Starter: \w\w \(cut after the lay-away; here for the replay\)\.", lines[10])
    assert re.fullmatch(r"\w+ lays away \w\w \w\w\.", lines[11])
    assert re.fullmatch(r"\w+ lays away \w\w \w\w\.", lines[12])
    assert re.fullmatch(r"The cut turns \w\w(: \w+ pegs 2 \(his heels\))?\.", lines[13])
    assert any(re.fullmatch(r"\w+ plays \w\w, count \d+, pegs \d+ \(.+\)\.", line) for line in lines)
    assert any(re.fullmatch(r"\w+ says go\.", line) for line in lines)
    assert any(re.fullmatch(r"\w+ pegs 1 \((go|last card) for 1\)\.", line) for line in lines)
    assert any(re.fullmatch(r"\w+'s hand: (\w\w ){3}\w\w with \w\w = \d+ \(.+\)\.", line) for line in lines)
    assert any(re.fullmatch(r"\w+'s crib: (\w\w ){3}\w\w with \w\w = \d+ \(.+\)\.", line) for line in lines)
    assert lines[-1].startswith("Result: ") and " wins " in lines[-1]


def test_each_decision_is_the_seats_own_view_before_it() -> None:
    _, text, _ = played(2)
    log = parse_record(text)
    count = 0
    for view, action in decisions(log):
        assert view.seat == action.seat == view.to_act
        if action.act is Act.DISCARD:
            assert view.phase is Phase.DISCARD and set(action.cards) <= set(view.hand)
        elif action.act is Act.PLAY:
            assert action.cards[0] in view.legal_plays()
        else:
            assert action.act is Act.GO and not view.legal_plays()
        count += 1
    assert count > 50


# ---- damaged records are refused, naming the line ------------------------------------------

@pytest.fixture(scope="module")
def good() -> str:
    return played(2)[1]


def test_a_record_cut_short_anywhere_is_refused_with_a_line(good: str) -> None:
    lines = good.splitlines(keepends=True)
    for cut in range(1, len(lines), 5):
        assert re.match(r"line \d+: ", refusal(parse_record, "".join(lines[:cut])))


def test_a_card_played_that_the_rules_refuse_is_refused_on_its_line(good: str) -> None:
    lines = good.splitlines()
    n = line_of(good, r" plays \w\w, count ")
    who = lines[n - 1].split(" plays ")[0]
    # a card the player does not hold (the other seat's first card of this deal)
    dealt = [line for line in lines if line.endswith(".") and " is dealt: " in line][:2]
    theirs = next(line for line in dealt if not line.startswith(who)).split(": ")[1].split()[0]
    lines[n - 1] = f"{who} plays {theirs}, count 99."
    assert refusal(parse_record, "\n".join(lines)) == f"line {n}: {theirs} is not in {who}'s hand"


def test_a_go_while_holding_a_card_that_fits_is_refused(good: str) -> None:
    lines = good.splitlines()
    n = line_of(good, r" plays \w\w, count ([1-9]|1[0-9])\b")
    who = lines[n - 1].split(" plays ")[0]
    lines[n - 1] = f"{who} says go."
    assert refusal(parse_record, "\n".join(lines)).startswith(f"line {n}: {who} cannot say GO: it holds a card that fits")


def test_points_edited_are_refused_on_their_line(good: str) -> None:
    lines = good.splitlines()
    n = line_of(good, r"'s hand: .* = \d+")
    lines[n - 1] = re.sub(r"= (\d+)", lambda m: f"= {int(m.group(1)) + 2}", lines[n - 1])
    assert refusal(parse_record, "\n".join(lines)).startswith(f"line {n}: the record says ")


def test_garbage_and_other_files_are_refused_in_one_sentence(good: str) -> None:
    assert refusal(parse_record, "") == "it is empty: no game record"
    assert refusal(parse_record, "GinRummy game record, version 1\n") == (
        "line 1: this is a GinRummy game record, not a Cribbage one: replay it with ginrummy replay")
    assert refusal(parse_record, good.replace("score limit 121", "score limit 100")).startswith(
        "line 6: score limit: the limit is 121 or 61")
    assert refusal(parse_record, good.replace("skunking yes", "skunks yes")).startswith(
        "line 6: 'skunks yes' is not one of the rules (they are score limit, skunking)")
    assert refusal(parse_record, good.replace("Hand 2: ", "Hand 3: ")).startswith("line ")


# ---- SAVE RECORD on the result screens ---------------------------------------------------

def to_hand_end(d, t) -> None:
    """Play (the hints' moves) until the hand's scores box is up or the game is over."""
    until(d, lambda: t.can_save)


def records_in(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if p.suffix == ".REC")


def save_box_drawn(d) -> bool:
    return pixels_in(d, L.SAVE_BOX.x, L.SAVE_BOX.y, L.SAVE_BOX.w, 1, RED) == L.SAVE_BOX.w


def test_r_in_the_hands_scores_box_saves_the_game_so_far(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, name="Keys", noanimation=True)
    t = in_game(d).table
    assert not save_box_drawn(d)
    to_hand_end(d, t)
    d.step()
    assert box_up(t) and t.beat.box.title == "AFTER HAND 1" and save_box_drawn(d)
    d.key("R")
    assert box_up(t), "R saves; it does not clear the scores box"
    assert records_in(tmp_path) == ["CR0001.REC"]
    assert shows_text(d, L.NOTE_X, L.NOTE_Y, "Record saved as CR0001.REC.")
    log = read_record(tmp_path / "CR0001.REC")
    assert log.names == ("Keys", "COMPUTER") and log.meta.roles == ("human", "STANDARD")
    assert (log.hands, log.over, log.scores) == (1, False, t.hand.scores)
    click_at(d, L.SAVE_BOX)                        # the box too: the same game is not written twice
    assert records_in(tmp_path) == ["CR0001.REC"]
    assert shows_text(d, L.NOTE_X, L.NOTE_Y, "Already saved as CR0001.REC.")
    d.key("SPACE")                                 # the box goes, the next deal comes
    d.step()
    assert not t.can_save and not save_box_drawn(d)
    assert not shows_text(d, L.NOTE_X, L.NOTE_Y, "Already saved"), "the note goes with its hand"
    to_hand_end(d, t)                              # the next hand's end: a new record, a fresh note
    d.step()
    assert not shows_text(d, L.NOTE_X, L.NOTE_Y, "Already saved")
    d.key("R")
    assert records_in(tmp_path) == ["CR0001.REC", "CR0002.REC"]
    assert shows_text(d, L.NOTE_X, L.NOTE_Y, "Record saved as CR0002.REC.")


def test_a_click_on_save_record_at_the_games_end_saves_the_whole_game(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, noanimation=True, seed=3)
    t = in_game(d).table
    keyboard_game(d, t)
    assert t.over and save_box_drawn(d)
    click_at(d, L.SAVE_BOX)
    log = read_record(tmp_path / "CR0001.REC")
    assert log.over and log.winner == t.game.winner and log.scores == tuple(t.front)
    assert log.hands == t.game.hands_dealt


def test_nodisk_writes_no_record_and_says_so(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, nodisk=True, noanimation=True)
    t = in_game(d).table
    to_hand_end(d, t)
    d.key("R")
    assert records_in(tmp_path) == []
    d.step()
    assert shows_text(d, L.NOTE_X, L.NOTE_Y, "NODISK: the record is not saved.")


def test_a_directory_that_refuses_the_record_loses_nothing(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, noanimation=True)
    t = in_game(d).table
    to_hand_end(d, t)
    with read_only(tmp_path):
        d.key("R")
        assert records_in(tmp_path) == []
        assert d.controller.note.startswith("Not saved: ")
    d.key("SPACE")
    to_hand_end(d, t)                              # the game goes on, and saves again
    d.key("R")
    assert records_in(tmp_path) == ["CR0001.REC"] and read_record(tmp_path / "CR0001.REC").hands == 2


# ---- cribbage replay FILE: the viewer in the real program --------------------------------

def test_the_replay_viewer_steps_forward_and_back_and_shows_each_step(tmp_path: Path, screen_of) -> None:
    _, text, _ = played(1, options=Options(61, True))
    record = tmp_path / "CR000001.REC"
    record.write_text(text)
    log = parse_record(text)
    n = len(log.steps)
    show = next(i for i, st in enumerate(log.steps) if st.kind == "show")
    next_box = replay.BOXES[1]
    shots = run_replay("cribbage", record, "\n".join([
        "move 636 346", "wait 2", "shot s0", "key RIGHT", "shot s1", "key n", "shot s2", "key LEFT",
        "shot back1", f"click left {next_box[3] + 8} {CribReplay.box_y + 8}", "move 636 346", "wait 1",
        "shot again2", "key HOME", *["key RIGHT"] * show, "shot show", "key PAGEDOWN", "shot hand2",
        "key END", "shot end", "key HOME", "shot home", "key q"]), tmp_path, "NODISK")
    assert shots["back1"].pixels == shots["s1"].pixels and shots["again2"].pixels == shots["s2"].pixels
    assert shots["home"].pixels == shots["s0"].pixels != shots["s1"].pixels
    screen = screen_of("EGA")

    def shows_step(img, i: int) -> bool:
        st = log.steps[i]
        h = st.state
        ok = text_in(img, replay.STATUS_X, CribReplay.box_y + 6, f"HAND {st.hand}/{log.hands} STEP {i + 1}/{n}",
                     LIGHTGRAY)
        ok &= text_in(img, L.SCORES_X, L.SCORES_Y, f"{log.names[1][:8]:<8}  {h.scores[1]:>3}", LIGHTRED)
        ok &= text_in(img, L.SCORES_X, L.SCORES_Y + 14, f"{log.names[0][:8]:<8}  {h.scores[0]:>3}", LIGHTGREEN)
        lines = CribReplay.wrapped(step_text(st))
        if lines:
            ok &= text_in(img, CribReplay.text_x, CribReplay.text_y, lines[0], WHITE)
        for k, c in enumerate(h.hands[0]):
            ok &= card_in(screen, img, *L.hand_slot(0, k), c)
        if h.hands[1]:
            ok &= card_in(screen, img, *L.hand_slot(1, len(h.hands[1]) - 1), h.hands[1][-1], left=4)
        return ok

    def title_in(img, box, title: str) -> bool:
        return text_in(img, box.x + (box.w - 8 * len(title)) // 2, box.y + 10, title, YELLOW)

    assert shows_step(shots["s0"], 0) and shows_step(shots["s1"], 1) and shows_step(shots["s2"], 2)
    assert shows_step(shots["show"], show)
    entry = log.steps[show].show
    assert title_in(shots["show"], L.SHOW, f"{log.names[entry.seat]}'S HAND".upper())
    assert shows_step(shots["hand2"], next(i for i, st in enumerate(log.steps) if st.hand == 2))
    assert shows_step(shots["end"], n - 1) and title_in(shots["end"], L.INFO, "GAME OVER")
    w = log.winner
    assert text_in(shots["end"], *_centred(L.INFO, f"{log.names[w]} WINS {log.scores[w]} TO {log.scores[1 - w]}.",
                                           28), WHITE)
    for seat, colour in ((0, LIGHTGREEN), (1, LIGHTRED)):     # the front pegs where the scores are
        x = hole_x(61, log.scores[seat])
        assert shots["end"].pixels[(TRACK_Y[seat] - 2) * 640 + x] == colour


def stopped(how: str, loser: int, hand: int, moves: int) -> str:
    """A played game's record cut in hand ``hand`` after ``moves`` of its moves, as the
    card room writes a game that stopped there (resigned, on the clock, left)."""
    from port.cribbage.record import _apply, _moves_of
    from port.files.gamerecord import Ending, kept_hands

    record, _, options = played(0)
    hands = kept_hands(record.hands)
    start, end = hands[hand - 1]
    partial = start.copy()
    for action in _moves_of(end)[:moves]:
        _apply(partial, action)
    meta = Meta(("Ann", "Stan"), ("room player", "room bot"), seed=7, date="2025-01-31")
    return write(options, meta, [*hands[:hand - 1], (start, partial)], Ending(how, loser))


def test_a_game_that_stopped_says_who_won_and_how_and_replays_to_its_last_move(headless_pyxel, tmp_path: Path) -> None:
    text = stopped("resigned", 1, 3, 4)
    lines = text.splitlines()
    assert re.fullmatch(r"Result: Ann wins: Stan resigned in hand 3, Ann \d+, Stan \d+\.", lines[-1])
    assert lines[-2].startswith(("Ann plays", "Stan plays", "The cut turns"))   # the lay-away done, two cards played
    log = parse_record(text)
    assert (log.ending.how, log.winner, log.over, log.hands) == ("resigned", 0, False, 3)
    assert rewrite(log, write) == text
    assert [v.seat for v, a in decisions(log) if a.line is not None and a.line > lines.index(
        next(x for x in lines if x.startswith("Hand 3: ")))] != []      # the review sees its moves
    n = len(lines)
    wrong = re.sub(r"Ann (\d+), ", lambda m: f"Ann {int(m.group(1)) + 2}, ", lines[-1])
    assert refusal(parse_record, "\n".join(lines[:-1] + [wrong]) + "\n").startswith(f"line {n}: the record says ")
    assert parse_record(stopped("clock", 0, 1, 0)).steps[-1].lines[0].startswith(
        "Result: Stan wins: Ann forfeited on the clock in hand 1, Ann 0, Stan 0")
    # The replay viewer (cribbage replay's screen) steps to it: its last step says who won and how.
    d = open_cribbage(tmp_path)
    d.loop.controller = CribReplay(d.controller.ctx, log)
    d.key("END")
    box = L.INFO
    assert shows_text(d, box.x + (box.w - 8 * len("GAME OVER")) // 2, box.y + 10, "GAME OVER", YELLOW)
    assert shows_text(d, *_centred(box, "STAN", 28 + 14), WHITE)
    assert shows_text(d, *_centred(box, "RESIGNED", 28 + 28), WHITE)


def _centred(box, line: str, dy: int) -> tuple[int, int, str]:
    return box.x + (box.w - 8 * len(line)) // 2, box.y + dy, line


def test_a_bad_record_file_is_one_sentence_and_exit_2_before_any_window(tmp_path: Path) -> None:
    (tmp_path / "x.rec").write_text("GinRummy game record, version 1\n")
    done = subprocess.run([sys.executable, "-m", "port.cribbage", "replay", "x.rec"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(TOP), "DISPLAY": "", "SDL_VIDEODRIVER": "none"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("cribbage: x.rec: line 1: this is a GinRummy game record, not a Cribbage one: "
                           "replay it with ginrummy replay  (cribbage /? for help)\n")


def test_the_help_lists_replay() -> None:
    assert "cribbage replay FILE        step through a game record (CR0001.REC) in the window" in CRIBBAGE.help


def older(text: str) -> str:
    """A record as versions before 0.2 wrote it: the rules as the engine's fields
    (``limit=121 skunking=yes``), the starter without its note, "double run" without
    its article."""
    text = re.sub(r"^Rules: score limit (\d+), skunking (\w+)$", r"Rules: limit=\1 skunking=\2", text,
                  flags=re.M)
    text = text.replace(" (cut after the lay-away; here for the replay).", ".")
    return text.replace("a double run", "double run")


@pytest.mark.parametrize("i", range(4))
def test_records_written_before_the_rules_were_in_words_still_replay_and_review(i: int) -> None:
    """docs/records.md, "What changed": older records read as ever."""
    from port.cribbage.review import choices

    record, text, options = played(i, options=Options(121, True))
    old = older(text)
    assert old != text and "Rules: limit=121 skunking=yes" in old and "Starter: " in old
    log = parse_record(old)
    assert (log.scores, log.winner, log.options) == (record.scores, record.winner, options)
    for seat in (0, 1):                          # what the review looks at: every decision, the same
        assert list(choices(log, seat)) == list(choices(parse_record(text), seat))
