"""The Fox in the Forest Duet: setup, round ends, the end of the game, scoring and conceding."""

from __future__ import annotations

import pytest

from engine import GAMES, IllegalAction
from engine.fox_duet.board import SIDES
from tests.engine.test_fox_duet_rules import SIDE_A_GEMS, make_state, of_type, texts, types

GAME = GAMES["fox-duet"]

# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "side", "gems", "tokens"),
    [(1, "A", 12, 4), (2, "B", 13, 3), (3, "B", 16, 3)],
)
def test_setup_by_level_gems_and_forest_tokens(level, side, gems, tokens):
    """Level 1: A面, 12個寶石, 4個森林標記; Level 2: B面, 13個 (忽略菱形鑽石圖示), 3個;
    Level 3: B面, 16個 (正方形圖示及鑽石圖示), 3個。其餘寶石放在圖板旁邊。"""
    s = GAME.new(2, 5, {"level": level})
    public = s.view(None)["public"]
    assert public["side"] == side and public["level"] == level
    assert public["gems_on_board"] == gems and public["gems_in_supply"] == 22 - gems
    assert public["gems_collected"] == 0
    assert public["forest_tokens_left"] == public["forest_tokens_total"] == tokens
    assert public["tracker"] == 5 and public["spaces"][5]["start"]
    points = SIDES[side].points
    expected = [p.gems + (1 if level == 3 and p.diamond else 0) for p in points]
    assert [sp["gems"] for sp in public["spaces"]] == expected
    assert not any(sp["covered"] for sp in public["spaces"])
    assert public["hand_sizes"] == [11, 11] and public["deck_size"] == 7
    assert public["round"] == 1 and public["trick"] == 1 and public["phase"] == "play"


def test_side_a_gems_as_printed():
    """Side A: gems 1,1,2,1,1,(start)0,1,1,2,1,1 and "+" marks 0,1,0,1,1,0,1,0,1,0,0."""
    s = GAME.new(2, 1)
    spaces = s.view(None)["public"]["spaces"]
    assert [sp["gems"] for sp in spaces] == SIDE_A_GEMS
    assert [int(sp["plus"]) for sp in spaces] == [0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0]


def test_a_random_starting_player_deals_and_the_other_leads():
    """選一位起始玩家。該玩家分發各11張牌 … 每一輪的第一回合,沒有發牌的玩家先出牌。"""
    starters = set()
    for seed in range(20):
        s = GAME.new(2, seed)
        first = s.setup_events[0]
        assert first == {"type": "starting player", "visible_to": None, "seat": first["seat"]}
        starters.add(first["seat"])
        assert s.dealer == first["seat"] and s.to_move() == [1 - first["seat"]]
        deals = of_type(s.setup_events, "deal")
        assert [e["visible_to"] for e in deals] == [[0], [1], None]
        assert [c["id"] for c in deals[0]["hand"]] == s.hands[0]
        assert deals[2]["decree"]["id"] == s.decree and deals[2]["dealer"] == s.dealer
        assert "hand" not in deals[2]
    assert starters == {0, 1}


def test_bad_options_and_player_counts_are_refused():
    """The game is for 2 players only, at level 1, 2 or 3."""
    with pytest.raises(ValueError):
        GAME.new(2, 1, {"level": 4})
    with pytest.raises(ValueError):
        GAME.new(3, 1)
    with pytest.raises(ValueError):
        GAME.new(1, 1)
    assert GAME.options() == {
        "level": {"choices": [1, 2, 3], "default": 1},
        "memory": {"choices": ["off", "on"], "default": "off"},
    }


# -- round end -------------------------------------------------------------------------------


def last_trick_state(**kwargs):
    """Trick 11 of round 1: seat 0 leads dove-4 (1 footprint), seat 1 wins with dove-6 (2)."""
    kwargs.setdefault("trick", 11)
    return make_state([["dove-4"], ["dove-6"]], "star-1", dealer=1, **kwargs)


def finish_trick(s):
    s.apply(0, "play dove-4")
    return s.apply(1, "play dove-6")


def test_round_end_adds_a_gem_on_every_plus_space():
    """加入寶石標記: 按照圖板上顯示(+)號的寶石方格,放置一個寶石標記 (5 per round on side A)."""
    s = last_trick_state()
    events = finish_trick(s)
    assert s.tracker == 8 and s.collected == 1
    assert [sp["gems"] for sp in s.view(None)["public"]["spaces"]] == [1, 2, 2, 2, 2, 0, 2, 1, 2, 1, 1]
    added = of_type(events, "gems added")[0]
    assert added["added"] == [{"space": i, "count": 1} for i in (1, 3, 4, 6, 8)]
    assert added["supply"] == 5 == s.supply
    assert types(events).index("round ended") < types(events).index("gems added")


def test_plus_mark_under_a_forest_token_puts_its_gem_inward():
    """Adaptation: a "+" on a covered space puts its gem where that space's gems slid (inward)."""
    gems = list(SIDE_A_GEMS)
    gems[0] = gems[1] = 0
    s = last_trick_state(covered=[True, True] + [False] * 9, gems=gems)
    events = finish_trick(s)
    assert of_type(events, "gems added")[0]["added"][0] == {"space": 2, "count": 1}
    assert s.gems[1] == 0 and s.gems[2] == 3


def test_round_end_players_choose_the_end_for_a_forest_token():
    """放置森林標記: 玩家選一個圖板兩端最末的路徑點 … 放置一個森林標記; both may answer, the first decides."""
    s = last_trick_state()
    finish_trick(s)
    assert s.phase == "forest" and s.to_move() == [0, 1]
    assert s.view(None)["public"]["pending"] == {"ends": [0, 1]}
    assert texts(s, 0) == ["forest end=0", "forest end=1", "concede"]
    events = s.apply(1, "forest end=0")
    placed = of_type(events, "forest token placed")[0]
    assert placed == {
        "type": "forest token placed",
        "visible_to": None,
        "end": 0,
        "space": 0,
        "cause": "round-end",
        "left": 3,
        "chosen_by": 1,
    }
    assert of_type(events, "gems slid")[0]["to"] == 1
    assert s.covered[0] and s.gems[0] == 0 and s.gems[1] == 3
    assert s.phase == "play" and s.round == 2
    with pytest.raises(IllegalAction):
        s.apply(0, "forest end=1")


def test_round_end_forced_end_when_tracker_stands_on_the_last_space():
    """森林標記必須放在未被團隊標記覆蓋的另一端: no choice is asked, the token goes to the other end."""
    s = make_state([["dove-2"], ["dove-10"]], "star-1", dealer=1, trick=11, tracker=4)
    s.apply(0, "play dove-2")
    events = s.apply(1, "play dove-10")
    assert s.tracker == 10
    assert s.phase == "play"
    placed = of_type(events, "forest token placed")[0]
    assert placed["end"] == 0 and placed["chosen_by"] is None and placed["cause"] == "round-end"
    assert s.covered[0] and not s.covered[10] and s.round == 2
    assert s.tracker == 10  # 團隊標記在上一輪最後停留的路徑點,是新一輪遊戲的起始位置


def test_next_round_is_dealt_by_the_other_player_and_the_non_dealer_leads():
    """由上一回合沒洗牌過的玩家重洗30張牌,重新發牌 … 沒有發牌的玩家先出牌。"""
    s = last_trick_state()
    finish_trick(s)
    events = s.apply(0, "forest end=1")
    assert s.round == 2 and s.trick == 1 and s.dealer == 0 and s.leader == 1 and s.to_move() == [1]
    assert [len(h) for h in s.hands] == [11, 11] and len(s.deck) == 7
    deals = of_type(events, "deal")
    assert [e["visible_to"] for e in deals] == [[0], [1], None]
    assert deals[2]["dealer"] == 0 and deals[2]["decree"]["id"] == s.decree and deals[2]["round"] == 2
    assert s.tracker == 8  # the tracker stays where it ended
    assert s.view(None)["public"]["last_trick"] is None
    # and round 3 is dealt by seat 1 again
    s2 = make_state([["dove-4"], ["dove-6"]], "star-1", dealer=0, leader=1, round_=2, trick=11)
    s2.apply(1, "play dove-6")
    s2.apply(0, "play dove-4")
    assert s2.phase == "forest"
    s2.apply(0, "forest end=0")
    assert s2.round == 3 and s2.dealer == 1 and s2.to_move() == [0]


def test_round_end_without_a_forest_token_loses():
    """若森林標記全部放完 … 遊戲失敗: a round's end needs a forest token; none left loses."""
    gems = list(SIDE_A_GEMS)
    gems[0] = gems[1] = gems[9] = gems[10] = 0
    s = last_trick_state(covered=[True, True] + [False] * 7 + [True, True], gems=gems)
    events = finish_trick(s)
    assert types(events)[-3:] == ["round ended", "gems added", "game lost"]
    assert events[-1]["reason"] == "no-forest-token"
    assert s.outcome().winners == []


def test_round_three_ending_with_gems_left_loses():
    """超過時間: 遊戲第3輪結束時,還有寶石標記在圖板上,遊戲失敗。"""
    s = last_trick_state(round_=3)
    events = finish_trick(s)
    assert types(events)[-2:] == ["round ended", "game lost"]
    assert events[-1]["reason"] == "time"
    outcome = s.outcome()
    assert outcome.scores == [0, 0] and outcome.winners == []
    assert outcome.details == [{"result": "lost", "reason": "time"}] * 2
    assert s.view(None)["public"]["result"] == {"won": False, "reason": "time", "score": 0}
    assert s.to_move() == [] and s.view(None)["public"]["phase"] == "over"


# -- scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "round_", "base", "bonus", "tokens"),
    [(1, 1, 10, 20, 9), (1, 2, 10, 10, 9), (2, 2, 20, 10, 6), (2, 3, 20, 0, 6), (3, 1, 30, 20, 6), (3, 3, 30, 0, 6)],
)
def test_score_parts_by_level_and_round(level, round_, base, bonus, tokens):
    """第1級10分,第2級20分,第3級30分; 玩家每有1張手牌加1分; 在第2輪結束遊戲加10分;
    每有1個未放在圖板上的森林標記加3分。(A round-1 win gets +20: our choice.)"""
    gems = [0] * 11
    gems[6] = 1
    s = make_state(
        [["dove-4", "rose-6", "rose-8"], ["dove-9", "rose-2"]],
        "star-1",
        level=level,
        round_=round_,
        gems=gems,
        covered=[True] + [False] * 10,
    )
    s.apply(0, "play dove-4")
    events = s.apply(1, "play dove-9")
    details = {"level": base, "cards in hand": 3, "round bonus": bonus, "forest tokens": tokens}
    details["total"] = sum(details.values())
    won = events[-1]
    assert won["type"] == "game won" and won["score"] == details["total"] and won["round"] == round_
    assert won["details"] == details
    outcome = s.outcome()
    assert outcome.scores == [details["total"]] * 2
    assert outcome.winners == [0, 1]
    assert outcome.details == [details, details]


# -- conceding -------------------------------------------------------------------------------


def test_players_may_concede_in_any_phase():
    """若有任何無法蒐集完寶石的可能性,玩家可以選擇放棄遊戲: conceding is a loss."""
    s = make_state([["dove-4", "rose-6"], ["dove-8", "rose-2"]], "star-1")
    with pytest.raises(IllegalAction):
        s.apply(1, "concede")
    events = s.apply(0, "concede")
    assert events == [
        {
            "type": "game lost",
            "visible_to": None,
            "reason": "conceded",
            "round": 1,
            "trick": 1,
            "gems_on_board": 12,
            "seat": 0,
        }
    ]
    assert s.outcome().winners == [] and s.outcome().details[0] == {"result": "lost", "reason": "conceded"}
    # during a gift, the seat still choosing may concede
    s = make_state([["dove-7", "star-4"], ["rose-2", "rose-10"]], "star-1")
    s.apply(0, "play dove-7")
    s.apply(0, "give star-4")
    assert "concede" not in texts(s, 0)
    s.apply(1, "concede")
    assert s.result["reason"] == "conceded"
    # at a round's end, either seat may concede
    s = last_trick_state()
    finish_trick(s)
    s.apply(1, "concede")
    assert s.outcome().winners == []
