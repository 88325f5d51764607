"""Rule changes in the middle of play: `rule CHANGE` and `kallisti play FILE --watch`, for any game played alone."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kallisti.cli.play import QUIT, RulesWatcher, read_deal_file, run_session
from kallisti.interpreter.amend import data_key
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.interpreter.save import load_game
from kallisti.model.diff import ruleset_diff
from kallisti.model.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "src" / "kallisti" / "rulesets"
WIN_DEAL = ROOT / "examples" / "forty-thieves-win.deal"
NO_TWOS = 'forbid foundation.build "no twos": card.rank == 2'


@pytest.fixture(scope="module")
def forty():
    return load_ruleset("forty-thieves")


def win_game(rules) -> Game:
    """The committed deal: t1..t8 hold K Q J 10 of one suit, t9/t10 the nines, the stock A..8 of each suit in order."""
    return Game(rules, seed=None, order=read_deal_file(rules.deck, WIN_DEAL))


def session(game, lines, watcher=None) -> tuple[int, list[str]]:
    out: list[str] = []
    code = run_session(game, lines, out.append, watcher=watcher)
    return code, "\n".join(out).splitlines()


def legal(game) -> set[str]:
    return {describe(game, m) for m in game.legal_moves()}


def refusals(out: list[str]) -> list[str]:
    return [line for line in out if line.startswith("refused:")]


# -- `rule CHANGE` -----------------------------------------------------------------------------
# (game, a position set by hand, a move onto a built foundation, the change that forbids it, its clause id)
FORBIDS = [
    ("forty-thieves", {"f1": "AC", "w": "2C", "t1": "KH"}, "w f1", NO_TWOS, "no-twos"),
    ("la-nivernaise", {"a1": "AH", "r1": "2H", "l1": "KS"}, "r1 a1", 'forbid aces.build "no twos": card.rank == 2', "no-twos"),
    ("octave", {"f1": "AD", "t1": "9S 2D", "s": "KC"}, "t1 f1", 'forbid foundation.build "not from the tableau": source in tableau',
     "not-from-the-tableau"),
]


@pytest.mark.parametrize("name,layout,move,change,clause", FORBIDS, ids=[f[0] for f in FORBIDS])
def test_a_forbid_refuses_a_legal_move_from_the_next_move_naming_its_clause(name, layout, move, change, clause):
    game = Game(load_ruleset(name), seed=1).arrange(layout)
    assert move in legal(game)
    code, out = session(game, [f"rule {change}", move])
    assert code == QUIT
    assert f"rule changed, from the next move: {change}" in out
    assert any(line.strip().startswith("+ piles.") and clause in line for line in out)  # the diff names the clause
    [refused] = refusals(out)
    assert f"clause {clause}" in refused
    assert move not in legal(game)
    assert game.moves_made == 0


def test_a_change_that_leaves_the_game_unwinnable_is_made_with_a_note(forty):
    # A ruleset file that cannot be won is an error; in play, a change may do it on purpose.
    code, out = session(Game(forty, seed=1), [f"rule {NO_TWOS}"])
    assert code == QUIT
    assert f"rule changed, from the next move: {NO_TWOS}" in out
    assert any(line.startswith("note: the game can no longer be won: no rule lets the 2♣") for line in out), out
    code, out = session(Game(forty, seed=1), ['rule forbid foundation.build "no kings": card.rank == last and top.rank < 5'])
    assert not any(line.startswith("note:") for line in out)


def test_a_forbid_is_never_retroactive(forty):
    game = win_game(forty)
    code, out = session(game, ["d", "w f1", "d", "w f1", f"rule {NO_TWOS}", "d", "w f1", "d", "w f1"])
    f1 = game.state.piles[forty.pile_of_tag["f1"]]
    # the two placed before the change stays, and the three and four go on it: only a two is forbidden
    assert [forty.deck.ascii_name(c) for c in f1] == ["AC", "2C", "3C", "4C"]
    assert refusals(out) == []


BAD_CHANGES = [  # (change, where its finding points, the finding's code)
    ("forbid foundation.build x: card.color = red", "= red", "change-syntax"),
    ("set tableux.count 12", "tableux", "unknown-path"),
    ('forbid foundation.build "no kings": card.rank == KK', "KK", None),
    ("set tableau.count 10", "set", "change-nothing"),
]


@pytest.mark.parametrize("change,at,code", BAD_CHANGES, ids=[b[0] for b in BAD_CHANGES])
def test_a_bad_change_is_reported_at_its_column_and_changes_nothing(forty, tmp_path, change, at, code):
    game = win_game(forty)
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    session(game, ["d", "w f1", "d", f"save {before}"])
    moves, rules = legal(game), game.rules
    _, out = session(game, [f"rule {change}", f"save {after}"])
    assert "change refused; the rules stay as they were:" in out
    column = change.index(at) + 1
    [finding] = [line for line in out if "<change>:" in line]
    assert finding.strip().startswith(f"<change>:1:{column}: error")
    if code is not None:
        assert f"error {code}" in finding
    assert after.read_bytes() == before.read_bytes()  # nothing of the game, its log or its rules moved
    assert legal(game) == moves and game.rules is rules
    _, out = session(game, ["u"])
    assert "undone" in out and "undone: the rule change" not in out  # undo takes back the last move: no change was made


def test_undo_restores_the_old_rules_and_redo_applies_the_change_again(forty):
    game = win_game(forty)
    code, out = session(game, ["d", "w f1", "d", f"rule {NO_TWOS}", "w f1"])
    assert len(refusals(out)) == 1
    code, out = session(game, ["u"])
    assert "undone: the rule change" in out
    assert any(line.strip() == "- piles.foundation.build no-twos: forbid card.rank == 2  (has the rule \"no twos\")" for line in out)
    assert "w f1" in legal(game) and game.rules is forty  # the rules the deal began with
    assert game.moves_made == 3 and len(game.state.piles[forty.pile_of_tag["w"]]) == 1  # the moves stay made
    code, out = session(game, ["r", "w f1"])
    assert "redone: the rule change" in out
    assert any(line.strip().startswith("+ piles.foundation.build no-twos") for line in out)
    assert "clause no-twos" in refusals(out)[0]
    code, out = session(game, ["u", "u", "w f1", "u", "w f1"])  # the change, the deal, then the ace: in order
    assert refusals(out) == ["refused: w is empty"]
    assert game.moves_made == 2 and game.rules is forty
    assert [forty.deck.ascii_name(c) for c in game.state.piles[forty.pile_of_tag["f1"]]] == ["AC"]


def test_a_new_move_after_an_undone_change_leaves_nothing_to_redo(forty):
    game = win_game(forty)
    code, out = session(game, ["d", "w f1", "d", f"rule {NO_TWOS}", "u", "w f1", "r"])
    assert out[-2] == "nothing to redo"
    assert game.rules is forty and len(game.state.piles[forty.pile_of_tag["f1"]]) == 2


LAYOUTS = [  # (game, the change, the group it grows, its new pile count)
    ("forty-thieves", "set tableau.count 12", "tableau", 12),
    ("octave", "set reserve.count 10", "reserve", 10),
]


@pytest.mark.parametrize("name,change,group,count", LAYOUTS, ids=[lay[0] for lay in LAYOUTS])
def test_a_layout_change_takes_effect_from_the_next_deal(name, change, group, count):
    rules = load_ruleset(name)
    game = Game(rules, seed=4)
    start, moves = game.state.key(), legal(game)
    out: list[str] = []
    lines = iter([f"rule {change}", "table", "new 9"])
    seen = {}

    def script():
        yield next(lines)
        yield next(lines)
        seen["moves"] = legal(game)  # the table in play keeps its piles until the next deal
        yield next(lines)

    run_session(game, script(), out.append)
    assert "this changes the deck or the piles: it takes effect from the next deal (`new` deals again)" in out
    old = len(rules.groups[group].piles)
    assert f"   ~ piles.{group}.count: {old} -> {count}" in out
    assert game.state.key() == start and seen["moves"] == moves and game.rules is rules
    assert f"{rules.name}, deal 9" in out
    dealt = load_ruleset(name)
    tag = rules.groups[group].tag
    assert any(line.startswith(f"{tag}{count} ") for line in out[out.index(f"{rules.name}, deal 9"):])
    assert not any(line.startswith(f"{tag}{count} ") for line in out[:out.index(f"{rules.name}, deal 9")])
    assert len(dealt.groups[group].piles) == old  # the shipped rules are untouched


def test_undo_takes_back_a_change_waiting_for_the_next_deal(forty):
    code, out = session(win_game(forty), ["rule set tableau.count 12", "u", "new 9"])
    assert "undone: the change waiting for the next deal" in out
    assert "   ~ piles.tableau.count: 12 -> 10" in out
    assert not any(line.startswith("t11 ") for line in out)
    code, out = session(win_game(forty), ["d", "rule set tableau.count 12", "u", "r", "new 9"])
    assert "redone: the change waits for the next deal again" in out
    assert any(line.startswith("t12 ") for line in out)
    game = win_game(forty)
    code, out = session(game, ["d", "rule set tableau.count 12", "d", "u", "new 9"])
    assert game.moves_made == 1  # once the game moved on, undo takes back the move, and the change still waits
    assert any(line.startswith("t12 ") for line in out)


def test_undo_and_redo_walk_a_waiting_change_and_the_moves_around_it_in_order(forty):
    """Undo takes back the deal made after a waiting change, then the change; redo makes them again in reverse order,
    the change included (undo and redo log events of their own, so they must not lose the change's place)."""
    game = win_game(forty)
    lines = ["d", "rule set tableau.count 12", "d", "u", "u", "u", "r", "r", "r", "r"]
    seen = {}

    def script():
        yield from lines
        seen["moves"] = game.moves_made
        yield "new 9"

    out: list[str] = []
    run_session(game, script(), out.append)
    said = [line for line in out if line.startswith(("undone", "redone", "nothing to redo"))]
    assert said == ["undone", "undone: the change waiting for the next deal", "undone",
                    "redone", "redone: the change waits for the next deal again", "redone", "nothing to redo"]
    assert seen["moves"] == 2
    assert any(line.startswith("t12 ") for line in out)  # the change was redone: the next deal has 12 columns


def test_redo_of_a_waiting_change_is_lost_to_a_new_move(forty):
    game = win_game(forty)
    code, out = session(game, ["d", "rule set tableau.count 12", "u", "u", "d", "u", "r", "r", "new 9"])
    said = [line for line in out if line.startswith(("undone", "redone", "nothing to redo"))]
    assert said[-2:] == ["redone", "nothing to redo"]
    assert any(line.startswith("t10 ") for line in out) and not any(line.startswith("t11 ") for line in out)


# -- saves -------------------------------------------------------------------------------------
def test_a_save_after_rule_changes_loads_to_the_same_position_and_rules(forty, tmp_path):
    save = tmp_path / "game.json"
    game = win_game(forty)
    lines = ["d", "w f1", f"rule {NO_TWOS}", "d", 'rule forbid tableau.build "no tens": card.rank == 10', "u", "r",
             "t9 t3", 'rule forbid foundation.build "no sevens": card.rank == 7', "u", f"save {save}"]
    code, out = session(game, lines)
    assert f"saved to {save}" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # written atomically: no temporary file left
    loaded = load_game(save)
    assert loaded.state.key() == game.state.key()
    assert data_key(loaded.rules.data) == data_key(game.rules.data)
    assert loaded.events == game.events and loaded.moves_made == game.moves_made
    assert legal(loaded) == legal(game)
    assert not any(c.get("id") == "no-sevens" for c in loaded.rules.data["piles"]["foundation"]["build"])
    assert any(c.get("id") == "no-tens" for c in loaded.rules.data["piles"]["tableau"]["build"])
    # undo in the loaded game steps back over the same history: the move, then the tens rule
    assert loaded.undo() and loaded.undo()
    assert not any(c.get("id") == "no-tens" for c in loaded.rules.data["piles"]["tableau"]["build"])
    # and the `load` command puts the session back where the save was, its rules with it
    other = win_game(forty)
    code, out = session(other, ["d", f"load {save}", "w f1"])
    assert any(line.startswith(f"loaded {save}: ") for line in out)
    assert "clause no-twos" in refusals(out)[0]


def test_a_save_keeps_a_change_waiting_for_the_next_deal(forty, tmp_path):
    save = tmp_path / "game.json"
    code, out = session(win_game(forty), ["d", "rule set tableau.count 12", f"save {save}"])
    assert load_game(save).P == win_game(forty).P  # the table as it was
    out = []
    run_session(win_game(forty), [f"load {save}", "new 3"], out.append)
    assert any(line.startswith("t12 ") for line in out)


# -- `--watch` -----------------------------------------------------------------------------------
@pytest.fixture
def watched(tmp_path):
    """A copy of Forty Thieves to edit while it is played."""
    path = tmp_path / "forty.yaml"
    shutil.copy(RULESETS / "forty-thieves.yaml", path)
    return path


def edited(path: Path, commands):
    """A script of commands where an item `(old, new)` rewrites the watched file before the next command."""
    text = path.read_text(encoding="utf-8")
    for item in commands:
        if isinstance(item, tuple):
            old, new = item
            assert old in text
            text = text.replace(old, new)
            path.write_text(text, encoding="utf-8")
        else:
            yield item


def test_a_valid_edit_takes_effect_from_the_next_move_with_its_diff(watched):
    path = watched
    rules = load_ruleset(path)
    game = win_game(rules)
    # 10♠ (t4) on 9♠ (t10) builds up in suit: refused, then allowed once the file says up or down
    script = edited(path, ["t4 t10", ("build: down in suit", "build: up or down in suit"), "t4 t10"])
    code, out = session(game, script, RulesWatcher(path, rules))
    assert len(refusals(out)) == 1
    assert f"{path} reloaded: the new rules apply from the next move" in out
    diff = out[out.index(f"{path} reloaded: the new rules apply from the next move") + 1:][:2]
    assert diff == ["   - piles.tableau.build rank-down: require card.rank == top.rank - 1  (builds down)",
                    "   + piles.tableau.build rank-up-or-down: require card.rank == top.rank + 1 or card.rank == "
                    "top.rank - 1  (builds up or down)"]
    assert "10♠ from t4 to t10" in out
    assert game.events[0]["type"] == "rules" and game.moves_made == 1
    code, out = session(game, ["u", "u", "t4 t10"])  # undo steps back over the move, then over the reload
    assert "undone: the rule change" in out and len(refusals(out)) == 1


def test_an_invalid_edit_is_reported_at_file_line_column_and_play_goes_on(watched):
    path = watched
    rules = load_ruleset(path)
    game = win_game(rules)
    bad = "win: foundation.size == deck.size +"
    script = edited(path, ["d", ("win: foundation.size == deck.size", bad), "w f1", "t4 t10"])
    code, out = session(game, script, RulesWatcher(path, rules))
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text == bad)
    assert f"{path} changed but cannot be used; play goes on under the old rules:" in out
    assert any(text.strip().startswith(f"{path}:{line}:{len(bad) + 1}: error expr-syntax") for text in out)
    assert game.rules is rules and game.moves_made == 2  # the ace went up under the old rules
    assert "clause rank-down" in refusals(out)[0]  # and the old build rule still holds
    assert all(ev["type"] == "move" for ev in game.events)


def test_an_edit_back_to_the_rules_in_play_changes_nothing(watched):
    path = watched
    rules = load_ruleset(path)
    game = win_game(rules)
    script = edited(path, ["d", ("win: foundation.size == deck.size", "win: foundation.size == deck.size +"), "d",
                           ("win: foundation.size == deck.size +", "win: foundation.size == deck.size  # fixed"), "d"])
    code, out = session(game, script, RulesWatcher(path, rules))
    assert f"{path} reloaded: no rule changed" in out
    assert game.rules is rules and [ev["type"] for ev in game.events] == ["move"] * 3


def test_a_layout_edit_waits_for_the_next_deal_and_an_edit_back_cancels_it(watched, tmp_path):
    path = watched
    rules = load_ruleset(path)
    script = edited(path, ["d", ("    count: 10\n", "    count: 12\n"), "d", f"save {tmp_path / 'waiting.json'}",
                           ("    count: 12\n", "    count: 10\n"), "new 3"])
    game = win_game(rules)
    code, out = session(game, script, RulesWatcher(path, rules))
    assert any(line.startswith(f"{path} reloaded: it changes the deck or the piles") for line in out)
    assert "   ~ piles.tableau.count: 10 -> 12" in out
    assert f"{path} reloaded: it says the rules in play; nothing waits for the next deal any more" in out
    assert game.moves_made == 2  # the table in play kept its piles
    dealt = out[out.index("Forty Thieves, deal 3"):]
    assert any(line.startswith("t10 ") for line in dealt) and not any(line.startswith("t11 ") for line in dealt)
    out = []
    run_session(win_game(rules), [f"load {tmp_path / 'waiting.json'}", "new 3"], out.append)
    assert any(line.startswith("t12 ") for line in out[out.index("Forty Thieves, deal 3"):])


UP_OR_DOWN = ["   - piles.tableau.build rank-down: require card.rank == top.rank - 1  (builds down)",
              "   + piles.tableau.build rank-up-or-down: require card.rank == top.rank + 1 or card.rank == "
              "top.rank - 1  (builds up or down)"]


def test_an_edit_of_rules_alone_applies_at_once_while_an_earlier_layout_edit_waits(watched, tmp_path):
    path = watched
    rules = load_ruleset(path)
    game = win_game(rules)
    save = tmp_path / "waiting.json"
    script = edited(path, ["d", ("    count: 10\n", "    count: 12\n"), "t4 t10",
                           ("build: down in suit", "build: up or down in suit"), "t4 t10", f"save {save}", "new 3"])
    code, out = session(game, script, RulesWatcher(path, rules))
    # the layout edit waits, and the build rule still holds: 10♠ cannot go on 9♠
    assert any(line.startswith(f"{path} reloaded: it changes the deck or the piles") for line in out)
    assert len(refusals(out)) == 1 and "clause rank-down" in refusals(out)[0]
    # the later edit of a rule alone applies from the next move; the layout edit still waits, and is shown with it
    now = out.index(f"{path} reloaded: the new rules apply from the next move")
    assert out[now + 1:now + 3] == UP_OR_DOWN
    assert out[now + 3:now + 5] == [f"{path} also changes the deck or the piles: they take effect from the next deal "
                                    "(`new` deals again)", "   ~ piles.tableau.count: 10 -> 12"]
    assert "10♠ from t4 to t10" in out and game.moves_made == 2  # on the ten piles of the table in play
    assert [ev["type"] for ev in game.events] == ["move", "rules", "move"]
    dealt = out[out.index("Forty Thieves, deal 3"):]
    assert any(line.startswith("t12 ") for line in dealt)  # the next deal has the new layout
    loaded, waiting = load_game(save, with_next_deal=True)
    # the save keeps both: the rules in play on ten piles, and the whole file waiting for the next deal
    assert len(loaded.rules.groups["tableau"].piles) == 10
    assert [c["id"] for c in loaded.rules.data["piles"]["tableau"]["build"]] == ["rank-up-or-down", "same-suit"]
    assert [ev["type"] for ev in waiting] == ["rules"]
    assert data_key(waiting[0]["resolved"]) == data_key(load_ruleset(path).data)


def test_an_edit_of_the_layout_and_a_rule_at_once_applies_the_rule_now_and_the_layout_at_the_next_deal(watched):
    path = watched
    rules = load_ruleset(path)
    game = win_game(rules)
    script = edited(path, ["d", ("    count: 10\n", "    count: 12\n"), ("build: down in suit", "build: up or down in suit"),
                           "t4 t10", "u", "u", "u", "t4 t10"])
    code, out = session(game, script, RulesWatcher(path, rules))
    now = out.index(f"{path} reloaded: the new rules apply from the next move")
    assert out[now + 1:now + 5] == UP_OR_DOWN + [f"{path} also changes the deck or the piles: they take effect from the "
                                                 "next deal (`new` deals again)", "   ~ piles.tableau.count: 10 -> 12"]
    assert "10♠ from t4 to t10" in out
    # undo takes back the move, then the layout waiting for the next deal, then the edit's rules
    undone = [line for line in out if line.startswith("undone")]
    assert undone == ["undone", "undone: the change waiting for the next deal", "undone: the rule change"]
    assert len(refusals(out)) == 1 and "clause rank-down" in refusals(out)[0]
    assert game.rules is rules


# -- the diff --------------------------------------------------------------------------------------
def test_the_diff_names_what_changed(forty):
    from kallisti.interpreter import amend

    def diff(change):
        return ruleset_diff(forty.data, amend.amend(forty.data, change, trial=False).data)

    assert diff("set tableau.count 12") == ["~ piles.tableau.count: 10 -> 12"]
    assert diff(NO_TWOS) == ["+ piles.foundation.build no-twos: forbid card.rank == 2  (has the rule \"no twos\")"]
    assert diff("remove tableau.build same-suit") == ["- piles.tableau.build same-suit: require card.suit == top.suit  (builds in suit)"]
    # a clause that now comes from another macro but says the same is no difference; what changed is named
    assert diff("set tableau.build down alternate colour") == [
        "- piles.tableau.build same-suit: require card.suit == top.suit  (builds in suit)",
        "+ piles.tableau.build alternate-colour: require card.color != top.color  (builds in alternate colours)"]
    # a changed automatic move shows the field that changed, not the whole clause twice
    data = amend.apply_all(forty.data, [])
    data["auto"][0]["trigger"] = "each-move"
    assert ruleset_diff(forty.data, data) == ["~ auto aces-up.trigger: on-request -> each-move"]
    assert ruleset_diff(forty.data, forty.data) == []


# -- a real process ---------------------------------------------------------------------------------
class Player:
    """`kallisti play` in a real process, fed one command at a time through its standard input."""

    SYNC = "rule needs a change"  # what a bare `rule` answers: a harmless command that marks the end of an answer

    def __init__(self, *args: str):
        env = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "kallisti", "play", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env,
                                     text=True, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, command: str) -> list[str]:
        """Every line the command printed (the process polls the watched file before it)."""
        self.proc.stdin.write(f"{command}\nrule\n")
        self.proc.stdin.flush()
        answer = []
        while True:
            line = self.lines.get(timeout=120)  # a guard against a hung process, not a speed budget
            assert line is not None, f"the process ended: {answer}"
            if line.startswith(self.SYNC):
                return answer
            answer.append(line)

    def close(self) -> tuple[int, str]:
        self.proc.stdin.write("q\n")
        self.proc.stdin.close()
        code = self.proc.wait(timeout=120)
        return code, self.proc.stderr.read()


def test_watch_in_a_real_process_reloads_an_edited_rules_file(tmp_path):
    # Maria, in kallisti's own syntax: built down in alternate colours; the edit makes it build down in suit.
    path = tmp_path / "maria.rules"
    shutil.copy(RULESETS / "maria.rules", path)
    original = path.read_text(encoding="utf-8")
    old_line = "tableau: 9 piles, build down alternate colour"
    edited_text = original.replace(old_line, "tableau: 9 piles, build down in suit")
    before = load_ruleset(path)
    after = load_ruleset(tmp_path / "maria-in-suit.rules", edited_text)
    seed, move = next((s, m) for s in range(1, 200) for m in [_only_in_suit(before, after, s)] if m)
    player = Player(str(path), "--watch", "--seed", str(seed))
    try:
        assert any(line.startswith("refused:") for line in player.send(move))
        path.write_text(edited_text, encoding="utf-8")
        answer = player.send(move)
        assert f"{path} reloaded: the new rules apply from the next move" in answer
        assert "   + piles.tableau.build same-suit: require card.suit == top.suit  (builds in suit)" in answer
        assert not any(line.startswith("refused:") for line in answer)
        path.write_text(edited_text.replace("build down in suit", "build down in suit, take top card x"), encoding="utf-8")
        answer = player.send("u")
        assert f"{path} changed but cannot be used; play goes on under the old rules:" in answer
        line = original.splitlines().index(old_line) + 1
        assert any(text.strip().startswith(f"{path}:{line}:") for text in answer)
        assert "undone" in answer
        save = tmp_path / "game.json"
        player.send(f"save {save}")
    finally:
        code, err = player.close()
    assert code == QUIT, err
    loaded = load_game(save)
    assert data_key(loaded.rules.data) == data_key(after.data) and loaded.moves_made == 0


def _only_in_suit(before, after, seed: int) -> str | None:
    """A move of deal `seed` that building down in suit allows and alternate colours do not, if any."""
    old, new = Game(before, seed=seed), Game(after, seed=seed)
    moves = sorted(legal(new) - legal(old))
    return moves[0] if moves else None


def test_an_honour_rule_imposed_in_play_waits_for_its_acknowledgement_before_each_move(tmp_path):
    from kallisti.cli.play import run_session
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.save import load_game
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver.strategies import hint
    from kallisti.interpreter.notation import describe

    game = Game(load_ruleset("forty-thieves"), seed=2)
    first = describe(game, hint(game))
    save = tmp_path / "hop.json"
    out = []
    run_session(game, ['rule honour hop before move: "Hop on one foot."', first, "ok", first, f"save {save}", "q"], out.append)
    text = "\n".join(out)
    assert "honour rule (before move): Hop on one foot." in text
    assert "first acknowledge: Hop on one foot. (type `ok`)" in text
    assert game.moves_made == 1  # refused once, made once acknowledged
    assert {"type": "ack", "rule": "hop", "at": "before-move"} in game.events
    again = load_game(save)
    assert again.state.key() == game.state.key() and any(h.id == "hop" for h in again.rules.honour)
