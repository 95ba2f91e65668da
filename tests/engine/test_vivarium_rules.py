"""Vivarium: setup, the turn, the round's end, the two-player rules and the final score.

Positions are built by hand from a fresh game; each test quotes the rule it checks from the seed
rulebook (Chinese) or, where the seed is silent, docs/rules/vivarium.md.
"""

from __future__ import annotations

import pytest

from engine import GAMES, IllegalAction
from engine.vivarium.content import BLANK_PRIORITY, CARDS, CHAIN, CONTRACTS, CREATURES, EQUIPMENT, STARTING
from engine.vivarium.grid import cell_index
from engine.vivarium.setup import chain_tokens_for

GAME = GAMES["vivarium"]


# -- helpers used by every vivarium test file -------------------------------------------------------
def pull(s, card: str) -> None:
    """Take a card out of wherever it is (grid, a deck, the discard, a collection)."""
    for i, c in enumerate(s.grid):
        if c == card:
            s.grid[i] = None
            return
    for pile in [*s.decks.values(), s.discard, *s.collections]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"{card} is nowhere")


def put(s, row: int, col: int, card: str | None) -> None:
    """Lay ``card`` on a grid cell; the card that was there goes to the discard."""
    i = cell_index(row, col)
    if s.grid[i] == card:
        return
    old = s.grid[i]
    if card is not None:
        pull(s, card)
    if old is not None:
        s.discard.append(old)
    s.grid[i] = card


def give(s, seat: int, *cards: str) -> None:
    for card in cards:
        pull(s, card)
        s.collections[seat].append(card)


def set_tokens(s, hands: list[list[str]], middle: list[str], facedown: str | None = None) -> None:
    s.tokens = [sorted(h) for h in hands]
    s.middle = list(middle)
    s.facedown = facedown


def make_state(
    players: int = 3, seed: int = 0, first: int = 0, gems: int | None = None, rules_version: int | None = None
):
    s = GAME.new(players, seed, rules_version=rules_version)
    s.first = first
    if gems is not None:
        s.gems = [gems] * players
    return s


def check(s):
    """The hand-built position must be a valid one."""
    GAME.load(s.to_dict())
    return s


def texts(s, seat: int) -> list[str]:
    return [str(a) for a in s.legal_actions(seat)]


def of_type(events, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def takes(s, seat: int) -> set[tuple[int, int]]:
    out = set()
    for text in texts(s, seat):
        if text.startswith("take "):
            row, col = (int(p.split("=")[1]) for p in text.split()[1:])
            out.add((row, col))
    return out


def creature(kind: str, habitat: str, points: int) -> str:
    return f"{kind}-{habitat}-{points}"


def play_turn_for_gems(s) -> None:
    """The player to act swaps their first token with the middle and takes 2 gems."""
    seat = s.current
    s.apply(seat, texts(s, seat)[0])
    s.apply(seat, "gems")


# -- setup -----------------------------------------------------------------------------------------
def test_setup_fills_the_grid_two_creature_rows_then_equipment_then_contracts():
    """最頂部兩行放置生物卡;第三行放置裝備卡;第四行放置合約卡: rows 1-2 creatures, 3 equipment, 4 contracts."""
    s = make_state(4, seed=5)
    grid = s.view(None)["public"]["grid"]
    assert [[c["kind"] for c in row] for row in grid] == [
        ["creature"] * 4,
        ["creature"] * 4,
        ["equipment"] * 4,
        ["contract"] * 4,
    ]
    assert s.view(None)["public"]["decks"] == {"creature": 40, "equipment": 12, "contract": 17}


def test_setup_priority_tokens_blank_aside_two_returned_six_stacked():
    """空白的優先事項指示物拿出放在一旁;洗混剩餘8個並隨機移除2個;剩餘6個面朝下: blank aside, 2 out, 6 stacked."""
    s = make_state(3, seed=9)
    assert s.priority_current == BLANK_PRIORITY
    assert len(s.priority_removed) == 2 and BLANK_PRIORITY not in s.priority_removed
    stacked = s.priority_stack + [s.priority_next]
    assert len(stacked) == 6 and len(set(stacked + s.priority_removed)) == 8
    seen = {tuple(GAME.new(3, seed).priority_removed) for seed in range(30)}
    assert len(seen) > 5


def test_setup_one_secret_habitat_and_one_secret_type_starting_contract_each():
    """每位玩家隨機拿取1張顏色起始合約卡和1張類型起始合約卡,面朝下: one habitat and one type contract, secret."""
    s = make_state(4, seed=3)
    decks = [sorted(STARTING[c]["deck"] for c in s.starting[seat]) for seat in range(4)]
    assert decks == [["habitat", "type"]] * 4
    assert len({c for pair in s.starting for c in pair}) == 8
    public = str(s.view(None))
    for seat in range(4):
        mine = {c["id"] for c in s.view(seat)["private"]["contracts"]}
        assert mine == set(s.starting[seat])
        assert all(f"'{c}'" not in public for c in mine)


@pytest.mark.parametrize(("players", "count", "removed_dots"), [(4, 9, set()), (3, 7, {4}), (2, 6, {3, 4})])
def test_setup_chain_tokens_by_player_count(players, count, removed_dots):
    """4人:使用所有;3人:移除2個帶有四個點的;2人:再移除1個帶有三個點的 (then 2 each, the rest in the middle)."""
    s = make_state(players, seed=1)
    in_play = [t for hand in s.tokens for t in hand] + s.middle + ([s.facedown] if s.facedown else [])
    assert sorted(in_play) == sorted(chain_tokens_for(players)) and len(in_play) == count
    assert not {CHAIN[t].dots for t in in_play} & removed_dots
    assert all(len(hand) == 2 for hand in s.tokens)
    assert len(s.middle) == 1


def test_setup_one_gem_each_and_a_random_first_player():
    """每位玩家拿取1個寶石;隨機決定一位起始玩家: 1 gem each, a random first player."""
    assert make_state(4, seed=2).gems == [1, 1, 1, 1]
    firsts = {GAME.new(4, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    s = GAME.new(4, 11)
    assert s.setup_events[0] == {"type": "first player", "visible_to": None, "seat": s.first}
    assert s.to_move() == [s.first]


# -- the turn -----------------------------------------------------------------------------------------
def test_the_swap_is_compulsory_and_comes_first():
    """你必須將你手中的1個連鎖指示物與桌子中央的連鎖指示物交換: the swap is compulsory, before anything else."""
    s = make_state(3)
    set_tokens(s, [["t1", "t2"], ["t3", "t4"], ["t5", "t6"]], ["t7"])
    check(s)
    assert texts(s, 0) == ["swap give=t1 take=t7", "swap give=t2 take=t7"]
    with pytest.raises(IllegalAction, match="First swap"):
        s.apply(0, "gems")


def test_swap_exchanges_one_of_your_tokens_with_the_middle():
    """將你手中的1個連鎖指示物與桌子中央的交換: your token goes to the middle, the middle one to you."""
    s = make_state(3)
    set_tokens(s, [["t1", "t2"], ["t3", "t4"], ["t5", "t6"]], ["t7"])
    events = s.apply(0, "swap give=t2 take=t7")
    assert s.tokens[0] == ["t1", "t7"] and s.middle == ["t2"]
    assert events[0]["type"] == "swap" and events[0]["gave"]["id"] == "t2" and events[0]["took"]["id"] == "t7"
    assert s.phase == "take"


def test_take_a_card_at_row_from_one_token_and_column_from_the_other():
    """一個連鎖指示物上的數字與卡牌所在行相同;另一個連鎖指示物上的數字與所在列相同.

    A number on one token is the card's row; a number on the other token its column.
    """
    s = make_state(3)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"]], ["t7"])  # t7 = 2|3
    s.apply(0, "swap give=t5 take=t7")  # t1 = 1|2 and t7 = 2|3
    expected = {(r, c) for r in (1, 2) for c in (2, 3)} | {(r, c) for r in (2, 3) for c in (1, 2)}
    assert takes(s, 0) == expected
    with pytest.raises(IllegalAction, match="do not reach"):
        s.apply(0, "take row=4 col=4")
    with pytest.raises(IllegalAction):
        s.apply(0, "take row=1 col=1")  # both numbers from the same token


def test_a_taken_card_is_not_replaced_during_the_round():
    """在你拿取卡牌後,不要補充新的卡牌: no refill after a card is taken."""
    s = make_state(3)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"]], ["t7"])
    card = s.grid[cell_index(1, 2)]
    s.apply(0, "swap give=t5 take=t7")
    events = s.apply(0, "take row=1 col=2")
    assert of_type(events, "card taken")[0]["card"]["id"] == card
    assert s.grid[cell_index(1, 2)] is None and card in s.collections[0]
    play_turn_for_gems(s)
    assert s.grid[cell_index(1, 2)] is None and s.round == 1


def test_two_gems_instead_of_a_card():
    """如果你無法拿取一張卡牌或不想拿取,你可以改為獲得2個寶石: 2 gems instead of a card."""
    s = make_state(3)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"]], ["t7"])
    s.apply(0, "swap give=t5 take=t7")
    assert "gems" in texts(s, 0)
    s.apply(0, "gems")
    assert s.gems[0] == 3 and s.current == 1 and s.phase == "swap"


def test_two_gems_when_no_card_can_be_reached():
    """如果你無法拿取一張卡牌: when no card can be taken, the gems are still there."""
    s = make_state(3)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"]], ["t7"])
    for i in range(16):
        if s.grid[i] is not None:
            s.discard.append(s.grid[i])
            s.grid[i] = None
    s.gems = [0, 0, 0]
    check(s)
    s.apply(0, "swap give=t5 take=t7")
    assert texts(s, 0) == ["gems"]


def test_a_gem_moves_a_token_number_by_one_within_1_and_4():
    """丟棄1個寶石來將連鎖指示物上的數字增加或降低1點;不能超過4或低於1: 1 gem, +-1, within 1-4."""
    s = make_state(4, gems=2)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"], ["t7", "t9"]], ["t8"])  # t8 = 1|4
    check(s)
    s.apply(0, "swap give=t5 take=t8")
    adjust = [t for t in texts(s, 0) if t.startswith("adjust")]
    assert adjust == [
        "adjust t1 from=1 to=2",
        "adjust t1 from=2 to=1",
        "adjust t1 from=2 to=3",
        "adjust t8 from=1 to=2",
        "adjust t8 from=4 to=3",
    ]
    events = s.apply(0, "adjust t8 from=4 to=3")
    assert s.gems[0] == 1 and s.numbers["t8"] == [1, 3]
    assert events[0]["type"] == "gem spent" and events[0]["numbers"] == [1, 3]
    assert (3, 1) in takes(s, 0) and (4, 1) not in takes(s, 0)


def test_swaps_that_differ_only_by_twin_tokens_are_offered_once():
    """Swap one of your tokens for one in the middle (docs: tokens with the same numbers are the
    same in play, so each different swap is offered once)."""
    s = make_state(4)
    set_tokens(s, [["t5", "t8"], ["t3", "t4"], ["t2", "t1"], ["t7", "t9"]], ["t6"])  # t5 = t8 = 1|4
    check(s)
    assert [t for t in texts(s, 0) if t.startswith("swap")] == ["swap give=t5 take=t6"]
    s.tokens[0] = ["t1", "t5"]
    s.tokens[2] = ["t2", "t8"]
    check(s)
    assert [t for t in texts(s, 0) if t.startswith("swap")] == ["swap give=t1 take=t6", "swap give=t5 take=t6"]


def test_two_tokens_with_the_same_numbers_offer_their_gem_changes_once():
    """1 gem, +-1 (docs: two of your tokens showing the same numbers give the same choices with
    the same result this turn, so they are offered once)."""
    s = make_state(4, gems=2)
    set_tokens(s, [["t5", "t6"], ["t3", "t4"], ["t2", "t1"], ["t7", "t9"]], ["t8"])  # t5 = t8 = 1|4
    check(s)
    s.apply(0, "swap give=t6 take=t8")
    adjust = [t for t in texts(s, 0) if t.startswith("adjust")]
    assert adjust == ["adjust t5 from=1 to=2", "adjust t5 from=4 to=3"]
    s.apply(0, "adjust t5 from=1 to=2")
    adjust = [t for t in texts(s, 0) if t.startswith("adjust")]  # now they differ: both offered
    assert "adjust t8 from=1 to=2" in adjust and "adjust t5 from=2 to=3" in adjust


def test_any_number_of_gems_may_be_spent_but_not_without_a_gem():
    """你可以在回合中使用任意數量的寶石: as many gems as you have, none without one."""
    s = make_state(4, gems=2)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"], ["t7", "t9"]], ["t8"])
    s.apply(0, "swap give=t5 take=t8")
    s.apply(0, "adjust t1 from=2 to=3")
    s.apply(0, "adjust t1 from=3 to=4")
    assert s.numbers["t1"] == [1, 4] and s.gems[0] == 0
    assert not [t for t in texts(s, 0) if t.startswith("adjust")]
    with pytest.raises(IllegalAction, match="gem"):
        s.apply(0, "adjust t1 from=1 to=2")


def test_adjusted_numbers_last_for_this_turn_only():
    """Adaptation: a chain token's printed numbers never change; gems move them for this turn only."""
    s = make_state(4, gems=1)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"], ["t7", "t9"]], ["t8"])
    s.apply(0, "swap give=t5 take=t8")
    s.apply(0, "adjust t1 from=2 to=3")
    s.apply(0, "gems")
    assert s.numbers == {} and CHAIN["t1"].numbers == (1, 2)
    view = s.view(None)["public"]["players_info"][0]
    assert [t["now"] for t in view["tokens"]] == [[1, 2], [1, 4]]


def test_every_player_takes_two_turns_a_round_in_turn_order():
    """直到所有玩家都進行了兩個回合: every player takes two turns, from the first player on, then the round ends."""
    s = make_state(3, first=1)
    order = []
    for _ in range(6):
        order.append(s.current)
        assert s.round == 1
        play_turn_for_gems(s)
    assert order == [1, 2, 0, 1, 2, 0]
    assert s.round == 2


# -- the end of a round -------------------------------------------------------------------------------
def test_the_first_player_marker_passes_left_at_the_round_end():
    """一輪游戲結束,將起始玩家標記移交給左手邊的下一位玩家: the marker passes to the next player."""
    s = make_state(4, first=3)
    for _ in range(8):
        play_turn_for_gems(s)
    assert s.first == 0 and s.current == 0 and s.round == 2


def test_the_grid_is_refilled_at_the_round_end():
    """重新補滿游戲版圖: every empty cell is refilled from its row's deck."""
    s = make_state(2)
    for cell in ((1, 1), (2, 3), (3, 2), (4, 4)):
        s.discard.append(s.grid[cell_index(*cell)])
        s.grid[cell_index(*cell)] = None
    check(s)
    for _ in range(4):
        play_turn_for_gems(s)
    kinds = [[CARDS[s.grid[cell_index(r, c)]].kind for c in range(1, 5)] for r in range(1, 5)]
    assert kinds == [["creature"] * 4, ["creature"] * 4, ["equipment"] * 4, ["contract"] * 4]


def test_equipment_and_contract_gaps_take_creatures_when_their_decks_run_out():
    """如果裝備卡或合約卡已用盡,則改為用生物卡補滿: an empty equipment or contract deck is replaced by creatures."""
    s = make_state(3)
    s.discard += s.decks["equipment"] + s.decks["contract"]
    s.decks["equipment"], s.decks["contract"] = [], []
    for cell in ((3, 1), (4, 2)):
        s.discard.append(s.grid[cell_index(*cell)])
        s.grid[cell_index(*cell)] = None
    check(s)
    for _ in range(6):
        play_turn_for_gems(s)
    assert CARDS[s.grid[cell_index(3, 1)]].kind == "creature"
    assert CARDS[s.grid[cell_index(4, 2)]].kind == "creature"


def test_a_new_priority_token_is_revealed_and_two_are_visible():
    """翻開新的優先事項指示物;總是會有兩個優先事項指示物是可見的: one for this round, one for the next."""
    s = make_state(2)
    nxt, top = s.priority_next, s.priority_stack[-1]
    priority = s.view(None)["public"]["priority"]
    assert priority["current"]["id"] == BLANK_PRIORITY and priority["next"]["id"] == nxt
    for _ in range(4):
        play_turn_for_gems(s)
    assert s.priority_current == nxt and s.priority_next == top and len(s.priority_stack) == 4


def test_the_blank_priority_token_of_round_one_gives_nothing():
    """Adaptation: round 1 uses the blank token: no gem for any card, and nobody takes it."""
    s = make_state(2)
    set_tokens(s, [["t1", "t3"], ["t2", "t4"]], ["t5"], facedown="t6")
    put(s, 1, 1, creature("animal", "forest", 2))
    check(s)
    s.apply(0, "swap give=t3 take=t5")  # t1 = 1|2, t5 = 1|4
    events = s.apply(0, "take row=1 col=1")
    assert of_type(events, "card taken")[0]["priority_gem"] == 0 and s.gems[0] == 1
    events = []
    for _ in range(3):
        seat = s.current
        events += s.apply(seat, texts(s, seat)[0])
        events += s.apply(seat, "gems")
    award = of_type(events, "priority awarded")[0]
    assert award["seat"] is None and s.priority_won == [[], []]


def test_a_card_matching_the_round_priority_icon_gives_a_gem():
    """當你在這一輪拿取對應的卡牌時,能夠額外獲得一個寶石: a card with this round's priority icon gives 1 gem."""
    s = make_state(3)
    s.round, s.priority_current, s.priority_next = 2, "p-dragon", "p-swamp"
    s.priority_removed = ["p-animal", "p-plant"]
    _fix_priority(s)
    set_tokens(s, [["t1", "t5"], ["t3", "t4"], ["t2", "t6"]], ["t7"])
    put(s, 1, 2, creature("dragon", "swamp", 1))
    put(s, 2, 1, creature("plant", "swamp", 1))
    check(s)
    s.apply(0, "swap give=t5 take=t7")
    events = s.apply(0, "take row=1 col=2")
    assert of_type(events, "card taken")[0]["priority_gem"] == 1 and s.gems[0] == 2
    s.apply(1, "swap give=t3 take=t5")  # t4 = 2|4, t5 = 1|4
    events = s.apply(1, "take row=2 col=1")
    assert of_type(events, "card taken")[0]["priority_gem"] == 0 and s.gems[1] == 1


def _fix_priority(s) -> None:
    """Keep every priority token in exactly one place after a test moved the current one."""
    placed = {s.priority_current, s.priority_next, *s.priority_removed}
    everything = [
        p for p in ("p-animal", "p-plant", "p-mineral", "p-dragon", "p-mountain", "p-forest", "p-desert", "p-swamp")
    ]
    s.priority_stack = [p for p in everything if p not in placed]


def test_the_priority_token_goes_to_whoever_has_most_of_its_icon():
    """在一輪游戲結束時,擁有指示物頂部圖標數量最多的玩家獲得該指示物: most of its icon takes it."""
    s = make_state(3, first=0)
    s.round, s.priority_current, s.priority_next = 2, "p-forest", "p-swamp"
    s.priority_removed = ["p-animal", "p-plant"]
    _fix_priority(s)
    give(s, 1, creature("animal", "forest", 1), creature("dragon", "forest", 2))
    give(s, 2, creature("plant", "forest", 3))
    check(s)
    events = []
    for _ in range(6):
        seat = s.current
        events += s.apply(seat, texts(s, seat)[0])
        events += s.apply(seat, "gems")
    award = of_type(events, "priority awarded")[0]
    assert award["seat"] == 1 and award["counts"] == [0, 2, 1]
    assert s.priority_won[1] == ["p-forest"]


def test_a_priority_tie_goes_to_the_player_later_in_turn_order():
    """如果出現平手,由順位更靠後的玩家獲得: a tie goes to the player later in turn order."""
    s = make_state(3, first=2)  # turn order 2, 0, 1
    s.round, s.priority_current, s.priority_next = 2, "p-mineral", "p-swamp"
    s.priority_removed = ["p-animal", "p-plant"]
    _fix_priority(s)
    give(s, 2, creature("mineral", "forest", 1))
    give(s, 0, creature("mineral", "desert", 1))
    check(s)
    for _ in range(6):
        play_turn_for_gems(s)
    assert s.priority_won == [["p-mineral"], [], []]


def test_rules_version_1_equipment_counting_as_a_creature_counts_for_the_priority_token():
    """Adaptation of rules version 1: an equipment card that 'counts as' a type or habitat counts for
    priority tokens too (version 2 deals no such card)."""
    s = make_state(2, rules_version=1)
    s.round, s.priority_current, s.priority_next = 2, "p-dragon", "p-swamp"
    s.priority_removed = ["p-animal", "p-plant"]
    _fix_priority(s)
    give(s, 1, "e03")  # Egg Warmer: counts as a dragon
    check(s)
    for _ in range(4):
        play_turn_for_gems(s)
    assert s.priority_won == [[], ["p-dragon"]]


def test_priority_tokens_are_worth_two_points_each():
    """每個優先事項指示物在游戲結束時價值2分: 2 points each at the end."""
    s = _last_turn_state(3)
    s.priority_won[2] = ["p-animal", "p-plant"]
    s.priority_removed = ["p-mineral", "p-dragon"]
    check(s)
    s.apply(s.current, texts(s, s.current)[0])
    s.apply(s.current, "gems")
    assert s.outcome().details[2]["priority tokens"] == 4


# -- the end of the game --------------------------------------------------------------------------------
def _last_turn_state(players: int):
    """Round 7, the last turn; the priority tokens placed so that nobody wins round 7's."""
    s = make_state(players, first=0)
    s.round, s.turn = 7, 2 * players - 1
    s.priority_current, s.priority_next, s.priority_stack = "p-swamp", None, []
    s.priority_removed = ["p-desert", "p-forest"]
    return s


def test_the_game_ends_after_round_seven():
    """游戲在第7輪結束後結束,進入終局計分: the game ends after round 7."""
    s = make_state(2)
    rounds_seen = set()
    while s.outcome() is None:
        rounds_seen.add(s.round)
        play_turn_for_gems(s)
    assert rounds_seen == set(range(1, 8))
    assert s.to_move() == [] and s.outcome() is not None


def test_final_score_adds_creatures_gems_priority_tokens_and_contracts():
    """終局計分:生物卡上的分數;剩餘的每個寶石1分;優先事項指示物上的分數;完成的合約卡上的分數。"""
    s = _last_turn_state(2)
    s.starting = [["s-mountain", "s-animal"], ["s-forest", "s-plant"]]
    give(s, 0, creature("animal", "mountain", 3), creature("animal", "forest", 2), creature("animal", "desert", 1))
    give(s, 0, "c01", "c17")  # 3 animals: 4 points; 6 creature points: below 12
    s.priority_won[0] = ["p-animal"]
    s.priority_removed = ["p-desert", "p-forest"]
    s.gems = [4, 0]
    check(s)
    s.apply(1, texts(s, 1)[0])
    s.apply(1, "gems")
    details = s.outcome().details[0]
    assert details["creatures"] == 6
    assert details["gems"] == 4
    assert details["priority tokens"] == 2
    assert details["contracts"] == 4
    assert details["starting contracts"] == 3  # s-animal: 3 animals
    assert details["fulfilled"] == 2
    assert details["total"] == 6 + 4 + 2 + 4 + 3 == s.outcome().scores[0]


def test_equal_top_scores_share_the_win():
    """如果出現平手,則平手玩家共享游戲勝利: ties share the win."""
    s = _last_turn_state(3)
    s.gems = [5, 3, 5]
    check(s)
    s.apply(2, texts(s, 2)[0])
    s.apply(2, "gems")
    assert s.outcome().scores == [5, 3, 7]
    assert s.outcome().winners == [2]
    s = _last_turn_state(3)
    s.gems = [7, 3, 5]
    check(s)
    s.apply(2, texts(s, 2)[0])
    s.apply(2, "gems")
    assert s.outcome().scores == [7, 3, 7] and s.outcome().winners == [0, 2]


# -- two players ------------------------------------------------------------------------------------------
def test_two_players_have_two_middle_tokens_one_face_down_and_unusable():
    """兩人游戲:將剩餘的2個連鎖指示物放在桌子中央;隨機將其中一個翻為面朝下,面朝下的指示物在當前輪中不可使用。"""
    s = make_state(2, seed=4)
    assert len(s.middle) == 1 and s.facedown is not None
    assert all(s.facedown not in t for t in texts(s, s.current))
    assert len({GAME.new(2, seed).facedown for seed in range(30)}) > 1
    public = s.view(None)["public"]
    assert public["facedown"]["id"] == s.facedown


def test_two_players_flip_the_tokens_and_clear_a_column_at_the_round_end():
    """在一輪游戲結束時,將面朝下的指示物翻為面朝上,並將另一個翻為面朝下;同時,將新翻開的指示物最大數字所在列的卡牌全部移除,然後補充新的卡牌。"""
    s = make_state(2, first=0)
    set_tokens(s, [["t1", "t3"], ["t2", "t4"]], ["t5"], facedown="t6")  # t6 = 2|3: column 3 goes
    check(s)
    column = [s.grid[cell_index(r, 3)] for r in range(1, 5)]
    s.apply(0, "swap give=t3 take=t5")
    s.apply(0, "gems")  # the middle now holds t3
    events = []
    for _ in range(3):
        seat = s.current
        events += s.apply(seat, texts(s, seat)[0])
        events += s.apply(seat, "gems")
    flipped = of_type(events, "tokens flipped")[0]
    assert flipped["revealed"]["id"] == "t6"
    assert s.middle == ["t6"] and s.facedown == flipped["hidden"]["id"]
    cleared = of_type(events, "column cleared")[0]
    assert cleared["col"] == 3 and [c["id"] for c in cleared["cards"]] == column
    assert all(card in s.discard for card in column)
    assert all(s.grid[cell_index(r, 3)] is not None for r in range(1, 5))


def test_three_and_four_players_have_no_face_down_token():
    """Only the two-player game turns a middle token face down."""
    assert make_state(3).facedown is None and make_state(4).facedown is None


def test_every_card_is_somewhere_after_a_whole_game():
    """Cards only move between the grid, the decks, the discard and the collections."""
    s = make_state(4, seed=8)
    while s.outcome() is None:
        seat = s.current
        actions = texts(s, seat)
        s.apply(seat, actions[len(actions) // 2])
    everything = [c for c in s.grid if c] + s.discard + [c for d in s.decks.values() for c in d]
    everything += [c for col in s.collections for c in col]
    assert sorted(everything) == sorted([*CREATURES, *EQUIPMENT, *CONTRACTS])
