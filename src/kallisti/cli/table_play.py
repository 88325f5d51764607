"""Playing rounds at a table in the terminal: each person sees hir own cards and the others' face-up cards only."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kallisti.cli.render import entry_lines, suit_legend, terminal_width, wrapped
from kallisti.errors import KallistiError, Pos
from kallisti.interpreter.hands import HandEvaluator
from kallisti.interpreter.betting import BetError
from kallisti.interpreter.table import Round, TableError
from kallisti.solver.table import BOTS, bet_choice, choose_discards
from kallisti.persons import does, hir
from kallisti.unsafe import char_name, unsafe_char

QUIT, DONE = 4, 0

# What a person may type at the table, as `help` lists it (wrapped to the terminal's width).
HELP = (
    ("CARDS / none / fold", "at the exchange: the cards to give up (e.g. `5Co 8Sw`), none, or your whole hand"),
    ("N", "an amount, where the question asks for one"),
    ("match [N] / fold", "match the dealer's amount (and raise by N where raises are allowed), or fold"),
    ("WORD", "a word the question names: cover, bid, pass, accept, declare"),
    ("CARD", "a card, where the question asks you to choose or reveal one"),
    ("hint", "the answer a cautious player would give"),
    ("legend", "what the card names mean"),
    ("q", "stop playing"),
)
HELP_AFTER = "Between rounds, an empty line deals the next round."


def seats_from_players(text: str) -> list[tuple[str, str | None]]:
    """(name, bot kind or None for a person) per seat: `me,bot,bot:bold` -> me, bot 2 (cautious), bot 3 (bold)."""
    seats = []
    for i, word in enumerate(w.strip() for w in text.split(",")):
        if not word:
            continue
        bad = unsafe_char(word)
        if bad is not None:  # a name is printed on every round
            raise ValueError(f"seat {i + 1} holds the control character {char_name(word[bad])}")
        if word == "bot" or word.startswith("bot:"):
            kind = word.partition(":")[2] or "cautious"
            if kind not in BOTS:
                raise ValueError(f"no table bot '{kind}'; choose from {', '.join(BOTS)}")
            seats.append((f"bot {i + 1} ({kind})", kind))
        else:
            seats.append((word, None))
    return seats


def run_table_session(rules, seats, seed: int, lines: Iterator[str], out: Callable[[str], None]) -> int:
    """Rounds until the input ends or a person types `q`; the winner of a round deals the next."""
    evaluator = HandEvaluator(rules)
    deck = rules.deck
    names = [n for n, _ in seats]
    dealer, number, carry, after = 0, 0, 0, frozenset()
    table = rules.table
    stacks = [table.chips] * len(seats) if table.stake else None
    money = (f"Each starts with {table.chips} chips and stakes {table.stake} a round; the winner takes the pot."
             if stacks else "No money: the best hand at the showdown wins.")
    out(f"{rules.name} at a table of {len(seats)}: {', '.join(names)}. {money}")
    for line in _legend(rules):
        out(line)
    if any(bot is None for _, bot in seats):
        out("type `help` at any question for the answers, `hint` for a suggestion, `q` to stop")
    while True:
        try:
            rnd = Round(rules, len(seats), dealer=dealer, seed=seed, number=number, stacks=stacks, carry=carry,
                        after=after)
        except KallistiError as exc:
            for f in exc.findings:
                out(str(f))
            return 1
        except TableError:
            richest = max(range(len(seats)), key=lambda s: stacks[s])
            out(f"*** {does(names[richest], f'wins the table with {stacks[richest]} chips')} ***")
            return DONE
        out("")
        out(f"-- round {number + 1}: {does(names[rnd.dealer], 'deals')}; Elder {names[rnd.elder]}, Younger {names[rnd.younger]}"
            + (f"; pot {rnd.pot}" if stacks is not None else ""))
        for e in rnd.events:
            if e["type"] == "sit-out":
                out(does(names[e['seat']], "cannot cover the stake and sits this round out"))
        _tell(rnd, rnd.events, names, out)  # modifiers in play from the start, and any declared as the cards were dealt
        while rnd.asks is not None:
            seat, what = rnd.asks
            name, bot = seats[seat]
            if bot is not None:
                before = len(rnd.events)
                if what == "draw":
                    cards = choose_discards(rnd, seat, evaluator, bot)
                    rnd.exchange(seat, cards)
                    out(f"{name} exchanges {len(cards)} card{'s' if len(cards) != 1 else ''}")
                else:
                    rnd.bet(seat, what, *bet_choice(rnd, seat, evaluator, bot, what))
                _tell(rnd, rnd.events[before:], names, out)
                continue
            done = (_person_draws(rnd, seat, name, names, lines, out, evaluator) if what == "draw"
                    else _person_bets(rnd, seat, what, names, lines, out, evaluator))
            if not done:
                out("*** QUIT ***")
                return QUIT
        if rnd.phase == "showdown" and not [s for s in range(len(seats)) if s not in rnd.folded]:
            result = rnd.showdown(evaluator)
            out(f"*** nobody takes the dealership: everyone folds, and the pot of {result.carried} is the next round's ante ***")
            dealer, number, carry, after = rnd.dealer, number + 1, result.carried, result.follows
            if not _next_round(lines, out):
                return DONE
            continue
        _show_table(rnd, names, out)
        people = [s for s, (_, bot) in enumerate(seats) if bot is None]
        if len(people) == 1 and people[0] not in rnd.folded:  # one person at the terminal: hir own hand, whole
            out(f"{names[people[0]]}, your hand: {' '.join(deck.name(c) for c in rnd.hands[people[0]])}")
        result = rnd.showdown(evaluator)
        out("showdown:")
        for s, e in result.shown.items():
            groups = "; ".join(f"{g.name} {' '.join(deck.name(c) for c in g.cards)}" for g in e.groups) or "no grouping"
            out(f"  {names[s]}: {groups}")
        how = " (the most senior of the tied hands)" if result.tied else ("" if result.showdown else " (everyone else folded)")
        out(f"*** {does(names[result.winner], f'wins round {number + 1}{how}')} ***")
        if stacks is not None:
            out("chips: " + ", ".join(f"{n} {c}" for n, c in zip(names, stacks)))
        dealer, number, carry, after = result.winner, number + 1, 0, result.follows
        if not _next_round(lines, out):
            return DONE


def _next_round(lines, out) -> bool:
    """Between rounds: whether to play another (an empty line, or any but `q`); `help` and `legend` answer first."""
    while True:
        out("enter for the next round, q to stop")
        line = next(lines, None)
        if line is None or line.strip() == "q":
            return False
        if line.strip() not in ("help", "?", "hint"):
            return True
        out("an empty line deals the next round; `q` stops the game")


def _legend(rules) -> list[str]:
    """What the card names at the table mean: the suits' marks and the ranks."""
    deck = rules.deck
    return wrapped(f"cards are named rank then suit, e.g. {deck.name(deck.size - 1)}; {suit_legend(deck)}; ranks "
                   + " ".join(deck.ranks), indent="  ")


def _general(word: str, rnd, seat: int, what: str, evaluator, out) -> bool:
    """`help`, `hint` or `legend`, typed at a question: answered (True), and the question is asked again."""
    if word in ("help", "?"):
        out("answers:")
        for line in entry_lines(HELP) + wrapped(HELP_AFTER):
            out(line)
    elif word == "hint":
        out(f"hint: {_hint(rnd, seat, what, evaluator)}")
    elif word == "legend":
        for line in _legend(rnd.rules):
            out(line)
    else:
        return False
    return True


def _hint(rnd, seat: int, what: str, evaluator) -> str:
    """The answer to type that a cautious player would give, from what this seat can see."""
    deck = rnd.rules.deck
    evaluator = evaluator or HandEvaluator(rnd.rules)
    if what == "draw":
        cards = choose_discards(rnd, seat, evaluator, "cautious")
        return " ".join(deck.ascii_name(c) for c in cards) if cards else "none"
    args = bet_choice(rnd, seat, evaluator, "cautious", what)
    if what in ("name", "buy", "extra"):
        return str(args[0])
    if what == "answer":
        return "fold" if not args[0] else ("match" if not args[1] else f"match {args[1]}")
    if what in ("choose", "reveal"):
        return deck.ascii_name(args[0])
    if what == "accept" and len(args) > 1 and args[1]:
        return "fold"
    yes, no = {"cover": ("cover", "fold"), "bid": ("bid", "pass"), "accept": ("accept", "pass"),
               "declare": ("declare", "pass")}[what]
    return yes if args[0] else no


def _person_draws(rnd, seat: int, name: str, names: list[str], lines, out, evaluator=None) -> bool:
    """Ask a person which cards to exchange until the answer is valid; False when the input ends or `q`."""
    deck = rnd.rules.deck
    view = rnd.view(seat)
    out(f"{name}, your hand: {' '.join(deck.name(c) for c in view['hand'])}")
    for s, o in view["others"].items():
        if o["folded"]:
            out(f"  {names[s]}: folded")
        elif o["face_up"] or o["face_down"]:
            up = " ".join(deck.name(c) for c in o["face_up"])
            out(f"  {names[s]}: {o['face_down']} face down{', face up: ' + up if up else ''}")
    most = rnd.rules.table.draw_most
    while True:
        out(f"exchange up to {most} cards (e.g. `{deck.ascii_name(view['hand'][0])}`), `none`, or `fold`:")
        line = next(lines, None)
        if line is None or line.strip() == "q":
            return False
        words = line.replace(",", " ").split()
        if len(words) == 1 and _general(words[0], rnd, seat, "draw", evaluator, out):
            continue
        try:
            before = len(rnd.events)
            if words == ["fold"]:
                rnd.exchange(seat, list(view["hand"]))
            else:
                rnd.exchange(seat, [] if words == ["none"] else _cards_of(rnd, view["hand"], words))
            _tell(rnd, rnd.events[before:], names, out)  # a drawn card may have to be declared at once
            return True
        except (TableError, KallistiError) as exc:
            out(f"refused: {exc}")


def _amount(word: str) -> bool:
    """Whether a typed word is an amount: ASCII digits only (`str.isdigit` takes `²`, which `int` refuses), and
    few enough that `int` reads it (no stake is near a billion)."""
    return word.isascii() and word.isdigit() and len(word) <= 12


ASK = {"name": "you deal: name the amount every other player must match (0 to {most})",
       "answer": "match {amount} (`match`, or `match N` to raise the dealer by N{raises}) or `fold`",
       "cover": "cover the raises of {aside} (`cover`) or `fold` (the dealership then goes to auction)",
       "bid": "bid {next} for the dealership (`bid`) or `pass`",
       "buy": "buy how many of your next cards face down, a stake each (0 to {buy})?",
       "extra": "your extra bet (0 to {most})?",
       "accept": "match the others' extra bets ({cost}) and deal (`accept`), or `pass` the dealership on{fold}",
       "declare": "declare {modifier} (`declare`) or `pass`?",
       "choose": "choose the card that takes its place: {offer}",
       "reveal": "lay one of your face-down cards face up: {down}"}


def _betting_place(rnd) -> str:
    """Where the betting stands: this part of this betting round, and the betting still to come after it."""
    b, table = rnd.betting, rnd.rules.table
    first = rnd.betting_stage == "first"
    parts = len(table.betting if first else table.last_betting)
    part = min(max(b.part, 0), parts - 1) + 1
    if first and table.last_betting:
        after = f"then the second five and the last round, {len(table.last_betting)} parts"
    else:
        after = "then the showdown"
    left = parts - part
    return (f"{'first' if first and table.last_betting else 'last'} betting round: part {part} of {parts}, "
            f"{left or 'no'} more to come; {after}")


def _person_bets(rnd, seat: int, what: str, names: list[str], lines, out, evaluator=None) -> bool:
    """Ask a person for a betting action until it is valid; False when the input ends or `q`."""
    b = rnd.betting
    stack = rnd.stacks[seat] if rnd.stacks else 0  # a table without money still asks about modifiers
    up = [c for c in rnd.hands[seat] if c in rnd.face_up[seat]]
    out((f"pot {rnd.pot}, your chips {stack}; " if rnd.stacks else "")
        + f"your hand: {' '.join(rnd.rules.deck.name(c) for c in rnd.hands[seat])}"
        + (f" (face up: {' '.join(rnd.rules.deck.name(c) for c in up)})" if up else ""))
    if what in ("name", "answer", "cover", "bid"):
        out(f"({_betting_place(rnd)})")
    if what == "declare":
        m = next((m for m in rnd.rules.modifiers if m.id == rnd.declaring), None)
        if m is not None and m.says:
            out(f"{m.name}:")
            _say_effect(m.says, out)
    while True:
        table = rnd.rules.table
        # The dealer names any amount hir chips cover; `max_bet` limits raises and extra bets.
        out(ASK[what].format(most=stack if what == "name" else min(table.max_bet, stack), amount=b.amount if b else 0,
                             aside=sum(b.aside.values()) if b else 0, next=(b.high if b else 0) + table.stake,
                             raises="" if what != "answer" or b.raises_allowed() else "; no raises now",
                             buy=min(table.buy, table.second, stack // table.stake) if table.stake else 0,
                             cost=sum(c for s, c in rnd.extra.items() if s != seat),
                             fold=", or `fold` (the dealership is then auctioned)" if seat == rnd.dealer else "",
                             modifier=next((m.name for m in rnd.rules.modifiers if m.id == rnd.declaring), ""),
                             offer=" or ".join(rnd.rules.deck.name(c) for c in rnd.offer),
                             down=" ".join(rnd.rules.deck.name(c) for c in rnd.hands[seat] if c not in rnd.face_up[seat])))
        line = next(lines, None)
        if line is None or line.strip() == "q":
            return False
        words = line.split()
        if len(words) == 1 and _general(words[0], rnd, seat, what, evaluator, out):
            continue
        try:
            if what in ("name", "buy", "extra") and len(words) == 1 and _amount(words[0]):
                args = (int(words[0]),)
            elif what == "answer" and words[:1] == ["match"] and (len(words) == 1 or len(words) == 2 and _amount(words[1])):
                args = (True, int(words[1]) if len(words) == 2 else 0)
            elif what in ("answer", "cover") and words == ["fold"]:
                args = (False, 0) if what == "answer" else (False,)
            elif what == "cover" and words == ["cover"]:
                args = (True,)
            elif what == "bid" and words in (["bid"], ["pass"]):
                args = (words == ["bid"],)
            elif what == "accept" and words in (["accept"], ["pass"]):
                args = (words == ["accept"],)
            elif what == "accept" and words == ["fold"]:
                args = (False, True)
            elif what == "declare" and words in (["declare"], ["pass"]):
                args = (words == ["declare"],)
            elif what == "choose" and len(words) == 1:
                args = (_cards_of(rnd, rnd.offer, words, "among the cards offered")[0],)
            elif what == "reveal" and len(words) == 1:
                down = [c for c in rnd.hands[seat] if c not in rnd.face_up[seat]]
                args = (_cards_of(rnd, down, words, "face down in your hand")[0],)
            else:
                out("refused: not an answer to that question")
                continue
            before = len(rnd.events)
            rnd.bet(seat, what, *args)
            _tell(rnd, rnd.events[before:], names, out)
            return True
        except (BetError, TableError, KallistiError) as exc:
            out(f"refused: {exc}")


def _tell(rnd, events, names, out) -> None:
    """The public events of betting and of modifiers, in words."""
    deck = rnd.rules.deck
    names_of = {m.id: m.name for m in rnd.rules.modifiers}
    says_of = {m.id: m.says for m in rnd.rules.modifiers}
    words = {"bet": "names {chips}", "match": "matches {chips}", "raise": "raises {chips}", "cover": "covers the raises with {chips}",
             "fold": "folds", "auction": None, "bid": "bids {chips} for the dealership", "decline": "passes",
             "new-dealer": "becomes the dealer", "buy": "buys {count} card(s) face down", "extra": "bets {chips} extra",
             "accept": "matches the extra bets with {chips}", "pass": "passes the dealership on",
             "declare": "declares {modifier}, showing {cards}", "choose": "takes one of {count} cards in its place",
             "compelled": "must lay {cards} face up", "reveal": "lays {cards} face up",
             "lay-down": "lays {hir} hand down: {cards}"}
    for e in events:
        if e["type"] == "auction":
            out("the dealer folds: the dealership is up for auction")
        elif e["type"] == "modifier":
            out(f"{names_of.get(e['modifier'], e['modifier'])} is in play")
            _say_effect(says_of.get(e["modifier"]), out)
        elif e["type"] == "unheld":
            out(f"nobody holds the card {names_of.get(e['modifier'], e['modifier'])} calls for")
        elif e["type"] in words and "seat" in e:
            name = names[e["seat"]]
            out(does(name, words[e["type"]].format(chips=e.get("chips", 0), count=e.get("count", e.get("offered", 0)),
                                                   modifier=names_of.get(e.get("modifier"), e.get("modifier", "")),
                                                   cards=" ".join(deck.name(c) for c in e.get("cards", ())), hir=hir(name))))
            if e["type"] == "declare":
                _say_effect(says_of.get(e.get("modifier")), out)


def _say_effect(says: str | None, out) -> None:
    """What a modifier does, said when it comes into play (wrapped, indented under the line that names it)."""
    if says:
        for line in wrapped(says, terminal_width() - 2):
            out("  " + line)


def _cards_of(rnd, hand: list[int], words: list[str], where: str = "in your hand") -> list[int]:
    deck = rnd.rules.deck
    chosen = []
    for w in words:
        kind = deck.parse_card(w, Pos("<input>"))
        match = [c for c in hand if deck.kind[c] == kind and c not in chosen]
        if not match:
            raise TableError(f"{w} is not {where}")
        chosen.append(match[0])
    return chosen


def _show_table(rnd, names, out) -> None:
    """The face-up cards everyone can see once the second deal is made."""
    deck = rnd.rules.deck
    for s in rnd.precedence:
        if s in rnd.folded:
            continue
        up = [c for c in rnd.hands[s] if c in rnd.face_up[s]]
        out(f"  {names[s]}: {len(rnd.hands[s]) - len(up)} face down" + (f", face up: {' '.join(deck.name(c) for c in up)}" if up else ""))
