"""The prompt's own commands: help with the game's notation, rule ID, hint (issue 9, 7-8)."""

from __future__ import annotations

import json
import random
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kafeneio import cli
from kafeneio.cli import app
from kafeneio.core import CHANCE, SPECTATOR, State, sample_chance
from kafeneio.core.notation import notation_text
from kafeneio.core.rulebook import rulebook_of
from kafeneio.games import get_game, load_record
from kafeneio.games.souvlaki import SouvlakiGame
from kafeneio.games.souvlaki.events import customer_text
from kafeneio.games.souvlaki.state import SouvlakiState
from kafeneio.sim.analysis import Analysis, Budget, hint

runner = CliRunner()


def _session(game: str, typed: str, *options: str) -> str:
    args = ["play", game, "--seats", "human,random", "--seed", "7"]
    result = runner.invoke(app, [*args, *(f"-o{option}" for option in options)], input=typed)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("game", "notation"), [("cafe", "USm@16"), ("souvlaki", "pick 3")])
def test_help_explains_the_notation_of_the_game_being_played(game: str, notation: str) -> None:
    output = _session(game, "help\nquit\n")
    assert notation in output and "rule ID" in output and "hint" in output
    assert ("shop maintenance" in output) == (game == "souvlaki")  # the phases, for Souvlaki
    # plain text: no reStructuredText marks, no codes, no chance outcome nobody types
    assert "``" not in output and "===" not in output and "encoding" not in output
    assert "random GF" not in output
    start = output.index("Notation (")
    assert max(len(line) for line in output[start:].splitlines()[:40]) <= 80  # a terminal's


@pytest.mark.parametrize("game", ["cafe", "souvlaki"])
def test_help_fits_24_rows_and_help_all_and_help_command_tell_the_rest(game: str) -> None:
    """help ran to 27-34 rows, its head off a 24-row screen: it gives the notation and the
    commands' names; help all gives every command with what it does, and the whole notation
    (Souvlaki's round too); help COMMAND what one command does."""
    output = _session(game, "help\nhelp all\nhelp hint\nhelp rule\nhelp nosuch\nquit\n")
    short, full, hint_, rule, unknown = output.split("P1> ")[1:6]
    assert len(short.splitlines()) + 1 <= 24 and max(map(len, short.splitlines())) <= 80
    notation = get_game(game).notation_help()
    assert notation in full and get_game(game).notation_table() in short
    assert ("A round (SW-R.1)" in full) == (game == "souvlaki")
    assert "A round" not in short
    for name, text in cli.COMMANDS.items():
        assert name in short
        assert f"  {name}" in full and text.split()[-1] in full
    assert hint_.strip() == f"hint: {cli.COMMANDS['hint']}"
    assert rule.splitlines() == [f"rule ID: {cli.COMMANDS['rule ID']}",
                                 f"rule WORDS: {cli.COMMANDS['rule WORDS']}"]  # fmt: skip
    assert "No command or move 'nosuch': the commands are moves," in unknown


def test_help_with_a_move_s_word_says_how_that_move_is_written() -> None:
    """The README's "help COMMAND says what one does" led a newcomer to `help serve`, which was
    refused as no command: a move's word shows its rows of the notation."""
    output = _session("souvlaki", "help serve\nhelp redraw\nquit\n")
    serve, redraw = output.split("P1> ")[1:3]
    assert serve.startswith("serve is a move, written:\nserve ") and "(SW-4.3)" in serve
    assert redraw.startswith("redraw is a move, written:\nkeep, redraw ") and "(SW-S.6)" in redraw
    swap = _session("cafe", "help swap\nquit\n").split("P1> ")[1]
    assert swap.startswith("swap is a move, written:\nswap USf@18 ") and "taking" in swap


def test_a_notation_row_written_over_two_lines_reads_as_one() -> None:
    """The docstring's row for ``draw fewer`` goes on under itself; help broke it after
    "(CI-D.2," and set the rest on a line of its own, as if it were another row."""
    output = _session("cafe", "help\nquit\n", "single_nation_draw=choose")
    row = (
        "draw fewer".ljust(21) + "  after completing single-nation tables, lower the hand "
        "target (CI-D.2, option single_nation_draw=choose); draw full keeps it"
    )
    assert "\n".join(textwrap.wrap(row, 80, subsequent_indent=" " * 23)) in output


@pytest.mark.parametrize(
    ("game", "moves", "options"),
    [
        ("cafe", ["birthday", "dance", "draw fewer"], ["birthday=true", "dance=true",
                                                       "single_nation_draw=choose"]),
        ("souvlaki", ["use queue-jump", "pass "], ["first_game=false"]),
    ],
)  # fmt: skip
def test_help_offers_the_moves_of_variants_only_in_a_game_that_plays_them(
    game: str, moves: list[str], options: list[str]
) -> None:
    """Help listed the birthday, dance and draw choices in a game without those variants, and
    the unforeseen cards' moves in a first game, which has none (SW-S.5)."""
    played = _session(game, "help\nquit\n", *options).split("Notation (")[1]
    assert all(f"\n{move}" in played for move in moves), played
    plain = _session(game, "help\nquit\n", *(["first_game=true"] if game == "souvlaki" else []))
    assert not any(f"\n{move}" in plain.split("Notation (")[1] for move in moves)


def test_log_of_a_game_gone_on_from_a_record_tells_what_came_before(tmp_path: Path) -> None:
    """After --from, log said "Nothing has happened yet" halfway through the game."""
    whole = tmp_path / "whole.json"
    args = ["play", "cafe", "--seats", "heuristic,heuristic", "--seed", "4", "--quiet"]
    assert runner.invoke(app, [*args, "--record", str(whole)]).exit_code == 0
    record = json.loads(whole.read_text())
    record["actions"] = record["actions"][:7]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(record))
    again = ["play", "cafe", "--from", str(cut), "--seats", "human,heuristic"]
    output = runner.invoke(app, again, input="log\nquit\ny\n").output
    log = output.split("P1> ")[1]
    assert log.startswith("Since your last turn began:"), log
    state = load_record(record)
    mine = [e for e in state.history_for(0) if e.player == 0]
    assert f"  P1: {mine[-1].action} — {mine[-1].events[0]}" in " ".join(log.split("\n    "))
    assert "Nothing has happened yet" not in output
    # cut in the middle of P1's turn: their last turn is the one before, the other's after it
    actions = json.loads(whole.read_text())["actions"]
    history = load_record({**record, "actions": actions}).history_for(0)
    cut_at = next(e.ply for e in history[8:] if e.player == 0) + 1  # after a first guest
    record["actions"] = actions[:cut_at]
    mid = load_record(record)
    assert mid.current_player() == 0 and mid.history_for(0)[-1].player == 0  # mid-turn
    cut.write_text(json.dumps(record))
    log = runner.invoke(app, again, input="log\nquit\ny\n").output.split("P1> ")[1]
    told = " ".join(log.split())
    before = [e for e in mid.history_for(0)[:-1] if e.player == 1]
    assert f"P2: {before[-1].action} — " in told, log  # the other's turn before this one
    assert all(len(line) <= 80 for line in log.splitlines())


def test_a_hidden_rows_description_written_on_under_it_is_hidden_with_it() -> None:
    """A hidden row (``random GF``, chance's) whose description goes on under itself: the
    rest joined the row above, whose text grew by a chance outcome nobody types."""
    doc = textwrap.dedent(
        """\
        Notation:

        ==========  ==========
        ``pass``    play nothing
        ``random``  chance: the card drawn,
                    written on under itself
        ``serve``   serve the first customer
        ==========  ==========

        Codes: none.
        """
    )
    assert notation_text(doc, hidden=("random",)).splitlines() == [
        "pass        play nothing",
        "serve       serve the first customer",
    ]


def test_cards_shows_what_the_board_leaves_out_where_a_game_leaves_something_out() -> None:
    """Souvlaki's board no longer repeats what each unforeseen card does, the decks and the
    legend: `cards` tells them, and the commands said at the start and `help` name it."""
    output = _session("souvlaki", "cards\nhelp\nquit\n")
    start, cards = output.split("P1> ")[:2]
    assert "cards," in start.splitlines()[1]  # the commands, said once as the game starts
    assert "Your unforeseen cards:\n  " in cards and "Decks: food " in cards
    assert "Shops (identity cards, SW-0.4):" in cards and "D soft drink" in cards
    assert max(len(line) for line in cards.splitlines()) <= 80
    assert "rule WORDS, quit. help COMMAND" in " ".join(output.split())  # `cards` among them
    # Café's board leaves out who sits at the bar, and the bag's contents (public, CI-S.1)
    cafe = _session("cafe", "cards\nhelp\nquit\n")
    start, cards = cafe.split("P1> ")[:2]
    assert "Bar: nobody yet" in cards and "In the bag (90 cards, order unknown): AFf×" in cards
    # the codes the board and the hands are written in, spelt out once (AF, CU: the screen's)
    legend = " ".join(cards.split("Cards: ")[1].split())
    assert legend.startswith("f lady, m man, J joker;") and "AF Africa" in legend
    assert "CU Cuba" in legend and "US USA" in legend
    assert max(len(line) for line in cards.splitlines()) <= 80
    assert "Or a command: moves, hint, board, log, cards, rule ID" in cafe
    assert "cards," in start.splitlines()[1]


def test_cafe_cards_names_the_bars_guests_seat_by_seat() -> None:
    """The turn screen gives the bar's free seats only (to fit 24 rows): the guests who sit
    there are counted cards, looked up with `cards`."""
    game = get_game("cafe")
    state = game.new_state(2, seed=3)
    rng = random.Random(1)
    while len(state.observation(0)["bar"]) < 3:
        state.apply(rng.choice(state.legal_actions()))
    seated = state.observation(0)["bar"]
    text = game.reference(state, 0)
    assert text.startswith(f"Bar: 1:+1 {seated[0]}  2:+2 {seated[1]}  3:+3 {seated[2]}")
    assert f"In the bag ({state.observation(0)['bag_size']} cards, order unknown)" in text
    assert game.reference(state, 1) == text == game.reference(state, SPECTATOR)  # all public


@pytest.mark.rule("CI-T.2")
def test_rule_prints_the_rule_a_refusal_cites() -> None:
    output = _session("cafe", "rule ci-t.2\nrule XX-9.9\nrule\nquit\n")
    assert "CI-T.2 (" in output
    said = output.split("P1> ")[1]
    assert len(said.splitlines()) > 1 and max(map(len, said.splitlines())) <= 80  # it ran to 200
    assert "XX-9.9" in output  # an unknown id is said to be unknown, not a traceback
    assert "rule ID: what a rule says" in output
    example = output.split("rule ID: what a rule says (rule ", 1)[1].split(")")[0]
    assert "has no rule" not in _session("cafe", f"rule {example}\nquit\n")  # it exists
    missing = "CI-T." + "99"  # (written so, it is no rule's citation: rule_coverage.py)
    unknown = _session("cafe", f"rule {missing}\nquit\n")
    said = unknown.split("P1> ", 2)[1]  # a sentence, its section's ids within 80 columns
    assert f"has no rule '{missing}'; CI-T has CI-T.1, " in " ".join(said.split())
    assert said.rstrip().endswith(".") and all(len(line) <= 80 for line in said.splitlines())


def shown_ids(answer: str) -> list[str]:
    """The ids of the rules `answer` shows, each at the start of a line: ``SW-4.8 (Phase...``."""
    return re.findall(r"^([A-Z]{2}-[\w.]+) \(", answer, re.MULTILINE)


def test_rule_finds_the_rules_that_use_the_words_asked() -> None:
    """What a mark on screen (ANNOYED) or a card an opponent played (Impatient Customer)
    means is looked up by its words: the rules that use them all, in lines of 80 columns,
    those past the first few named."""
    asked = "rule annoyed\nrule impatient-customer\nrule xyzzy\nrule 25 money\nquit\n"
    output = _session("souvlaki", asked)
    annoyed, impatient, unknown, goal = output.split("P1> ")[1:5]
    using = [rule.id for rule in rulebook_of(get_game("souvlaki")) if "annoyed" in rule.text]
    assert len(using) > cli.RULES_SHOWN  # some are shown, the others named
    assert shown_ids(annoyed) == using[: cli.RULES_SHOWN]
    assert annoyed.split("Also: ")[1].startswith(", ".join(using[cli.RULES_SHOWN :]))
    assert max(len(line) for line in annoyed.splitlines()) <= 80
    card = next(kind for kind in SouvlakiGame().cards.unforeseen if kind.id == "impatient-customer")
    assert shown_ids(impatient) == [card.rule]  # that card's own rule, and no other
    assert "No rule of Souvlaki Wars uses the words 'xyzzy'" in unknown
    assert "SW-5.2 (" in goal  # words with a number are words, not an id: the goal's rule


def test_a_rule_that_names_an_option_s_default_gives_this_game_s_value_too() -> None:
    """`rule birthday` said the threshold was 30 in a game set to 2, where the choice had just
    been offered at 2 points."""
    set_to_2 = get_game("cafe", {"birthday": True, "birthday_threshold": 2})
    said = " ".join(cli._rule_text(set_to_2, "CI-V.1").split())
    assert "(option birthday_threshold, 2 in this game; 30 by default)" in said
    assert "(option birthday_threshold, 30)" in " ".join(
        cli._rule_text(get_game("cafe", {"birthday": True}), "birthday").split()
    )


def test_hint_suggests_a_legal_move_from_the_players_own_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a budget of iterations, not of time: a search of 0.05 s on a busy machine looked at too
    # few moves to name three others
    searched = lambda state, seed=0, budget=None: hint(state, seed, Budget(iterations=400))  # noqa: E731
    monkeypatch.setattr(cli, "hint", searched)
    output = _session("cafe", "hint\nquit\n")
    said = "hint: " + output.split("P1> hint: ", 1)[1].split("\nP1> ", 1)[0]
    assert all(len(line) <= 80 for line in said.splitlines())  # it ran to 100 and more
    head, _, rest = said.partition("\n  also considered, less closely:\n")
    line = " ".join(head.split())  # the lines a long hint wraps to, joined
    assert "chance to win" in line and rest
    # each move as typed, then in words: "FRf@25, France lady to chair 25 at FR2", one a line
    suggested = line.split("hint: ", 1)[1].split(",", 1)[0]
    assert " to chair " in line or " to the bar" in line
    also = re.split(r"\n    (?=\S)", "\n" + rest)[1:]  # a wrapped entry goes on 6 spaces in
    named = [entry.split(",")[0] for entry in also]
    assert suggested not in named and len(named) == len(set(named)) == 3
    # each with its chance and its share of the search: "(50%, 4% of the search)"
    shares = [re.search(r"\((\d+)%, (\d+)% of the search\)$", " ".join(e.split())) for e in also]
    assert all(shares) and sum(int(share.group(2)) for share in shares if share) < 100


def test_a_typo_is_not_understood_and_the_closest_legal_moves_are_offered() -> None:
    output = _session("souvlaki", "kep\nxyzzy\nquit\n")  # the mulligan: keep or redraw
    assert "Not understood: 'kep' is not a move" in output and "Did you mean keep?" in output
    assert "Not understood: 'xyzzy'" in output and "Type 'moves' for the legal moves." in output
    assert "Not allowed" not in output  # that is for a move read but against the rules


def test_moves_alike_are_offered_in_the_order_moves_lists_them() -> None:
    """ "pikc" is as like every pick: they were offered as "pick 5 or pick 4 or pick 3", the
    last three backwards."""
    output = " ".join(_session("souvlaki", "keep\npikc\nquit\n").split())
    offered = re.search(r"Did you mean pick (\d) or pick (\d) or pick (\d)\?", output)
    assert offered is not None, output
    slots = [int(slot) for slot in offered.groups()]
    assert slots == sorted(slots) and slots[0] == 1


def test_a_long_refusal_is_broken_at_spaces_within_80_columns() -> None:
    """Both refusals ran to 90 and more columns, and a terminal broke them mid-word ("'moves'
    f" / "or the legal moves"): they are broken at spaces, the rest indented under them."""
    output = _session("cafe", "Jm@99\nswap Jm@16\nquit\n")  # seed 7: P1 holds Jm
    refusals = [part.split("\nP1> ", 1)[0] for part in output.split("P1> ")[1:3]]
    told = [
        "Not understood: '99' is not a chair: chairs are numbered 1 to 68. Did you mean Jm@9 "
        "or Jm@19 or Jm@29?",
        "Not allowed: joker (man) to chair 16 in place of its joker (swap Jm@16): a joker is "
        "exchanged for a guest, not for another joker (CI-M.4)",
    ]
    for refusal, words in zip(refusals, told, strict=True):
        lines = refusal.strip("\n").splitlines()
        assert len(words) > 80 and len(lines) == 2, refusal
        assert all(len(line) <= 80 for line in lines) and lines[1].startswith("  ")
        assert " ".join(refusal.split()) == words


def test_a_card_typed_without_its_target_is_told_the_targets_it_may_take() -> None:
    """``use generous-tip`` was offered the three likest spellings, p2.3, p2.2 and p2.1: only
    the opponent's customers, for a card that pays its server. Every target is listed, folded
    as `moves` folds them; so are the customers ``send`` alone may send away."""
    state = get_game("souvlaki").new_state(2, seed=21)
    rng = random.Random(0)
    told: dict[str, str] = {}
    while not state.is_terminal() and len(told) < 2:
        if state.current_player() != CHANCE:
            legal = [action.notation for action in state.legal_actions()]
            for word in ("use generous-tip", "send"):
                longer = [move for move in legal if move.startswith(f"{word} ")]
                if longer and word not in told:
                    said = cli._close_moves(state, word.upper())  # typed in any case
                    told[word] = said
                    assert "Did you mean" not in said
                    assert said.startswith(f". Legal now: {word} ")  # as written, not typed
                    rest = said.removeprefix(f". Legal now: {word} ").split(", ")
                    assert [f"{word} {target}" for target in rest] == longer
        state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))  # fmt: skip
    assert set(told) == {"use generous-tip", "send"}
    assert "p1.1" in told["use generous-tip"] and "p2.1" in told["use generous-tip"]  # both shops


def test_quit_of_a_game_not_recorded_asks_first_and_no_plays_on() -> None:
    output = _session("cafe", "quit\nn\nquit\ny\n")
    assert output.count(cli.SURE_TO_QUIT.strip()) == 2
    assert output.count("P1> ") == 2 and output.rstrip().endswith("Stopped.")


def test_quit_is_not_asked_again_when_input_ends_or_the_game_is_recorded(
    tmp_path: Path,
) -> None:
    output = _session("cafe", "quit\n")  # the input ends at the question: that quits
    assert cli.SURE_TO_QUIT.strip() in output and output.rstrip().endswith("Stopped.")
    path = tmp_path / "game.json"
    args = ["play", "cafe", "--seed", "7", "--record", str(path)]
    recorded = runner.invoke(app, args, input="quit\n")
    assert recorded.exit_code == 0 and path.exists()
    assert cli.SURE_TO_QUIT.strip() not in recorded.output and "Stopped." in recorded.output


def test_use_of_an_unknown_card_names_the_cards_in_hand_not_all_sixteen() -> None:
    output = _session("souvlaki", "use foo\nquit\n")
    hand = re.search(r"Your (?:food cards: .* \| )?unforeseen: (.*)", output)
    assert hand is not None
    told = f"Not understood: no unforeseen card 'foo'; you hold {hand.group(1)}."
    assert told in " ".join(output.split())  # a long refusal is broken into lines of 80
    held = [card.split(" x")[0] for card in hand.group(1).split(", ")]  # "queue-jump x2"
    kinds = [kind.id for kind in SouvlakiGame().cards.unforeseen]
    assert not any(kind in output for kind in kinds if kind not in held)


@pytest.mark.rule("SW-2.2")
def test_a_pick_past_the_row_names_the_rows_own_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    states: list[State] = []
    rows: list[int] = []
    real_loop = cli._play_loop

    def spy_loop(*args: Any) -> None:
        states.append(args[1])
        real_loop(*args)

    def typist(prompt: str) -> str:
        state = states[0]
        legal = [action.notation for action in state.legal_actions()]
        if not legal[0].startswith("pick"):
            return legal[0]
        if len(rows) == 2:
            raise EOFError  # input ends: the game stops
        rows.append(len(state.observation(0)["row"]))
        return "pick 0" if len(rows) == 1 else f"pick {rows[0] + 1}"

    monkeypatch.setattr(cli, "_play_loop", spy_loop)
    monkeypatch.setattr(cli, "ask", typist)
    output = _session("souvlaki", "")
    slots = f"the row's slots are 1 to {rows[0]} (SW-2.2)"
    assert rows[0] < 9  # the notation's most, which was named whatever the row held
    assert f"Not allowed: pick 0: {slots}" in output
    assert f"Not allowed: pick {rows[0] + 1}: {slots}" in output


def test_a_hint_asked_again_at_the_same_position_is_shown_again_not_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search for time may answer otherwise when asked twice (here: another seed at each
    search): the terminal shows its first answer again, and searches afresh once the position
    has changed."""
    searched: list[int] = []

    def search(state: State, seed: int, budget: Budget) -> Analysis:
        searched.append(state.ply)
        return hint(state, seed=len(searched), budget=Budget(iterations=20))

    monkeypatch.setattr(cli, "hint", search)
    first_move = get_game("cafe").new_state(2, seed=7).legal_actions()[0].notation
    output = _session("cafe", f"hint\nhint\n{first_move}\nhint\nquit\n")
    assert searched == [0, 1]  # a Café turn's first guest, then its second: two positions
    answers = output.split("hint: ")[1:]
    assert len(answers) == 3 and output.count("As before (the same position") == 1
    said = [answer.split("\nP1> ")[0] for answer in answers]
    assert said[1] == said[0] and "As before" in output.split("hint: ")[1]


def _service_with_three_customers(tmp_path: Path) -> Path:
    """A record of a two-player game stopped where P1, serving, may serve a first customer
    and has three: a serve moves the queue up under the numbers P1 read."""
    state = get_game("souvlaki").new_state(2, seed=0)
    assert isinstance(state, SouvlakiState)
    rng = random.Random(0)
    while not (
        state.current_player() == 0
        and len(state.queue(0)) >= 3
        and "serve" in [action.notation for action in state.legal_actions()]
    ):
        assert not state.is_terminal()
        state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))  # fmt: skip
    path = tmp_path / "service.json"
    path.write_text(json.dumps(state.to_record()))
    return path


def test_a_number_read_before_the_queue_moved_up_is_asked_about_before_it_is_played(
    tmp_path: Path,
) -> None:
    """After a ``serve``, ``send 2`` sends away the customer that was third when the player
    read the queue: the terminal names both and plays it only if the player says so, and asks
    no more once they have (they read the numbers as they are)."""
    path = _service_with_three_customers(tmp_path)
    before = load_record(json.loads(path.read_text()))
    assert isinstance(before, SouvlakiState)
    third = before.queue(0)[2]
    args = ["play", "souvlaki", "--from", str(path), "--seats", "human,random"]
    typed = "serve\nsend 2\nn\nsend 2\ny\nquit\ny\n"
    output = runner.invoke(app, args, input=typed).output
    words = " ".join(output.split())
    assert output.count(f"Play send 2{cli.ALL_THE_SAME}") == 2
    assert "send 2 now means customer 2, " in words and "; it meant customer 2, " in words
    assert "Not played: the board shows the numbers as they are now." in output
    sent = re.findall(r"P1 sends (.+?) away", words)
    assert sent == [customer_text(before.cards, third)]  # the first answer, no, sent nobody


def test_a_move_a_hint_named_by_the_numbers_as_they_are_is_played_unasked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint after a ``serve`` said ``send 2`` in the numbers as they are: typed as the hint
    said it, it was asked about as a number read before the queue moved up."""
    searched = lambda state, seed=0, budget=None: hint(state, seed, Budget(iterations=50))  # noqa: E731
    monkeypatch.setattr(cli, "hint", searched)
    path = _service_with_three_customers(tmp_path)
    args = ["play", "souvlaki", "--from", str(path), "--seats", "human,random"]
    output = runner.invoke(app, args, input="serve\nhint\nsend 2\nquit\ny\n").output
    assert cli.ALL_THE_SAME not in output and "P1 sends " in output, output


def test_a_number_that_names_what_it_named_is_played_unasked(tmp_path: Path) -> None:
    path = _service_with_three_customers(tmp_path)
    args = ["play", "souvlaki", "--from", str(path), "--seats", "human,random"]
    output = runner.invoke(app, args, input="send 3\nquit\ny\n").output
    assert cli.ALL_THE_SAME not in output and "P1 sends " in output


def test_a_number_of_a_customer_drafted_since_the_turn_began_is_played_unasked() -> None:
    """P1 picks last in the draft and plays the first unforeseen card at once: the customer
    picked joined P1's queue at its end (3, a phone order), and ``use queue-jump p1.3`` named
    nobody where P1's run of decisions began. It was asked about, "(then: nobody)", though
    nothing had moved up."""
    shops = ["-o", 'shops=["souvlache","thanasis"]']
    args = ["play", "souvlaki", *shops, "--seats", "human,heuristic", "--seed", "6"]
    typed = "keep\npick 1\npick 3\nuse queue-jump p1.3\nquit\ny\n"
    output = runner.invoke(app, args, input=typed).output
    assert cli.ALL_THE_SAME not in output, output
    assert "P1 plays the unforeseen Queue Jump on P1's customer 3" in " ".join(output.split())


@pytest.mark.rule("CI-M.3")
def test_a_move_that_puts_the_player_out_is_marked_asked_about_and_shown_in_the_result() -> None:
    """Nothing on screen said a red bar seat the player cannot pay ends their game: `moves`
    showed it as any other, it was played at once, and the result showed 0 points, unmarked."""
    command = ["play", "cafe", "--seats", "human,random,random", "--seed", "7"]
    red = ["-o", "bar_values=[-3,-3,-3,-3,-3,-3]"]  # with 0 points, every seat is unpaid
    typed = "moves\nCUf@bar\nn\nCUf@bar\ny\n"
    result = runner.invoke(app, [*command, *red], input=typed)
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    assert "CUf@bar (out of the game)" in shown
    asked = "CUf@bar puts you out of the game: you would play no more and cannot win."
    assert shown.count(asked) == 2 and shown.count("Not played.") == 1
    assert "P1 sends CUf to bar seat 1, cannot pay its -3 and is out of the game (CI-M.3)" in shown
    assert re.search(r"│ P1 +│.*│ out +│", result.output)
    paid = runner.invoke(
        app, [*command, "-o", "bar_values=[3,3,3,3,3,3]"], input="moves\nquit\ny\n"
    )
    assert "CUf@bar (+3)" in " ".join(paid.output.split())
    assert "out of the game" not in paid.output


def test_log_tells_again_what_happened_since_the_players_last_turn_began() -> None:
    """The report of the others' moves between two turns (39-59 lines in a 3- or 4-player
    Souvlaki game) scrolled off a 24-row screen, and no command told it again."""
    command = ["play", "souvlaki", "--seats", "human,random,random", "--seed", "21"]
    result = runner.invoke(app, command, input="log\nkeep\nlog\nquit\ny\n")
    assert result.exit_code == 0, result.output
    first = result.output.split("Since the game began:\n")[1]  # P1's first turn: the others'
    second = result.output.split("Since your last turn began:\n")[1]
    assert re.match(r"  P2 \(random\): \w+", first)  # the others' moves before P1's first turn
    told = second.split("\nP1> ")[0]
    assert told.splitlines()[0].strip() == "P1 keeps their food cards (SW-S.6)"  # their own turn
    assert "  P2 (random): " in told and "  P3 (random): " in told  # and what came after it
    assert first.split("\nP1> ")[0].strip() not in told  # before the previous turn: dropped


def test_log_keeps_the_others_moves_when_chance_draws_amid_the_players_turn(
    tmp_path: Path,
) -> None:
    """A Ninja's card, taken at random, then the hand limit's discard: chance's draw amid P1's
    turn began a new one for `log`, which dropped what P2 and P3 did before it."""
    from souvlaki.conftest import position

    state = position(
        3,
        phase="unforeseen",
        reputation=[3, 9, 6],  # P2, P3, then P1
        food_hands=[["G", "S", "F", "D", "GS", "GF", "SF"], ["GD", "SD"], []],
        unforeseen_hands=[["ninja-in-the-kitchen"], [], []],
    )
    start = tmp_path / "start.json"
    start.write_text(json.dumps(state.to_record()))
    command = ["play", "souvlaki", "--from", str(start), "--seats", "human,random,random"]
    typed = "use ninja-in-the-kitchen p2\nlog\nquit\ny\n"
    result = runner.invoke(app, command, input=typed)
    assert result.exit_code == 0, result.output
    assert "over the limit" in result.output  # the discard the stolen card asks for
    told = result.output.split("Since the game began:\n")[1].split("\nP1> ")[0]  # (here)
    assert "P2 (random): pass" in told and "P3 (random): pass" in told, told
    assert "P1 plays the unforeseen Ninja in the Kitchen on P2" in told


def test_rule_of_a_card_of_one_s_own_files_tells_it_as_the_game_plays_it(tmp_path: Path) -> None:
    """A designer set Health Inspection to -5: `rule health-inspection` gave the rulebook's
    "lose 2 reputation" while the games took 5, and a new card's name found no rule at all."""
    from kafeneio.games.souvlaki.cards import export_builtin

    export_builtin(tmp_path)
    cards = tmp_path / "unforeseen.toml"
    text = cards.read_text(encoding="utf-8")
    old = 'effects = [{ do = "reputation", amount = -2 }]'
    assert text.count(old) == 1  # Health Inspection's, as shipped
    cards.write_text(text.replace(old, 'effects = [{ do = "reputation", amount = -5 }]'))
    args = ["play", "souvlaki", "--cards", str(tmp_path), "--seats", "human,random", "--seed", "3"]
    typed = "rule health-inspection\nrule SW-E.12\nquit\ny\n"
    by_words, by_id = runner.invoke(app, args, input=typed).output.split("P1> ")[1:3]
    own = "In this game's card files, Health Inspection (opponent) plays: reputation -5."
    for told in (by_words, by_id):
        assert "SW-E.12" in told and own in " ".join(told.split()), told
    built_in = runner.invoke(
        app, ["play", "souvlaki", "--seats", "human,random", "--seed", "3"], input=typed
    ).output
    assert "In this game's card files" not in built_in
