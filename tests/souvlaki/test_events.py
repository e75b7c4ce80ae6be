"""Souvlaki Wars events: what each viewer is told, and nothing hidden from them (SW-S.4)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kafeneio.bots import make_bot
from kafeneio.core import CHANCE, SPECTATOR, Event, IllegalActionError
from kafeneio.core.events import texts_told
from kafeneio.core.play import Step, play
from kafeneio.games import get_game

from .conftest import position

GAME = get_game("souvlaki")


def _played(players: int, seed: int) -> list[Step]:
    steps: list[Step] = []
    state = GAME.new_state(players, seed=seed)
    bots = [make_bot("heuristic", seed + p) for p in range(players)]
    play(state, bots, random.Random(seed), on_step=steps.append)
    return steps


def _other_cards(event: Event) -> Event:
    """The same event with other cards in it: what a viewer who may not see them must not tell
    apart."""
    cards, player, *rest = event.args
    if event.kind == "draw":
        (kinds,) = rest
        return Event((event.kind, (cards, player, [(k + 1) % 3 for k in kinds]), event.words))
    taker, kind = rest
    return Event((event.kind, (cards, player, taker, (kind + 1) % 3), event.words))


@pytest.mark.rule("SW-S.4")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_card_drawn_or_taken_is_named_only_to_those_who_see_it(players: int) -> None:
    told = 0
    for step in _played(players, seed=players):
        for event in step.events:
            if event.kind not in ("draw", "take"):
                continue
            _, holder, *rest = event.args
            if event.kind == "take" and rest[0] < 0:
                continue  # Rats discard face up, for everyone to see: the test below
            sees = {holder} | ({rest[0]} if event.kind == "take" else set())
            for viewer in [SPECTATOR, *range(players)]:
                if viewer not in sees:
                    assert event.text_for(viewer) == _other_cards(event).text_for(viewer)
                    told += 1
    assert told > 50


def test_the_owner_reads_their_own_cards_and_the_others_a_count() -> None:
    steps = _played(2, seed=1)
    draws = [e for s in steps for e in s.events if e.kind == "draw" and e.args[2]]
    event = draws[0]
    cards, holder, kinds = event.args
    mine = event.text_for(holder)
    theirs = event.text_for(1 - holder)
    assert mine is not None and theirs is not None
    assert all(cards.foods[k].text in mine for k in kinds) or "unforeseen" in mine
    assert str(len(kinds)) in theirs


@pytest.mark.rule("SW-E.11")
def test_a_ninja_steal_is_told_in_full_to_thief_and_victim_only() -> None:
    from kafeneio.games.souvlaki import events as words

    cards = GAME.cards
    event = Event(("take", (cards, 1, 0, 2), words.took))
    card = cards.foods[2].text
    assert card in (event.text_for(0) or "") and card in (event.text_for(1) or "")
    assert card not in (event.text_for(2) or "") and "a food card" in (event.text_for(2) or "")
    assert "a food card" in (event.text_for(SPECTATOR) or "")
    # each in their own person: the thief reads "You steal", the victim "from your hand"
    assert (event.text_for(0) or "").startswith(f"You steal {card} from P2's hand")
    assert (event.text_for(1) or "").startswith(f"P1 steals {card} from your hand")


def test_why_the_game_ended_and_who_won_are_told() -> None:
    last = _played(3, seed=5)[-1]
    texts = [e.text_for(SPECTATOR) for e in last.events]
    assert any(t and t.startswith("The game ends") for t in texts)
    assert any(t and ("wins" in t or "share the win" in t) for t in texts)


def test_a_move_reads_in_words_with_the_customers_it_reaches() -> None:
    """Hints and analyses name a move by what it does: the customer drafted, served or sent
    away, the foods of a card, the customer an unforeseen card is played on."""
    state = position(
        queues=[["SF 1/2", {"card": "GG 3/2", "phone": True}], ["SD 2/1"]],
        food_hands=[["GF", "S"], []],
        unforeseen_hands=[["generous-tip"], []],
        reputation=[10, 5],  # P1 first
    )
    words = {a.notation: state.action_words(a) for a in state.legal_actions()}
    assert words["play GF"] == "play pita gyros + fries into the pool"
    assert words["send 2"] == "send away customer 2, 2 pita gyros (3 money, 2 influence)"
    assert words["finish"] == "end the service"
    state.apply(state.parse_legal("play GF"))
    state.apply(state.parse_legal("play S"))  # the pool covers the first order: SF
    serve = state.action_words(state.parse_legal("serve"))
    assert serve == "serve souvlaki + fries (1 money, 2 influence)"
    state = position(phase="customers", customers_top=["SF 1/2", "GGF 4/1", "SD 2/1"])
    words = {a.notation: state.action_words(a) for a in state.legal_actions()}
    assert words["pick 2"] == "draft 2 pita gyros + fries (4 money, 1 influence) from slot 2"


def test_an_unforeseen_card_reads_with_its_target() -> None:
    state = position(
        phase="unforeseen",
        queues=[["SF 1/2"], ["SD 2/1"]],
        unforeseen_hands=[["generous-tip", "dirty-shop"], []],
        reputation=[10, 5],
    )
    words = {a.notation: state.action_words(a) for a in state.legal_actions()}
    assert words["use generous-tip p2.1"] == (
        "play Generous Tip on P2's customer 1, souvlaki + soft drink (2 money, 1 influence)"
    )
    assert words["use dirty-shop p2"] == "play Dirty Shop on P2"
    assert words["pass"] == "play no unforeseen card"


def test_an_illegal_move_has_no_words() -> None:
    state = position(queues=[["SF 1/2"], []], food_hands=[["GF"], []], reputation=[10, 5])
    with pytest.raises(IllegalActionError):
        state.action_words(GAME.parse_action("send 3"))


def test_an_unforeseen_card_played_says_on_whom_in_words() -> None:
    state = position(
        phase="unforeseen",
        queues=[["SF 1/2"], ["SD 2/1"]],
        unforeseen_hands=[["generous-tip"], []],
        reputation=[10, 5],
    )
    events = state.apply(state.parse_legal("use generous-tip p2.1"))
    told = [event.text_for(SPECTATOR) for event in events]
    assert (
        "P1 plays the unforeseen Generous Tip on P2's customer 1, souvlaki + soft drink "
        "(2 money, 1 influence) (SW-E.5)"
    ) in told


def test_a_chance_outcome_in_the_history_is_named_to_nobody() -> None:
    """The food card chance took is told in the events to those who may know it; the history's
    own line for the outcome says only what it was, a random food card, to every viewer."""
    for seed in range(40):
        state = GAME.new_state(3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        chances = [e for e in state.history_for(SPECTATOR) if e.player == CHANCE]
        if chances:
            assert {e.action for e in chances} == {"a random food card"}
            return
    raise AssertionError("no game of 40 had a chance outcome")


@pytest.mark.rule("SW-4.9")
def test_a_loss_of_reputation_is_told_as_taken_never_below_zero() -> None:
    """Sending away costs 5 reputation (SW-4.6), but a shop with 3 loses 3 (SW-4.9): the log
    said -5 where the shop went from 3 to 0."""
    state = position(queues=[["SF 1/2"], []], food_hands=[["GF"], []], reputation=[3, 1])
    events = state.apply(state.parse_legal("send 1"))
    told = [event.text_for(SPECTATOR) or "" for event in events]
    assert any("away: -3 reputation of 5 (it stops at 0) (SW-4.6)" in text for text in told), told
    assert state.reputation(0) == 0
    # at 0 already, a loss takes nothing: said so, not as "+0 reputation", which read as a gain
    state = position(queues=[["SF 1/2"], ["GD 2/1"]], food_hands=[["GF"], []], reputation=[0, 0])
    assert state.reputation(state.current_player()) == 0
    told = [event.text_for(SPECTATOR) or "" for event in state.apply(state.parse_legal("send 1"))]
    assert any("away: reputation stays at 0 (SW-4.6)" in text for text in told), told
    assert not any("+0" in text for text in told)


@pytest.mark.rule("SW-2.6")
def test_phone_orders_dealt_together_are_told_together_each_order_whole() -> None:
    """Six phone orders at a 4-player draft's end took six rows of the terminal's 24, a line
    each: told together they name each player once, every order whole, in lines of 76
    columns (what a decision caused is indented by 4)."""
    runs = [
        step.events
        for step in _played(4, 3)
        if sum(event.kind == "phone" for event in step.events) >= 4
    ]
    assert runs
    for events in runs:
        phones = [event for event in events if event.kind == "phone"]
        text = next(t for t in texts_told(list(events), SPECTATOR) if "Phone orders" in t)
        assert text.startswith("Phone orders: ") and text.endswith(" (SW-2.6)")
        lines = text.split("\n")
        assert max(map(len, lines)) <= 76 and len(lines) < len(phones)
        told = " ".join(text.split())
        for event in phones:
            player, (cards, customer) = event.args
            order = " + ".join(cards.customers[kind].text for kind in customer.cards)
            assert order in told and told.count(f"P{player + 1} ") == 1
        assert "receives" not in told


def _hidden_from(event: Event, viewer: int) -> bool:
    """Whether `event` names cards `viewer` may not see: another's draw, a Ninja's take they
    are not party to (SW-S.4, SW-E.11; Rats discard face up, SW-E.15)."""
    if event.kind == "draw":
        return bool(event.args[1] != viewer)
    if event.kind == "take":
        taker = event.args[2]
        return taker >= 0 and viewer not in event.args[1:3]
    return False


@pytest.mark.rule("SW-S.4")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_texts_told_together_name_no_card_the_viewer_may_not_see(players: int) -> None:
    """Whatever the terminal tells together (a step's events, or a run of one player's steps),
    each viewer's text is the same whatever the cards they may not see: checked by changing
    those cards, not by reading the wording, which a run wording builds for itself."""
    steps = _played(players, 7)
    windows = [
        [event for step in steps[start : start + length] for event in step.events]
        for start in range(len(steps))
        for length in (1, 3)
    ]
    changed_own = 0
    for events in windows:
        for viewer in [SPECTATOR, *range(players)]:
            told = texts_told(events, viewer)
            others = [_other_cards(e) if _hidden_from(e, viewer) else e for e in events]
            assert texts_told(others, viewer) == told, told
            own = [
                _other_cards(e) if e.kind == "draw" and e.args[1] == viewer and e.args[2] else e
                for e in events
            ]
            changed_own += texts_told(own, viewer) != told
    assert changed_own > 50  # the check sees names: a viewer's own cards change their text


def _runs(players: int, seed: int, *kinds: str) -> list[list[Event]]:
    """The events of each step of a seeded heuristic game, where they hold a run of two or more
    events of `kinds` in a row: the runs."""
    found = []
    for step in _played(players, seed):
        run: list[Event] = []
        for event in [*step.events, Event(("", (), None))]:
            if event.kind in kinds:
                run.append(event)
                continue
            if len(run) > 1:
                found.append(run)
            run = []
    return found


def _subject_dropped(text: str) -> str:
    """A text as it follows another of its player's after a semicolon."""
    return text.split(" ", 1)[1] if text.startswith("P") else "you " + text[4:]


@pytest.mark.rule("SW-1.1")
@pytest.mark.rule("SW-1.3")
def test_a_shops_cost_purchase_and_draws_are_told_on_one_line_a_player() -> None:
    """Three rows of a terminal's 24 (``P3 pays the operating cost ...``, ``P3 draws 1 food
    card``, ``P3 draws 1 unforeseen card``), and a purchase followed by the draw it causes
    (``P2 buys supplies for 2: 2 food cards``, ``P2 draws 2 food cards``), told as one line of
    the player's: each card named to its owner, counted to the others."""
    runs = _runs(4, 3, "cost", "buy", "draw")
    assert len(runs) > 20
    joined = 0
    for run in runs:
        for viewer in [SPECTATOR, 0, 1, 2, 3]:
            (text,) = texts_told(run, viewer)
            players = {event.args[1 if event.kind == "draw" else 0] for event in run}
            assert len(text.split("\n")) == len(players)  # a line a player
            for event in run:
                words = event.text_for(viewer) or ""
                if event.kind == "buy":  # `buys supplies for 2: draws 2 food cards (SW-1.3)`
                    assert f"buys supplies for {event.args[1]}" in text
                elif event.kind == "draw" and event.args[2]:
                    cards, player, kinds = event.args
                    unforeseen = "unforeseen" in words
                    if viewer == player:  # the owner reads every card's name
                        deck = cards.unforeseen if unforeseen else cards.foods
                        names = [getattr(deck[k], "name" if unforeseen else "text") for k in kinds]
                        assert all(name in text for name in names), (words, text)
                    else:  # the others, how many
                        what = "unforeseen card" if unforeseen else "food card"
                        assert f"{len(kinds)} {what}" in text, (words, text)
                else:
                    assert _subject_dropped(words) in text or words in text, (words, text)
        joined += len(run) - len(texts_told(run, SPECTATOR)[0].split("\n"))
    assert joined > 30
    spectator = " ".join(" ".join(texts_told(run, SPECTATOR)) for run in runs)
    assert "(SW-1.1); draws 1 food card and 1 unforeseen card" in spectator
    assert "buys supplies for 2: draws 2 food cards (SW-1.3)" in spectator
    assert ": 2 food cards (SW-1.3)" not in spectator  # the purchase not told twice


@pytest.mark.rule("SW-4.7")
@pytest.mark.rule("SW-4.8")
def test_the_customers_a_rounds_end_annoys_or_loses_are_told_together_by_player() -> None:
    """Nine lines of ``... in P3's queue was not served and is annoyed`` at a 4-player round's
    end: told together, each player named once, each customer whole, with what a walk-out
    cost, in lines of 76 columns."""
    annoyed = _runs(4, 1, "annoyed")
    left = _runs(4, 3, "leave") + _runs(4, 1, "leave") + _runs(4, 2, "leave")
    assert annoyed and left
    for run, label, rule in [(r, "Not served, annoyed: ", "SW-4.7") for r in annoyed] + [
        (r, "Walk out annoyed, reputation lost: ", "SW-4.8") for r in left
    ]:
        (text,) = texts_told(run, SPECTATOR)
        assert text.startswith(label) and text.endswith(f" ({rule})")
        lines = text.split("\n")
        assert max(map(len, lines)) <= 76 and len(lines) < len(run)
        told = " ".join(text.split())
        for event in run:
            player = event.args[0]
            whole = (event.text_for(SPECTATOR) or "").split(" in P")[0].split(" walks out")[0]
            assert whole in told and told.count(f"P{player + 1} ") == 1
            if event.kind == "leave":  # with what it cost, nothing at 0 (SW-4.9), not "-0"
                taken, rule_cost = event.args[2:]
                cost = f"-{taken}" if taken else "reputation stays at 0"
                if 0 < taken < rule_cost:
                    cost += f" of {rule_cost} (stops at 0)"
                assert f"{whole} {cost}" in told
    # the same walk-outs from shops at 0 reputation already: they lose none
    at_zero = [Event((e.kind, (*e.args[:2], 0, e.args[3]), e.words)) for e in left[0]]
    (text,) = texts_told(at_zero, SPECTATOR)
    assert " -0" not in text and text.count("reputation stays at 0") == len(at_zero)
    # a walk-out that the floor cut short says the rule's cost too: "-1" read as a rule misread
    first = left[0][0]
    short = Event((first.kind, (*first.args[:2], 1, 4), first.words))
    assert "annoyed: -1 reputation of 4 (it stops at 0) (SW-4.8)" in str(short.text_for(SPECTATOR))
    (text,) = texts_told([short, short], SPECTATOR)  # a run of them: told together
    assert text.count(" -1 of 4 (stops at 0)") == 2


@pytest.mark.rule("SW-4.2")
@pytest.mark.rule("SW-4.3")
def test_a_service_is_told_on_one_line_a_player_in_the_order_done() -> None:
    """Cards played and customers served (a row each in a bot's service) told as one line of
    the player's: the cards of a row of plays after one ``plays``, every customer whole with
    what it paid, the rules at the end."""
    runs = []
    queues, hands = [["SF 1/2", "GD 2/1"]] * 2, [["SF", "GD"]] * 2
    state = position(queues=queues, food_hands=hands)
    events: list[Event] = []
    for move in ("play SF", "serve", "play GD", "serve"):
        events += state.apply(state.parse_legal(move))
    runs.append(events)
    (text,) = texts_told(events, SPECTATOR)
    mover = events[0].args[1] + 1
    assert text == (
        f"P{mover} plays SF; serves SF 1/2: +1 money, +2 reputation; plays GD; serves GD 2/1: "
        "+2 money, +1 reputation (SW-4.2, SW-4.3)"
    )
    two = [events[0], Event(("play", (events[0].args[0], events[0].args[1], 2), events[0].words))]
    (text,) = texts_told(two, SPECTATOR)
    assert text.startswith(f"P{mover} plays SF, ") and text.endswith(" (SW-4.2)")


@pytest.mark.rule("SW-E.15")
def test_rats_name_the_card_they_discard_to_everyone_as_the_discard_pile_shows_it() -> None:
    from kafeneio.games.souvlaki import events as words

    cards = GAME.cards
    event = Event(("take", (cards, 1, -1, 2), words.took))
    card = cards.foods[2].text
    for viewer in (SPECTATOR, 0, 1, 2):
        assert f"Rats take {card} from" in (event.text_for(viewer) or "")
    assert event.text_for(1) == f"Rats take {card} from your hand (SW-E.15)"


def test_a_card_of_one_s_own_that_names_no_rule_of_the_book_cites_sw_3_1(tmp_path: Path) -> None:
    """A card played cites its own rule (SW-E.5 says what Generous Tip does); a card file of
    one's own may give `rule` any text ("house rule 2"), which the log then cited as a rule."""
    from importlib import resources

    from kafeneio.games.souvlaki import SouvlakiGame

    shipped = resources.files("kafeneio.games.souvlaki").joinpath("cards", "unforeseen.toml")
    text = shipped.read_text(encoding="utf-8")
    start = text.index('id = "generous-tip"')
    rule_at = text.index('rule = "SW-E.5"', start)
    (tmp_path / "unforeseen.toml").write_text(
        text[:rule_at] + 'rule = "house rule 2"' + text[rule_at + len('rule = "SW-E.5"') :],
        encoding="utf-8",
    )
    own = SouvlakiGame(cards_dir=str(tmp_path))
    state = position(
        phase="unforeseen",
        queues=[["SF 1/2"], ["SD 2/1"]],
        unforeseen_hands=[["generous-tip"], []],
        reputation=[10, 5],
        game=own,
    )
    events = state.apply(state.parse_legal("use generous-tip p2.1"))
    told = [event.text_for(SPECTATOR) for event in events]
    assert any(line.startswith("P1 plays the unforeseen Generous Tip") for line in told)
    assert any(line.endswith("(2 money, 1 influence) (SW-3.1)") for line in told), told
