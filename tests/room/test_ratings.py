"""Glicko-2 ratings: the package reproduces Glickman's worked example, one game is one
rating period for both players, a win raises and a loss lowers, and a rating shows a
question mark while provisional."""
from __future__ import annotations

import glicko2
import pytest

from port.room.ratings import provisional, shown, update
from port.room.store import Rating


def test_the_library_gives_the_papers_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2012): a player at 1500, RD 200,
    volatility 0.06, beats a 1400/30 and loses to a 1550/100 and a 1700/300, with
    tau 0.5: afterwards 1464.06, RD 151.52, volatility 0.05999. The paper rounds as it
    goes (mu' = -0.2069 gives 1464.06); unrounded, the rating is 1464.0507."""
    player = glicko2.Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.rating == pytest.approx(1464.06, abs=0.01)
    assert round(player.rd, 2) == 151.52
    assert round(player.vol, 5) == 0.05999


def test_a_win_raises_and_a_loss_lowers() -> None:
    a, b = update(Rating(), Rating(), 1)
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)       # equal players, equal stakes
    assert a.rd < 350 and b.rd < 350 and (a.games, b.games) == (1, 1)
    worse, better = update(Rating(1400, 80), Rating(1800, 80, games=30), 1)
    assert worse.rating > 1400 and better.rating < 1800 and better.games == 31
    upset = worse.rating - 1400
    expected, _ = update(Rating(1800, 80), Rating(1400, 80), 1)
    assert upset > expected.rating - 1800                           # an upset moves more


def test_a_draw_between_equals_moves_no_rating() -> None:
    a, b = update(Rating(1600, 100, 0.06, 5), Rating(1600, 100, 0.06, 9), 0.5)
    assert a.rating == pytest.approx(1600) and b.rating == pytest.approx(1600)
    assert a.rd < 100


def test_each_side_is_rated_against_the_other_as_it_was() -> None:
    a0, b0 = Rating(1500, 200), Rating(1700, 300)
    a, b = update(a0, b0, 0)
    p = glicko2.Player(1700, 300, 0.06)
    p.update_player([1500], [200], [1])
    assert (b.rating, b.rd, b.vol) == (p.rating, p.rd, p.vol)


def test_a_score_is_one_half_or_nothing() -> None:
    with pytest.raises(ValueError, match="A game's score is 1, 0.5 or 0, not 2."):
        update(Rating(), Rating(), 2)


def test_a_rating_is_provisional_above_rd_110() -> None:
    assert shown(Rating()) == "1500?" and provisional(Rating())
    assert shown(Rating(1623.4, 110.0)) == "1623" and not provisional(Rating(1623.4, 110.0))
    assert shown(Rating(1623.6, 110.01)) == "1624?"
    r = Rating()
    for _ in range(12):
        r, _ = update(r, Rating(1500, 60), 0.5)
    assert not provisional(r)                   # a dozen games against settled players
