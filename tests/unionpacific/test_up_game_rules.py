"""The Union Pacific engine, one test per rule: setup (UP-S), turns (UP-T), build (UP-B)
and invest (UP-I). Dividends and variants are in ``test_up_game_dividends.py``.

Some tests arrange a situation by editing the game's state directly (a rigged deck, a
chosen hand); those games are not replayed afterwards.
"""

from __future__ import annotations

import pytest
from up_helpers import started

from railkit.errors import NotYourTurnError, RuleError
from railkit.unionpacific import (
    DIVIDEND,
    GENERAL,
    TRACK_TYPES,
    UP,
    UP_SHARES,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    new_game,
)


def give_track(game, player, *cards):
    game._state.track_hand[player] = {}
    for c in cards:
        game._state.track_hand[player][c] = game.state.track_hand[player].get(c, 0) + 1


def hq_section(game, key, usable=True, exclude_own=True):
    """A section touching ``key``'s headquarters, of a type it may (or may not) use."""
    company = game.board.company(key)
    for s in game.board.sections.values():
        if company.headquarters in (s.a, s.b) and (s.track_type in company.track_types) == usable:
            if exclude_own and key in game.state.net.trains_on[s.id]:
                continue
            if usable and game.state.net.free[s.id] == 0:
                continue
            return s
    pytest.fail(f"the board has no such section for {key}: the board data changed under this test")


def fill_section(game, sid):
    """Rig: other companies' trains on every empty neutral space of ``sid``."""
    net = game._state.net  # the live network (game.state is a copy)
    for key in game.company_order:
        if net.free[sid] == 0:
            return
        if key != "EPRG" and key not in net.trains_on[sid]:
            net.trains_on[sid].append(key)
            net.set_free(sid, net.free[sid] - 1)
            net.supply[key] -= 1


def rejects(game, action, rule):
    before = game.state_dict()
    with pytest.raises(RuleError) as info:
        game.apply(action)
    assert info.value.rule == rule, info.value
    assert game.state_dict() == before, "a rejected action changed the state"
    return info.value


def build_any(game):
    """Apply the first legal build of the player to act; returns it."""
    build = game.legal_placements()[0]
    game.apply(build)
    return build


# -- setup ---------------------------------------------------------------------------------
def test_UP_S1_starting_trains_and_supply():
    game = new_game(4)
    for company in game.board.companies:
        placed = [sid for sid, keys in game.state.net.trains_on.items() if company.key in keys]
        assert sorted(placed) == sorted(company.starting_sections)
        assert game.state.net.supply[company.key] == company.trains - len(company.starting_sections)
    assert sum(len(k) for k in game.state.net.trains_on.values()) == 11


def test_UP_S2_track_cards_dealt_and_discards_reshuffled():
    game = new_game(5)
    assert all(sum(h.values()) == 3 for h in game.state.track_hand.values())
    assert len(game.state.track_pile) == 40 - 15
    game = started(3)
    p = game.current_player
    game._state.track_discards = list(game.state.track_pile)  # empty the draw pile into the discards
    game._state.track_pile = []
    discards = sorted(game.state.track_discards)
    give_track(game, p, "plains", "hills", "mountain", "river")
    game.apply(Invest(p, (sorted(game.state.share_hand[p])[0],), "plains"))
    assert any("UP-S2" in e for e in game.narrative[-3:])
    assert len(game.state.track_pile) == len(discards)  # plains discarded, one card drawn for the next player
    assert game.state.track_discards == []


def test_UP_S3_one_up_share_each_rest_is_the_stack():
    for n in range(2, 7):
        game = new_game(n)
        assert all(h.get(UP) == 1 for h in game.state.share_hand.values())
        assert game.state.up_stack == UP_SHARES - n


def test_UP_S4_four_company_shares_each():
    game = new_game(6, seed=3)
    for hand in game.state.share_hand.values():
        assert sum(v for k, v in hand.items() if k != UP) == 4
        assert sum(hand.values()) == 5


def test_UP_S5_first_shares_chosen_together_and_revealed_at_once():
    game = new_game(3, seed=2)
    assert game.players_to_act() == game.players
    a, b, c = game.players
    game.apply(ChooseFirstShare(b, UP))  # any order; UP allowed
    assert game.players_to_act() == (a, c)
    assert all(not t for t in game.state.table.values()), "nothing is revealed before everyone chose"
    assert game.view(a).my_first_share is None and game.view(b).my_first_share == UP
    rejects(game, ChooseFirstShare(b, UP), "UP-S5")
    rejects(game, Invest(a, (UP,), "plains"), "UP-S5")
    game.apply(ChooseFirstShare(a, sorted(game.state.share_hand[a])[0]))
    game.apply(ChooseFirstShare(c, sorted(game.state.share_hand[c])[-1]))
    assert game.state.table[b] == {UP: 1}
    assert all(sum(t.values()) == 1 for t in game.state.table.values())
    assert any("revealed together" in e for e in game.narrative)
    rejects(game, ChooseFirstShare(game.current_player, UP), "UP-S5")


def test_UP_S6_display_of_four_hidden_until_first_shares_are_chosen():
    game = new_game(4, seed=5)
    assert len(game.state.display) == 4 and all(game.state.display)
    assert len(set(game.state.display)) > 1  # UP-B5 applies at setup too
    assert game.view(None).display is None
    game = started(4, seed=5)
    assert game.view(None).display == tuple(game.state.display)


def test_UP_S7_standard_deck_piles():
    for n in (3, 4, 6):
        game = new_game(n, seed=n)
        deck = game.state.deck
        assert len(deck) == 98 - 4 * n - 4 + 4
        assert DIVIDEND not in deck[:6]
        assert deck[6:25].count(DIVIDEND) == 1
        assert deck[25:].count(DIVIDEND) == 3


def test_UP_S7_FI_finnish_deck_keeps_six_dividend_free_cards_at_the_bottom():
    game = new_game(4, seed=1, deck="finnish")
    deck = game.state.deck
    assert DIVIDEND not in deck[:6] and DIVIDEND not in deck[-6:]
    assert deck[6:25].count(DIVIDEND) == 1 and deck[25:-6].count(DIVIDEND) == 3


def test_UP_S8_first_player_starts_then_seat_order():
    game = new_game(["Ann", "Bob", "Cy"], seed=4)
    for p in game.players:
        game.apply(ChooseFirstShare(p, UP))
    assert game.current_player == "Ann"
    with pytest.raises(NotYourTurnError) as info:
        game.apply(Invest("Bob", (sorted(game.state.share_hand["Bob"])[0],), sorted(game.state.track_hand["Bob"])[0]))
    assert info.value.rule == "UP-S8"
    for expected in ("Ann", "Bob", "Cy", "Ann"):
        assert game.current_player == expected
        p = game.current_player
        game.apply(Invest(p, (sorted(game.state.share_hand[p])[0],), sorted(game.state.track_hand[p])[0]))


def test_UP_S8_player_count_and_names():
    for bad in (1, 7, ["A", "A"], ["A", " "]):
        with pytest.raises(RuleError):
            new_game(bad)
    assert new_game(2).players == ("Player 1", "Player 2")


# -- turns -----------------------------------------------------------------------------------
def test_UP_T1_track_card_drawn_when_the_turn_starts():
    game = started(4)
    p = game.current_player
    assert sum(game.state.track_hand[p].values()) == 4
    assert all(sum(game.state.track_hand[q].values()) == 3 for q in game.players if q != p)
    assert "UP-T1" in game.narrative[-1]
    game.apply(Invest(p, (sorted(game.state.share_hand[p])[0],), sorted(game.state.track_hand[p])[0]))
    assert sum(game.state.track_hand[p].values()) == 3
    assert sum(game.state.track_hand[game.current_player].values()) == 4


def _fill_type(game, track_type):
    """Rig: every neutral space of ``track_type`` taken (the caches are edited directly)."""
    for sid, t in game.state.net.idx.section_type.items():
        if t == track_type:
            game._state.net.set_free(sid, 0)


def test_UP_T2_discard_an_unusable_track_card_once_before_acting():
    game = started(4)
    p = game.current_player
    give_track(game, p, "river", "river", "plains", "hills")
    rejects(game, DiscardUnusable(p, "plains"), "UP-T2")  # plains still has room
    _fill_type(game, "river")
    assert DiscardUnusable(p, "river") in game.legal_actions()
    pile = len(game.state.track_pile)
    game.apply(DiscardUnusable(p, "river"))
    assert sum(game.state.track_hand[p].values()) == 4 and len(game.state.track_pile) == pile - 1
    assert game.state.track_discards[-1] == "river"
    if game.state.track_hand[p].get("river"):
        rejects(game, DiscardUnusable(p, "river"), "UP-T2")  # only one per turn
    assert not any(isinstance(a, DiscardUnusable) for a in game.legal_actions())


def test_UP_T3_build_or_invest_never_both():
    game = started(4)
    p = game.current_player
    build_any(game)
    assert game.state.step == "draw"
    rejects(game, Invest(p, (UP,), sorted(game.state.track_hand[p])[0]), "UP-T3")
    rejects(game, game.legal_placements(p)[0] if game.legal_placements(p) else Build(p, "plains", "BNL", "x"), "UP-T3")
    game.apply(DrawShare(p, "deck"))
    if game.state.step == "exchange":
        game.apply(EndTurn(p))
    q = game.current_player
    assert q != p
    game.apply(Invest(q, (sorted(game.state.share_hand[q])[0],), sorted(game.state.track_hand[q])[0]))
    assert game.current_player not in (q,) and game.state.step == "action"


def test_UP_T4_pass_only_when_neither_build_nor_invest_is_possible():
    game = started(4)
    p = game.current_player
    rejects(game, Pass(p, sorted(game.state.track_hand[p])[0]), "UP-T4")  # holds shares
    game._state.share_hand[p] = {}
    give_track(game, p, "plains", "hills", "mountain", "river")
    rejects(game, Pass(p, "plains"), "UP-T4")  # can still build
    for t in TRACK_TYPES:
        _fill_type(game, t)
    legal = game.legal_actions()
    assert {type(a) for a in legal} == {Pass, DiscardUnusable}
    game.apply(Pass(p, "hills"))
    assert game.current_player != p and game.state.track_discards[-1] == "hills"
    assert any("UP-T4" in e for e in game.narrative)


def test_UP_T4_nobody_can_move_again_pays_the_remaining_payouts_DECISION():
    game = started(3)
    for q in game.players:
        game._state.share_hand[q] = {}
    for t in TRACK_TYPES:
        _fill_type(game, t)
    p = game.current_player
    game.apply(Pass(p, sorted(game.state.track_hand[p])[0]))
    assert game.is_over and len(game.state.payouts) == 4 and game.state.end_reason == "UP-D12"
    assert game.state.payouts[-1].reason == "no move left"


# -- build -------------------------------------------------------------------------------------
def test_UP_B1_the_played_card_sets_the_type_and_goes_to_the_discards():
    game = started(4)
    p = game.current_player
    s = hq_section(game, "BNL")
    give_track(game, p, s.track_type, GENERAL, GENERAL, GENERAL)
    rejects(game, Build(p, "lava", "BNL", s.id), "UP-B1")
    game.apply(Build(p, s.track_type, "BNL", s.id))
    assert game.state.track_discards[-1] == s.track_type
    assert game.state.track_hand[p] == {GENERAL: 3}
    assert "BNL" in game.state.net.trains_on[s.id]


def test_UP_B2_owning_shares_is_not_required():
    game = started(4)
    p = game.current_player
    key = next(k for k in game.company_order if not game.state.table[p].get(k) and not game.state.share_hand[p].get(k))
    s = hq_section(game, key)
    give_track(game, p, GENERAL)
    game.apply(Build(p, GENERAL, key, s.id))
    assert game.state.net.on_board(key) == len(game.board.company(key).starting_sections) + 1


def test_UP_B2a_track_type_must_match_the_card_general_is_wild():
    game = started(4)
    p = game.current_player
    s = hq_section(game, "EPRG")
    other = next(t for t in TRACK_TYPES if t != s.track_type)
    give_track(game, p, other, GENERAL)
    rejects(game, Build(p, other, "EPRG", s.id), "UP-B2a")
    assert "EPRG" not in game.state.net.trains_on[s.id]
    game.apply(Build(p, GENERAL, "EPRG", s.id))
    assert "EPRG" in game.state.net.trains_on[s.id]  # the general card built where the other type could not


def test_UP_B2b_company_may_use_only_its_track_types():
    game = started(4)
    p = game.current_player
    key, s = next((c.key, s) for c in game.board.companies for s in game.board.sections.values()
                  if c.headquarters in (s.a, s.b) and s.track_type not in c.track_types)
    give_track(game, p, s.track_type, GENERAL)
    rejects(game, Build(p, s.track_type, key, s.id), "UP-B2b")
    rejects(game, Build(p, GENERAL, key, s.id), "UP-B2b")


def test_UP_B2c_needs_an_empty_neutral_space():
    game = started(4)
    p = game.current_player
    s = hq_section(game, "EPRG")
    fill_section(game, s.id)
    give_track(game, p, GENERAL)
    rejects(game, Build(p, GENERAL, "EPRG", s.id), "UP-B2c")


def test_UP_B2d_one_train_per_company_per_section():
    game = started(4)
    p = game.current_player
    key = "BNL"
    sid = game.board.company(key).starting_sections[0]
    give_track(game, p, GENERAL)
    assert game.state.net.free[sid] > 0, "the starting section needs a neutral space for this test (board data)"
    rejects(game, Build(p, GENERAL, key, sid), "UP-B2d")


def test_UP_B2d_one_train_per_company_per_connection_parallel_sections_included():
    game = started(4)
    p = game.current_player
    give_track(game, p, GENERAL, GENERAL)
    game.apply(Build(p, GENERAL, "DM", "denver--pueblo--plains"))
    assert not game.state.net.is_legal("DM", "denver--pueblo--hills", GENERAL)
    ex = game.explain_placement("DM", "denver--pueblo--hills", GENERAL)
    assert [c.rule for c in ex.failed] == ["UP-B2d"] and "between Denver and Pueblo" in ex.failed[0].sentence
    for a in game.legal_actions():
        if isinstance(a, DrawShare):
            game.apply(a)
            break
    while game.state.step != "action" or game.current_player != p:  # round the table to p again
        q = game.current_player
        if game.state.step == "exchange":
            game.apply(EndTurn(q))
        else:
            game.apply(next(a for a in game.legal_actions() if not isinstance(a, Build) or a.company != "DM"))
    give_track(game, p, GENERAL, "hills")
    assert not any(isinstance(a, Build) and a.company == "DM" and a.section.startswith("denver--pueblo")
                   for a in game.legal_actions())
    rejects(game, Build(p, "hills", "DM", "denver--pueblo--hills"), "UP-B2d")


def test_UP_B2e_section_must_link_to_the_headquarters_by_own_trains():
    game = started(4)
    p = game.current_player
    key = "BNL"
    far = next(s for s in game.board.sections.values()
               if s.track_type in game.board.company(key).track_types
               and s.a not in game.state.net.reach[key] and s.b not in game.state.net.reach[key])
    give_track(game, p, GENERAL)
    err = rejects(game, Build(p, GENERAL, key, far.id), "UP-B2e")
    assert "first build" in err.message


def test_UP_B2e_network_grows_with_each_train():
    game = started(4)
    p = game.current_player
    key = "DM"
    s = hq_section(game, key)
    hq = game.board.company(key).headquarters
    beyond = s.other(hq)
    onward = next(t for t in game.board.sections.values()
                  if beyond in (t.a, t.b) and hq not in (t.a, t.b)
                  and t.track_type in game.board.company(key).track_types and game.state.net.free[t.id] > 0)
    assert not game.state.net.is_legal(key, onward.id, GENERAL) or beyond in game.state.net.reach[key]
    give_track(game, p, GENERAL)
    game.apply(Build(p, GENERAL, key, s.id))
    assert beyond in game.state.net.reach[key]
    assert game.state.net.is_legal(key, onward.id, GENERAL)


def test_UP_B2f_a_company_without_trains_in_supply_cannot_expand():
    game = started(4)
    p = game.current_player
    s = hq_section(game, "PAS")
    game._state.net.supply["PAS"] = 0  # rig
    give_track(game, p, GENERAL)
    rejects(game, Build(p, GENERAL, "PAS", s.id), "UP-B2f")
    assert not any(a.company == "PAS" for a in game.legal_placements())


def test_UP_B3_draw_from_display_refills_from_the_deck_top():
    game = started(4, seed=8)
    p = game.current_player
    build_any(game)
    assert {a.source for a in game.legal_actions()} == {"display:0", "display:1", "display:2", "display:3", "deck", "up"}
    game._state.deck[0:0] = ["SPS"]  # rig a known top card
    taken = game.state.display[2]
    hand = dict(game.state.share_hand[p])
    game.apply(DrawShare(p, "display:2"))
    assert game.state.share_hand[p][taken] == hand.get(taken, 0) + 1
    assert game.state.display[2] == "SPS"


def test_UP_B3_deck_top_and_up_stack():
    game = started(4, seed=9)
    p = game.current_player
    build_any(game)
    top = next(c for c in game.state.deck if c != DIVIDEND)
    game._state.deck.remove(top)
    game._state.deck.insert(0, top)
    game.apply(DrawShare(p, "deck"))
    assert game.state.share_hand[p].get(top)
    game.apply(EndTurn(p))
    q = game.current_player
    build_any(game)
    stack = game.state.up_stack
    game.apply(DrawShare(q, "up"))
    assert game.state.up_stack == stack - 1 and game.state.share_hand[q][UP] >= 1


def test_UP_B3_empty_display_slot_and_wrong_step():
    game = started(4)
    p = game.current_player
    rejects(game, DrawShare(p, "deck"), "UP-B3")  # not built yet
    build_any(game)
    game._state.display[1] = None  # rig
    rejects(game, DrawShare(p, "display:1"), "UP-B3")
    rejects(game, DrawShare(p, "display:7"), "UP-B3")
    assert DrawShare(p, "display:1") not in game.legal_actions()


def test_UP_B3_FI_no_direct_up_draw():
    game = started(4, direct_up_draw=False)
    p = game.current_player
    build_any(game)
    assert "up" not in {a.source for a in game.legal_actions()}
    rejects(game, DrawShare(p, "up"), "UP-B3-FI")


def test_UP_B4_exchange_one_share_for_up_into_the_box():
    game = started(4, seed=3)
    p = game.current_player
    build_any(game)
    game.apply(DrawShare(p, "display:0"))
    assert game.state.step == "exchange"
    card = sorted(k for k in game.state.share_hand[p] if k != UP)[0]
    before = dict(game.state.share_hand[p])
    stack, box = game.state.up_stack, len(game.state.box)
    game.apply(ExchangeForUP(p, card))
    assert game.state.up_stack == stack - 1 and game.state.box[-1] == card and len(game.state.box) == box + 1
    assert game.state.share_hand[p].get(card, 0) == before[card] - 1
    assert game.state.share_hand[p][UP] == before.get(UP, 0) + 1
    assert game.current_player != p  # the turn has ended (UP-B6)


def test_UP_B4_up_card_may_be_exchanged_and_nothing_happens_with_an_empty_stack():
    game = started(4, seed=3)
    p = game.current_player
    build_any(game)
    game.apply(DrawShare(p, "up"))
    game.apply(ExchangeForUP(p, UP))
    assert game.state.box[-1] == UP
    q = game.current_player
    rejects(game, ExchangeForUP(q, UP), "UP-B4")  # not after drawing
    game._state.up_stack = 0  # rig: the stack is used up
    build_any(game)
    game.apply(DrawShare(q, "deck"))
    assert game.current_player != q, "without UP shares left the turn ends after the draw"


def test_UP_B5_four_display_cards_of_one_company_are_removed_repeatedly():
    game = started(4)
    p = game.current_player
    build_any(game)
    game._state.display[:] = ["DM", "DM", "DM", "SPS"]
    game._state.deck[0:0] = ["DM", "KCCL", "KCCL", "KCCL", "KCCL", "PAS", "PSL", "CLS", "BNL"]
    box = len(game.state.box)
    game.apply(DrawShare(p, "display:3"))
    assert game.state.box[box:] == ["DM"] * 4 + ["KCCL"] * 4
    assert game.state.display == ["PAS", "PSL", "CLS", "BNL"]
    assert sum("UP-B5" in e for e in game.narrative) == 2


def test_UP_B6_end_turn_only_after_the_draw():
    game = started(4)
    p = game.current_player
    rejects(game, EndTurn(p), "UP-B6")
    build_any(game)
    rejects(game, EndTurn(p), "UP-B6")
    game.apply(DrawShare(p, "deck"))
    game.apply(EndTurn(p))
    assert game.current_player == game.players[1] and game.state.step == "action"


# -- invest ----------------------------------------------------------------------------------
def test_UP_I1_any_number_of_one_company_or_one_each_of_two():
    game = started(4)
    p = game.current_player
    d = sorted(game.state.track_hand[p])[0]
    game._state.share_hand[p] = {"BNL": 3, "DM": 2, UP: 1}
    rejects(game, Invest(p, (), d), "UP-I1")
    rejects(game, Invest(p, ("BNL", "BNL", "DM"), d), "UP-I1")
    rejects(game, Invest(p, ("BNL", "DM", UP), d), "UP-I1")
    rejects(game, Invest(p, ("BNL",) * 4, d), "UP-I1")  # not in hand
    rejects(game, Invest(p, ("SPS",), d), "UP-I1")
    legal = {a.cards for a in game.legal_actions() if isinstance(a, Invest)}
    assert legal == {("BNL",), ("BNL",) * 2, ("BNL",) * 3, ("DM",), ("DM",) * 2, (UP,),
                     ("BNL", "DM"), ("BNL", UP), ("DM", UP)}
    game.apply(Invest(p, (UP, "DM"), d))  # UP counts as a company; any order
    assert game.state.share_hand[p] == {"BNL": 3, "DM": 1}


def test_UP_I1_all_shares_of_one_company_at_once():
    game = started(4)
    p = game.current_player
    game._state.share_hand[p] = {"BNL": 3}
    before = game.state.table[p].get("BNL", 0)
    game.apply(Invest(p, ("BNL",) * 3, sorted(game.state.track_hand[p])[0]))
    assert game.state.table[p]["BNL"] == before + 3 and game.state.share_hand[p] == {}


def test_UP_I2_table_holdings_are_public_hands_are_secret():
    game = started(4)
    p = game.current_player
    game.apply(Invest(p, (sorted(game.state.share_hand[p])[0],), sorted(game.state.track_hand[p])[0]))
    other = game.players[2]
    seen = game.view(other)
    assert seen.tables[p] == game.state.table[p]
    assert seen.hand.shares == game.state.share_hand[other]
    assert not hasattr(seen, "share_hands") and seen.hand_sizes[p]["shares"] == sum(game.state.share_hand[p].values())
    assert game.view(None).hand is None


def test_UP_I3_investing_discards_one_track_card_no_train_no_share():
    game = started(4)
    p = game.current_player
    trains = {k: list(v) for k, v in game.state.net.trains_on.items()}
    deck, display = list(game.state.deck), list(game.state.display)
    card = sorted(game.state.track_hand[p])[0]
    game.apply(Invest(p, (sorted(game.state.share_hand[p])[0],), card))
    assert sum(game.state.track_hand[p].values()) == 3 and game.state.track_discards[-1] == card
    assert game.state.net.trains_on == trains and game.state.deck == deck and game.state.display == display
    rejects(game, Invest(game.current_player, (UP,), "lava"), "UP-I3")


def test_UP_I4_shares_in_hand_count_for_nothing():
    game = started(2, seed=1)
    a, b = game.players
    game._state.table[a], game._state.table[b] = {}, {"BNL": 1}
    game._state.share_hand[a] = {"BNL": 9, UP: 5}
    p = game.current_player
    build_any(game)
    game._state.deck[0:0] = [DIVIDEND, "DM"]
    game.apply(DrawShare(p, "deck"))
    assert game.state.payouts[0].amounts[a] == 0
    assert game.state.payouts[0].amounts[b] == 3  # BNL worth 2, sole shareholder (UP-D4)
