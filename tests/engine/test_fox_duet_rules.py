"""The Fox in the Forest Duet: tricks, abilities and the tracker's movement.

Positions are built by hand with ``make_state``; each test quotes the rule it checks (from the
seed rulebook, docs/rules/fox-duet.md, or the brief where the seed is silent).
"""

from __future__ import annotations

import pytest

from engine import GAMES, IllegalAction
from engine.fox_duet.board import GEM_TOKENS
from engine.fox_duet.cards import ALL_CARD_IDS, sort_hand

GAME = GAMES["fox-duet"]
SIDE_A_GEMS = [1, 1, 2, 1, 1, 0, 1, 1, 2, 1, 1]


def make_state(
    hands,
    decree,
    *,
    level=1,
    tracker=None,
    leader=0,
    dealer=None,
    round_=1,
    trick=1,
    gems=None,
    covered=None,
    collected=0,
    seed=0,
    memory="on",
):
    """A position with the given hands and decree card; every other card is in the deck.

    Forest tokens left follow from ``covered``; the supply from the gems on the board. The memory
    aid is on unless a test says, so the last trick can be read from the view
    (tests/engine/test_fox_duet_memory.py covers it off).
    """
    state = GAME.new(2, seed, {"level": level, "memory": memory})
    state.hands = [sort_hand(list(h)) for h in hands]
    state.decree = decree
    used = set(hands[0]) | set(hands[1]) | {decree}
    state.deck = [c for c in ALL_CARD_IDS if c not in used]
    state.discard, state.trick_cards, state.last_trick = [], [], None
    state.leader = leader
    state.dealer = 1 - leader if dealer is None else dealer
    state.round, state.trick = round_, trick
    if covered is not None:
        state.covered = list(covered)
    state.forest_left = state.forest_total - sum(state.covered)
    if gems is not None:
        state.gems = list(gems)
    if tracker is not None:
        state.tracker = tracker
    state.collected = collected
    state.supply = GEM_TOKENS - sum(state.gems) - collected
    state.phase, state.pending = "play", {}
    GAME.load(state.to_dict())  # the position must be a valid one
    return state


def texts(state, seat):
    return [str(a) for a in state.legal_actions(seat)]


def types(events):
    return [e["type"] for e in events]


def of_type(events, type_):
    return [e for e in events if e["type"] == type_]


# -- following suit ---------------------------------------------------------------------------


def test_follower_must_follow_the_led_suit_if_able():
    """跟隨玩家必須打出同領導玩家出牌所對應的花色: the follower must follow the led suit."""
    s = make_state([["dove-4", "rose-6"], ["dove-8", "star-6", "rose-2"]], "star-1")
    s.apply(0, "play dove-4")
    assert texts(s, 1) == ["play dove-8", "concede"]
    before = s.to_dict()
    with pytest.raises(IllegalAction, match="follow"):
        s.apply(1, "play star-6")
    assert s.to_dict() == before


def test_follower_without_the_led_suit_may_play_anything():
    """如果手牌沒有相符的花色,跟隨玩家可不受限制出任何牌: no card of the led suit, play anything."""
    s = make_state([["dove-4", "rose-6"], ["star-6", "rose-2"]], "star-1")
    s.apply(0, "play dove-4")
    assert texts(s, 1) == ["play rose-2", "play star-6", "concede"]


def test_leader_may_play_any_card():
    """先出牌的領導玩家出牌不受限制,可出任何牌: the leader plays any card."""
    s = make_state([["dove-4", "rose-6", "star-2"], ["dove-8"]], "star-1")
    assert texts(s, 0) == ["play dove-4", "play rose-6", "play star-2", "concede"]
    assert texts(s, 1) == []


def test_royal_led_lifts_the_duty_to_follow_suit():
    """9 皇室: 當此牌是牌墩出的第1張牌,後出的玩家不須跟隨其花色: a led royal frees the follower."""
    s = make_state([["dove-9", "rose-6"], ["dove-8", "star-6", "rose-2"]], "star-1")
    s.apply(0, "play dove-9")
    assert texts(s, 1) == ["play dove-8", "play rose-2", "play star-6", "concede"]


def test_royal_played_second_has_no_effect():
    """若此牌是牌墩出的第2張牌則沒有效果: a royal played second changes nothing."""
    s = make_state([["rose-4", "rose-6"], ["rose-2", "dove-9"]], "star-1")
    s.apply(0, "play rose-4")
    assert texts(s, 1) == ["play rose-2", "concede"]
    s = make_state([["rose-4", "rose-6"], ["dove-9", "star-6"]], "star-1", tracker=5)
    s.apply(0, "play rose-4")
    events = s.apply(1, "play dove-9")
    assert of_type(events, "trick won")[0]["winner"] == 0


# -- winning a trick ----------------------------------------------------------------------------


def test_trump_beats_the_led_suit():
    """有王牌: 打出等級數值最高的王牌花色玩家贏得牌墩: any trump beats the led suit."""
    s = make_state([["dove-8", "rose-6"], ["star-4", "rose-2"]], "star-1")
    s.apply(0, "play dove-8")
    events = s.apply(1, "play star-4")
    won = of_type(events, "trick won")[0]
    assert won["winner"] == 1 and won["steps"] == 3 and won["toward"] == 1
    assert s.tracker == 8


def test_highest_trump_wins_when_both_cards_are_trumps():
    """如果牌墩中的一張或兩張牌是王牌花色,打出等級數值最高的王牌花色玩家贏得牌墩。"""
    s = make_state([["star-4", "rose-6"], ["star-6", "rose-2"]], "star-1")
    s.apply(0, "play star-4")
    events = s.apply(1, "play star-6")
    assert of_type(events, "trick won")[0]["winner"] == 1


def test_highest_card_of_the_led_suit_wins_without_trump():
    """無王牌: 打出等級數值最高的領導花色玩家贏得牌墩; an off-suit card never wins."""
    s = make_state([["dove-6", "rose-6"], ["dove-8", "rose-2"]], "star-1")
    s.apply(0, "play dove-6")
    assert of_type(s.apply(1, "play dove-8"), "trick won")[0]["winner"] == 1
    s = make_state([["dove-2", "rose-6"], ["rose-10", "star-8"]], "star-1", tracker=7)
    s.apply(0, "play dove-2")
    assert of_type(s.apply(1, "play rose-10"), "trick won")[0]["winner"] == 0


def test_tracker_moves_by_both_footprints_toward_the_winner():
    """將牌墩兩張牌的移動步數相加,往贏家所在的方向移動: seat 0's end is index 0."""
    s = make_state([["dove-8", "rose-6"], ["dove-4", "rose-2"]], "star-1")
    s.apply(0, "play dove-8")
    events = s.apply(1, "play dove-4")
    assert s.tracker == 2  # 2 + 1 footprints toward seat 0
    moved = of_type(events, "tracker moved")[0]
    assert moved["from"] == 5 and moved["to"] == 2 and moved["steps"] == 3


def test_trick_winner_leads_the_next_trick():
    """之後的每回合,上一回合牌墩的贏家先出: the previous trick's winner leads."""
    s = make_state([["dove-4", "rose-6"], ["dove-8", "rose-2"]], "star-1")
    s.apply(0, "play dove-4")
    s.apply(1, "play dove-8")
    assert s.to_move() == [1] and s.leader == 1 and s.trick == 2


def test_only_the_last_trick_is_shown():
    """將該回合打出的牌墩牌面朝下放置一旁: played tricks go face down; the view keeps only the last one."""
    s = make_state([["dove-4", "rose-6"], ["dove-8", "rose-2"]], "star-1")
    s.apply(0, "play dove-4")
    s.apply(1, "play dove-8")
    assert [p["card"]["id"] for p in s.view(None)["public"]["last_trick"]["cards"]] == ["dove-4", "dove-8"]
    s.apply(1, "play rose-2")
    s.apply(0, "play rose-6")
    public = s.view(None)["public"]
    assert [p["card"]["id"] for p in public["last_trick"]["cards"]] == ["rose-2", "rose-6"]
    assert '"dove-4"' not in str(public).replace("'", '"')
    assert public["trick_cards"] == []


# -- fox -------------------------------------------------------------------------------------


def test_fox_swap_changes_the_trick_winner():
    """3 狐狸: 若王牌花色更換,可能會立刻影響該回合牌墩由誰勝出: the new trump decides this trick."""
    s = make_state([["dove-6", "rose-6"], ["rose-3", "rose-8"]], "star-1")
    s.apply(0, "play dove-6")
    s.apply(1, "play rose-3")
    assert s.phase == "fox-pick" and s.to_move() == [1]
    assert texts(s, 1) == ["fox-pick me", "fox-pick partner", "concede"]
    s.apply(1, "fox-pick me")
    assert s.phase == "fox-swap" and s.to_move() == [1]
    assert s.view(None)["public"]["pending"] == {"fox_player": 1, "chooser": 1}
    assert texts(s, 1) == ["swap rose-8", "swap none", "concede"]
    events = s.apply(1, "swap rose-8")
    swapped = of_type(events, "decree swapped")[0]
    assert swapped["old"]["id"] == "star-1" and swapped["new"]["id"] == "rose-8"
    assert s.decree == "rose-8" and "star-1" in s.hands[1]
    won = of_type(events, "trick won")[0]
    assert won["winner"] == 1 and s.tracker == 9


def test_fox_player_may_pick_the_partner_who_may_keep_the_decree():
    """選定的玩家可決定是否使用能力 … 也可不換牌保持原樣: the picked player may decline."""
    s = make_state([["dove-6", "rose-6"], ["rose-3", "rose-8"]], "star-1")
    s.apply(0, "play dove-6")
    s.apply(1, "play rose-3")
    s.apply(1, "fox-pick partner")
    assert s.to_move() == [0]
    assert texts(s, 0) == ["swap rose-6", "swap none", "concede"]
    events = s.apply(0, "swap none")
    assert of_type(events, "decree kept")[0]["reason"] == "chose"
    assert s.decree == "star-1" and of_type(events, "trick won")[0]["winner"] == 0


def test_led_fox_resolves_before_the_follower_plays():
    """當玩家出這張牌 (when played): a led fox's swap happens before the follower plays."""
    s = make_state([["dove-3", "rose-6"], ["dove-8", "rose-2", "star-6"]], "star-1")
    s.apply(0, "play dove-3")
    s.apply(0, "fox-pick partner")
    s.apply(1, "swap dove-8")
    assert s.phase == "play" and s.to_move() == [1]
    assert s.decree == "dove-8"
    # the follower no longer holds a dove, so may play anything
    assert texts(s, 1) == ["play rose-2", "play star-1", "play star-6", "concede"]


def test_fox_picking_a_player_with_an_empty_hand_keeps_the_decree():
    """Adaptation: a player with no card cannot swap; the decree stays and play goes on."""
    s = make_state([["dove-3"], ["dove-8"]], "star-1", trick=11)
    s.apply(0, "play dove-3")
    events = s.apply(0, "fox-pick me")
    assert of_type(events, "decree kept")[0] == {
        "type": "decree kept",
        "visible_to": None,
        "seat": 0,
        "reason": "empty-hand",
    }
    assert s.phase == "play" and s.to_move() == [1]


def test_fox_with_both_hands_empty_does_nothing():
    """Adaptation: a fox played as the very last card of a round cannot swap anything."""
    s = make_state([["dove-8"], ["dove-3"]], "star-1", trick=11, tracker=5)
    s.apply(0, "play dove-8")
    events = s.apply(1, "play dove-3")
    assert of_type(events, "decree kept")[0]["reason"] == "empty-hands"
    assert "trick won" in types(events)


# -- gift ------------------------------------------------------------------------------------


def test_gift_exchanges_one_card_each_way_in_secret():
    """7 禮物: 出牌時立即發動效果。玩家們必須同時交換一張手牌,不可事先透漏手牌內容。"""
    s = make_state([["dove-7", "star-4", "star-8"], ["rose-2", "rose-10", "dove-2"]], "star-1")
    s.apply(0, "play dove-7")
    assert s.phase == "gift" and s.to_move() == [0, 1]
    assert texts(s, 1) == ["give dove-2", "give rose-2", "give rose-10", "concede"]
    events = s.apply(1, "give rose-2")
    assert events == [
        {
            "type": "gift chosen",
            "visible_to": [1],
            "seat": 1,
            "card": {"id": "rose-2", "suit": "rose", "rank": 2, "footprints": 3, "ability": None},
        }
    ]
    assert s.to_move() == [0]
    assert s.view(1)["private"]["gift"]["id"] == "rose-2"
    assert s.view(0)["private"]["gift"] is None
    assert s.view(None)["public"]["pending"] == {"chosen": [False, True]}
    assert '"rose-2"' not in str(s.view(0)).replace("'", '"')
    events = s.apply(0, "give star-4")
    exchanged = of_type(events, "gift exchanged")
    assert [(e["visible_to"], e["received"]["id"], e["given"]["id"]) for e in exchanged] == [
        ([0], "rose-2", "star-4"),
        ([1], "star-4", "rose-2"),
    ]
    assert s.hands == [["rose-2", "star-8"], ["dove-2", "rose-10", "star-4"]]
    assert s.phase == "play" and s.to_move() == [1]
    assert texts(s, 1) == ["play dove-2", "concede"]


def test_gift_played_second_exchanges_before_the_trick_is_scored():
    """出牌時立即發動效果: a gift played second is resolved, then the trick."""
    s = make_state([["dove-4", "star-4"], ["dove-7", "rose-2", "rose-10"]], "star-1")
    s.apply(0, "play dove-4")
    s.apply(1, "play dove-7")
    s.apply(0, "give star-4")
    events = s.apply(1, "give rose-10")
    assert types(events)[:3] == ["gift chosen", "gift exchanged", "gift exchanged"]
    assert of_type(events, "trick won")[0]["winner"] == 1
    assert s.hands == [["rose-10"], ["rose-2", "star-4"]]


def test_gift_with_an_empty_hand_is_skipped():
    """Adaptation: with an empty hand there is nothing to exchange; play goes on."""
    s = make_state([["dove-7"], ["dove-8"]], "star-1", trick=11)
    events = s.apply(0, "play dove-7")
    skipped = of_type(events, "gift skipped")[0]
    assert skipped["empty"] == [0] and skipped["visible_to"] is None
    assert s.phase == "play" and s.to_move() == [1]


# -- gazelle and musician ----------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "steps"), [("ignore none", 4), ("ignore dove-5", 3), ("ignore dove-10", 1)])
def test_gazelle_footprints_1_and_3_move_1_3_or_4(choice, steps):
    """5 羚羊: 假設牌墩兩張牌的移動步數分別是1與3,團隊標記可移動1、3或4步。"""
    s = make_state([["dove-5", "rose-6"], ["dove-10", "rose-2"]], "star-1")
    s.apply(0, "play dove-5")
    s.apply(1, "play dove-10")
    assert s.phase == "gazelle" and s.to_move() == [1]
    assert texts(s, 1) == ["ignore none", "ignore dove-5", "ignore dove-10", "concede"]
    assert [c["id"] for c in s.view(None)["public"]["pending"]["cards"]] == ["dove-5", "dove-10"]
    events = s.apply(1, choice)
    assert of_type(events, "trick won")[0]["steps"] == steps
    assert s.tracker == 5 + steps


@pytest.mark.parametrize(("choice", "steps"), [("ignore none", 2), ("ignore rose-5", 1), ("ignore both", 0)])
def test_two_gazelles_ignore_one_both_or_neither(choice, steps):
    """若牌墩有2張羚羊,贏家可選擇忽略1或2張牌的移動步數,或2張牌皆不使用能力。"""
    s = make_state([["dove-5", "dove-6"], ["rose-5", "rose-2"]], "star-1")
    s.apply(0, "play dove-5")
    s.apply(1, "play rose-5")
    assert s.to_move() == [0]
    assert texts(s, 0) == ["ignore none", "ignore dove-5", "ignore rose-5", "ignore both", "concede"]
    s.apply(0, choice)
    assert s.tracker == 5 - steps


def test_musician_lets_the_winner_choose_the_direction():
    """1 音樂家: 贏得牌墩的玩家,可以自由選擇團隊標記行進的方向。"""
    s = make_state([["dove-1", "rose-6"], ["dove-8", "rose-2"]], "star-1")
    s.apply(0, "play dove-1")
    s.apply(1, "play dove-8")
    assert s.phase == "direction" and s.to_move() == [1]
    assert s.view(None)["public"]["pending"] == {"winner": 1, "steps": 2}
    assert texts(s, 1) == ["toward 0", "toward 1", "concede"]
    events = s.apply(1, "toward 0")
    assert of_type(events, "trick won")[0]["toward"] == 0
    assert s.tracker == 3 and s.view(None)["public"]["last_trick"]["toward"] == 0


def test_musician_asks_nothing_when_there_are_no_steps():
    """Adaptation: with 0 footprints the direction does not matter, so nobody is asked."""
    s = make_state([["dove-1", "rose-6"], ["dove-9", "rose-2"]], "star-1", tracker=4)
    s.apply(0, "play dove-1")
    s.apply(1, "play dove-9")
    assert s.phase == "play" and s.tracker == 4


def test_gazelle_is_chosen_before_the_musician_direction():
    """Order when several abilities apply: the gazelle's choice first, then the direction."""
    s = make_state([["dove-1", "rose-6"], ["dove-5", "rose-2"]], "star-1")
    s.apply(0, "play dove-1")
    s.apply(1, "play dove-5")
    assert s.phase == "gazelle"
    s.apply(1, "ignore none")
    assert s.phase == "direction" and s.view(None)["public"]["pending"]["steps"] == 1
    s.apply(1, "toward 0")
    assert s.tracker == 4
    s = make_state([["dove-1", "rose-6"], ["dove-5", "rose-2"]], "star-1")
    s.apply(0, "play dove-1")
    s.apply(1, "play dove-5")
    s.apply(1, "ignore dove-5")
    assert s.phase == "play" and s.tracker == 5


# -- the path: overshooting, forest tokens, gems -----------------------------------------------


def test_overshoot_resets_the_tracker_covers_the_end_and_slides_gems():
    """超出路徑: 將團隊標記重置在起始圓點,並放置一個森林標記覆蓋在超出末端的最後一個路徑點 …
    將寶石標記往圖版中心方向,疊放在相鄰的寶石方格。但若是移動時超出路徑 … 不能拿。"""
    gems = list(SIDE_A_GEMS)
    gems[5] = 1  # a gem on the start circle proves none is taken after an overshoot
    s = make_state([["dove-10", "rose-6"], ["dove-2", "rose-2"]], "star-1", tracker=9, gems=gems)
    s.apply(0, "play dove-10")
    events = s.apply(1, "play dove-2")
    assert of_type(events, "trick won")[0]["winner"] == 0
    # toward seat 0 from 9 by 6 steps lands on 3: no overshoot; now the other way
    s = make_state([["dove-2", "rose-6"], ["dove-10", "rose-2"]], "star-1", tracker=9, gems=gems)
    s.apply(0, "play dove-2")
    events = s.apply(1, "play dove-10")
    assert "overshoot" in types(events)
    assert s.tracker == 5 and s.covered[10] and s.forest_left == 3
    assert s.gems[10] == 0 and s.gems[9] == 2 and s.gems[5] == 1
    assert "gem collected" not in types(events)
    placed = of_type(events, "forest token placed")[0]
    assert placed["end"] == 1 and placed["space"] == 10 and placed["cause"] == "overshoot" and placed["left"] == 3
    slid = of_type(events, "gems slid")[0]
    assert (slid["from"], slid["to"], slid["count"]) == (10, 9, 1)
    last = s.view(None)["public"]["last_trick"]
    assert last["overshoot"] is True and last["gem"] is False


def test_landing_on_the_last_visible_space_is_not_an_overshoot():
    """Only moving past the last visible space overshoots; stopping on it collects its gem."""
    s = make_state([["dove-2", "rose-6"], ["dove-10", "rose-2"]], "star-1", tracker=4)
    s.apply(0, "play dove-2")
    events = s.apply(1, "play dove-10")
    assert s.tracker == 10 and "overshoot" not in types(events) and s.gems[10] == 0


def test_overshoot_counts_from_the_last_uncovered_space():
    """這會縮短遊戲路徑: a covered end shortens the path."""
    covered = [False] * 10 + [True]
    gems = list(SIDE_A_GEMS)
    gems[10] = 0
    s = make_state([["dove-6", "rose-6"], ["dove-8", "rose-2"]], "star-1", tracker=6, covered=covered, gems=gems)
    s.apply(0, "play dove-6")
    events = s.apply(1, "play dove-8")  # 4 steps from 6: past 9, the last visible space
    assert "overshoot" in types(events) and s.covered[9] and s.gems[8] == 3 and s.forest_left == 2


def test_a_gem_is_taken_even_after_zero_steps():
    """即使牌卡顯示的移動步數是0也可以拿: a gem is taken where the tracker stops, even after 0 steps."""
    s = make_state([["dove-9", "rose-6"], ["rose-9", "rose-2"]], "star-1", tracker=3)
    s.apply(0, "play dove-9")
    events = s.apply(1, "play rose-9")
    assert s.tracker == 3 and s.gems[3] == 0 and s.collected == 1
    assert of_type(events, "gem collected")[0]["space"] == 3
    assert s.view(None)["public"]["last_trick"]["gem"] is True


def test_collecting_the_last_gem_wins_at_once():
    """如果玩家收集完圖板上所有的寶石標記,則遊戲勝利 … 遊戲立即結束。"""
    gems = [0] * 11
    gems[6] = 1
    s = make_state([["dove-4", "rose-6"], ["dove-5", "rose-2"]], "star-1", gems=gems, trick=10)
    s.apply(0, "play dove-4")
    events = s.apply(1, "play dove-5")
    s.apply(1, "ignore dove-4")
    assert s.tracker == 6
    assert s.to_move() == [] and s.phase == "over"
    outcome = s.outcome()
    assert outcome.winners == [0, 1]
    assert outcome.scores == [10 + 2 + 20 + 12] * 2
    assert s.view(None)["public"]["result"] == {"won": True, "reason": "all-gems", "score": 44}
    assert events  # the gazelle step came first


def test_overshoot_without_a_forest_token_loses():
    """如果手邊沒有森林標記可放,則遊戲失敗: an overshoot with no forest token left loses."""
    covered = [True, True] + [False] * 7 + [True, True]
    gems = list(SIDE_A_GEMS)
    gems[0] = gems[1] = gems[9] = gems[10] = 0
    s = make_state([["dove-2", "rose-6"], ["dove-10", "rose-2"]], "star-1", covered=covered, gems=gems, tracker=6)
    assert s.forest_left == 0
    s.apply(0, "play dove-2")
    events = s.apply(1, "play dove-10")
    assert types(events)[-1] == "game lost" and events[-1]["reason"] == "no-forest-token"
    outcome = s.outcome()
    assert outcome.winners == [] and outcome.scores == [0, 0]
    assert outcome.details == [{"result": "lost", "reason": "no-forest-token"}] * 2
