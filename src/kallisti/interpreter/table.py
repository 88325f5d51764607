"""A round at a table of players (Cripple Mr Onion's): roles, stakes, the deal by role, the draw, the betting, the
second deal with bought cards, extra bets and the passing of the dealership, the modifiers in play (and whose hands
each changes), and the showdown, each hand judged under its own rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from kallisti.errors import Pos, error
from kallisti.interpreter.betting import BetError, Betting
from kallisti.interpreter.hands import HandEvaluator
from kallisti.interpreter.round_modifiers import RoundModifiers
from kallisti.interpreter.state import shuffled_order
from kallisti.model.modifiers import overlaid_entries
from kallisti.unsafe import QuotingError

# What a showdown may show that a later round's `after` modifiers wait for, each judged on one shown evaluation.
FOLLOWS = {"nulls": lambda evaluation: any(g.nulls > 0 for g in evaluation.groups)}

# HandEvaluators of the overlaid rules, by base evaluator and the modifier parts applied: building one compiles a
# ruleset, and a warm one remembers its condition answers.
_EVALUATORS: WeakKeyDictionary = WeakKeyDictionary()
MAX_EVALUATORS = 64  # per base evaluator, then forgotten


def evaluator_for(base: HandEvaluator, entries: tuple) -> HandEvaluator:
    """The evaluator of `base`'s rules with the modifier parts `entries` ((id, `changes` or `unheld`), in order)."""
    if not entries:
        return base
    cache = _EVALUATORS.setdefault(base, {})
    if entries not in cache:
        if len(cache) >= MAX_EVALUATORS:
            cache.clear()
        cache[entries] = HandEvaluator(overlaid_entries(base.rules, entries))
    return cache[entries]


class TableError(QuotingError):
    """A table action the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class RoundResult:
    """The end of a round: the winner, the seats that tied with it (seniority decided), the evaluations shown."""

    winner: int | None  # None: nobody took the dealership, so everyone folded and the pot goes to the next round
    tied: tuple[int, ...]
    shown: dict  # seat -> Evaluation, for the seats that reached the showdown
    showdown: bool  # False: every other player folded
    carried: int = 0  # the pot carried to the next round
    follows: frozenset = frozenset()  # what the showdown showed for the next round's `after` modifiers (FOLLOWS)


@dataclass
class Round(RoundModifiers):
    """One round: the pack in dealing order, every seat's cards (and which lie face up), the draw, the showdown.

    Seats are numbered in turn order around the table; the Elder sits on the dealer's left (the next
    seat) and the Younger on the dealer's right (the seat before). Precedence, for dealing and for
    winning ties, is Dealer, Elder, the others in order, Younger.
    """

    rules: object
    players: int
    dealer: int = 0
    seed: int = 1
    number: int = 0
    stacks: list | None = None  # each seat's chips, when the table plays for money (changed in place)
    carry: int = 0  # a pot carried from the round before: it is this round's ante
    after: frozenset = frozenset()  # what the round before showed (its RoundResult.follows)
    hands: list = field(init=False)
    face_up: list = field(init=False)
    folded: set = field(init=False)
    discards: list = field(init=False)
    events: list = field(init=False)  # what everyone at the table sees happen
    phase: str = field(init=False)  # draw, bet, buy, extra, accept, declare, choose, reveal, showdown, over
    to_draw: list = field(init=False)

    def __post_init__(self):
        table = self.rules.table
        lo, hi = table.seats
        if not lo <= self.players <= hi:
            raise error("table-players", f"{self.rules.name} is played by {lo} to {hi} players, not {self.players}",
                        Pos("--players"))
        self.pack = shuffled_order(self.rules.deck.size, self.seed, self.number)
        self.next = 0
        self.hands = [[] for _ in range(self.players)]
        self.face_up = [set() for _ in range(self.players)]
        self.folded = set()
        self.discards = []
        self.events = []
        self.pot = 0
        self.betting = None
        self.betting_stage = None  # first: the betting after the draw; last: after the extra bets are matched
        self.queue, self.extra, self.candidate = [], {}, None
        self.seconds: list[int] = []  # the players still to be served in the second deal (and to lay an extra bet)
        self.betting_extra = False  # whether this round's players lay extra bets
        self.in_play: list[tuple[str, int | None]] = []  # modifiers in play, in order, with their declarer (or None)
        self.unheld: set[str] = set()  # modifiers whose compelled card nobody still in held: their `unheld` apply
        self.asked: set[tuple[int, str]] = set()  # (seat, modifier) pairs already asked to declare
        self.revealing: list[int] = []  # seats still to lay a face-down card face up (a `compel`)
        self.modifiers = {m.id: m for m in self.rules.modifiers}
        self.beside: list[int] = []  # declared cards laid beside their players, replaced in their hands
        self.offer: list[int] = []  # cards offered for a replaced card's place
        self.choosing: int | None = None
        self.laid: dict[int, tuple] = {}  # seat -> the modifier parts that applied to its hand when it was laid down
        self.reformed: dict[int, tuple] = {}  # seat -> the parts it was arranged again under (`reform: once`)
        if table.stake and self.carry:
            self.pot = self.carry  # the pot of a round everybody folded is this round's ante
        elif table.stake:
            self._stake()
        self._start_modifiers()
        for dealer_cards, other_cards in table.passes:
            for seat in self.precedence:
                if seat not in self.folded:
                    self._deal(seat, dealer_cards if seat == self.dealer else other_cards, face_up=False)
        self.to_draw = [s for s in self.precedence[1:] + [self.dealer] if s not in self.folded] if table.draw_most else []
        self.phase = "draw" if self.to_draw else "showdown"
        if not self.to_draw:
            self._second_deal()

    def _stake(self) -> None:
        """Every player who can covers the stake into the pot; one who cannot sits the round out (`cannot_cover:
        fold`), and a dealer who cannot passes the deal to the next seat that can."""
        stake = self.rules.table.stake
        if self.stacks is None or len(self.stacks) != self.players:
            raise TableError("a table that plays for money needs every seat's chips")
        able = [s for s in range(self.players) if self.stacks[s] >= stake]
        if len(able) < 2:
            raise TableError("fewer than two players can cover the stake")
        while self.dealer not in able:
            self.dealer = (self.dealer + 1) % self.players
        for seat in self.precedence:
            if seat in able:
                self.stacks[seat] -= stake
                self.pot += stake
                self.events.append({"type": "stake", "seat": seat, "chips": stake})
            else:
                self.folded.add(seat)
                self.events.append({"type": "sit-out", "seat": seat})

    # -- roles ---------------------------------------------------------------------------------
    @property
    def elder(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def younger(self) -> int:
        return (self.dealer - 1) % self.players

    @property
    def precedence(self) -> list[int]:
        """Seats from the most senior: Dealer, Elder, the others in order, Younger."""
        return [(self.dealer + k) % self.players for k in range(self.players)]

    def role(self, seat: int) -> str:
        if seat == self.dealer:
            return "Dealer"
        if seat == self.elder:
            return "Elder"
        return "Younger" if seat == self.younger else ""

    # -- dealing -------------------------------------------------------------------------------
    def _deal(self, seat: int, n: int, face_up: bool) -> None:
        if self.next + n > len(self.pack):
            raise TableError("the pack has run out")  # the ruleset's checks keep this from happening
        cards = self.pack[self.next:self.next + n]
        self.next += n
        self.hands[seat] += cards
        if face_up:
            self.face_up[seat].update(cards)
        self.events.append({"type": "deal", "seat": seat, "count": n, "face_up": face_up,
                            **({"cards": list(cards)} if face_up else {})})
        self._compulsory(seat, cards)

    def _second_deal(self) -> None:
        """The dealer's second cards; then each other player's in turn, from the Elder: bought face down first, where
        the rules sell them, the rest dealt, and then, where the rules have them, that player's extra bet."""
        table = self.rules.table
        self.queue, self.extra = [], {}
        if table.second and self.dealer not in self.folded:
            self._deal(self.dealer, table.second, table.second_up[0])
        self.seconds = [s for s in self.precedence[1:] if s not in self.folded]  # the players still to be served
        self.betting_extra = bool(table.stake and table.extra_bets and self.seconds and self.dealer not in self.folded)
        self._next_second()

    def _next_second(self) -> None:
        """Serve the next player of the second deal: ask hir to buy, or deal hir cards and ask hir extra bet; when
        everyone is served, the dealer is asked to match the extra bets (or the last betting begins)."""
        table = self.rules.table
        while self.seconds:
            seat = self.seconds[0]
            if table.second and table.stake and table.buy:
                self.queue, self.phase = [seat], "buy"
                return
            if table.second:
                self._deal(seat, table.second, table.second_up[1])
            if self.betting_extra:
                self.queue, self.phase = [seat], "extra"
                return
            self.seconds.pop(0)
        if self.betting_extra:
            self.queue, self.phase, self.candidate, self.first_dealer = [], "accept", self.dealer, self.dealer
        else:
            self._start_last_betting()

    def _buy(self, seat: int, n: int) -> None:
        """Buy n of the second cards face down, a stake each; the rest are dealt as the rules say. The player then
        lays hir extra bet, where the rules have them."""
        table = self.rules.table
        most = min(table.buy, table.second, self.stacks[seat] // table.stake)
        if not 0 <= n <= most:
            raise BetError(f"buy from 0 to {most} cards")
        self.stacks[seat] -= n * table.stake
        self.pot += n * table.stake
        self.events.append({"type": "buy", "seat": seat, "count": n, "chips": n * table.stake})
        self._deal(seat, n, face_up=False)
        self._deal(seat, table.second - n, table.second_up[1])
        if self.betting_extra:
            self.phase = "extra"
            return
        self.seconds.pop(0)
        self._next_second()

    # -- the extra bets and the passing of the dealership ---------------------------------------
    def _extra(self, seat: int, chips: int) -> None:
        """An extra bet, laid in front of the player until the dealership is settled."""
        most = min(self.rules.table.max_bet, self.stacks[seat])
        if not 0 <= chips <= most:
            raise BetError(f"bet from 0 to {most}")
        self.stacks[seat] -= chips
        self.extra[seat] = chips
        self.events.append({"type": "extra", "seat": seat, "chips": chips})
        self.seconds.pop(0)
        self._next_second()

    def _accept(self, seat: int, take: bool, fold: bool = False) -> None:
        """The dealer (or, the dealership passed on, the player asked) matches the others' extra bets and deals on;
        or passes the dealership to the next player. Round the table back to the dealer, everyone folds. The dealer,
        asked first, may instead fold: the extra bets go back and the dealership is auctioned, as when a dealer folds in
        the betting; the last parts of betting follow with the new dealer."""
        if fold:
            if take or seat != self.dealer:
                raise BetError("only the dealer, asked to match the extra bets, may fold")
            for s, c in self.extra.items():  # never matched: the extra bets go back
                self.stacks[s] += c
            self.extra = {}
            self.fold(seat)
            table = self.rules.table
            self.betting, self.betting_stage, self.phase = Betting(self, table.last_betting, table.max_bet), "last", "bet"
            self.betting.auction_first()
            self._betting_over()
            return
        cost = sum(c for s, c in self.extra.items() if s != seat)
        if take:
            if self.stacks[seat] < cost:
                raise BetError(f"matching the extra bets takes {cost} chips; you have {self.stacks[seat]}")
            self.stacks[seat] -= cost
            self.pot += cost + sum(self.extra.values())  # an accepting player's own extra bet is lost to the pot
            self.extra = {}
            self.events.append({"type": "accept", "seat": seat, "chips": cost})
            if seat != self.dealer:
                self.dealer = seat  # the roles move round the new dealer; the old one keeps playing
                self.events.append({"type": "new-dealer", "seat": seat})
            self._start_last_betting()
            return
        self.events.append({"type": "pass", "seat": seat})
        nxt = (seat + 1) % self.players
        while nxt in self.folded and nxt != self.first_dealer:
            nxt = (nxt + 1) % self.players
        if nxt != self.first_dealer:
            self.candidate = nxt
            return
        for s, c in self.extra.items():  # never matched: the extra bets go back
            self.stacks[s] += c
        self.extra = {}
        for s in [s for s in self.precedence if s not in self.folded]:
            self.fold(s)
        self.phase = "showdown"

    def _start_last_betting(self) -> None:
        table = self.rules.table
        active = [s for s in self.precedence if s not in self.folded]
        if table.stake and table.last_betting and len(active) > 1:
            self.betting, self.betting_stage, self.phase = Betting(self, table.last_betting, table.max_bet), "last", "bet"
        else:
            self._before_showdown()

    # -- whose rules judge which hand ------------------------------------------------------------
    def targets(self, mid: str, in_play=None) -> set[int]:
        """The seats whose hands modifier `mid`'s changes apply to, given the modifiers in play (default: the round's)."""
        m = self.modifiers[mid]
        declarer = self.declarer(mid, in_play)
        seats = set(range(self.players))
        if m.to == "all":
            return seats
        if m.to == "declarer":
            return {declarer} if declarer is not None else set()
        if m.to == "others":
            return seats - {declarer} if declarer is not None else set()
        other = self.declarer(m.to, in_play)  # the seat that declared the named modifier, if it is in play
        return {other} if other is not None else set()

    def _parts(self, mid: str, unheld) -> list[tuple[str, str]]:
        """The parts of a modifier in play that apply: its changes, and its `unheld` changes when nobody held the card."""
        m = self.modifiers[mid]
        return [(mid, "changes")] * bool(m.patches) + [(mid, "unheld")] * bool(m.unheld and mid in unheld)

    def entries_for(self, seat: int, in_play=None, unheld=None) -> tuple:
        """The modifier parts that apply to `seat`'s hand, in the order the modifiers came into play."""
        in_play = self.in_play if in_play is None else in_play
        unheld = self.unheld if unheld is None else unheld
        return tuple(e for mid, _ in in_play if seat in self.targets(mid, in_play) for e in self._parts(mid, unheld))

    def common_entries(self) -> tuple:
        """The modifier parts that apply to every hand (`to: all`): the rules hands are compared under."""
        return tuple(e for mid, _ in self.in_play if self.modifiers[mid].to == "all" for e in self._parts(mid, self.unheld))

    def seat_evaluator(self, seat: int, base: HandEvaluator, in_play=None, unheld=None) -> HandEvaluator:
        """The evaluator of `seat`'s own rules: the base rules with the modifiers in play that target it."""
        return evaluator_for(base, self.entries_for(seat, in_play, unheld))

    # -- the draw ------------------------------------------------------------------------------
    @property
    def waiting(self) -> int | None:
        """The seat whose turn it is (to draw, or to bet), or None when the showdown is next."""
        asks = self.asks
        return asks[0] if asks else None

    @property
    def asks(self) -> tuple[int, str] | None:
        """(seat, what it is asked): `draw`, or in the betting `name`, `answer`, `cover`, `bid`; None for the showdown."""
        if self.phase == "draw":
            return self.to_draw[0], "draw"
        if self.phase == "bet":
            return self.betting.asks()
        if self.phase in ("buy", "extra"):
            return self.queue[0], self.phase
        if self.phase == "declare":
            return self.queue[0][0], "declare"
        if self.phase == "choose":
            return self.choosing, "choose"
        if self.phase == "reveal":
            return self.revealing[0], "reveal"
        if self.phase == "accept":
            return self.candidate, "accept"
        return None

    def exchange(self, seat: int, cards: list[int]) -> None:
        """`seat` discards `cards` from its hand and is dealt as many, face down; discarding the whole hand folds
        (when the rules allow, and never the dealer, who must play the round)."""
        table = self.rules.table
        if self.asks != (seat, "draw"):
            raise TableError(f"it is not seat {seat + 1}'s turn to draw")
        hand = self.hands[seat]
        if len(set(cards)) != len(cards) or not set(cards) <= set(hand):
            raise TableError("you may discard only cards of your own hand, each once")
        if cards and len(cards) == len(hand) and len(cards) > table.draw_most:
            if not table.may_fold:
                raise TableError("the rules do not let a player fold")
            if seat == self.dealer:
                raise TableError("the dealer plays every round and may not fold")
            self.fold(seat)
            return
        if len(cards) > table.draw_most:
            raise TableError(f"you may exchange at most {table.draw_most} cards (or fold by discarding all {len(hand)})")
        for c in cards:
            hand.remove(c)
        self.face_up[seat].difference_update(cards)  # a card declared at the deal may be exchanged like any other
        self.discards += cards
        self.events.append({"type": "draw", "seat": seat, "count": len(cards)})
        self._deal(seat, len(cards), face_up=False)
        self._drawn(seat)

    def fold(self, seat: int) -> None:
        """`seat` gives up the round: its cards go to the discards."""
        self.discards += self.hands[seat]
        self.hands[seat] = []
        self.face_up[seat] = set()
        self.folded.add(seat)
        self.events.append({"type": "fold", "seat": seat})
        if self.phase == "draw":
            self._drawn(seat)

    def _drawn(self, seat: int) -> None:
        self.to_draw.remove(seat)
        if not self.to_draw:
            table = self.rules.table
            if table.stake and table.betting:
                self.betting = Betting(self, table.betting, table.max_bet)
                self.betting_stage, self.phase = "first", "bet"
            else:
                self._second_deal()

    # -- the betting ----------------------------------------------------------------------------
    def bet(self, seat: int, what: str, *args) -> None:
        """A money action: in a betting part `name` (amount), `answer` (match, raise_by), `cover` (accept), `bid`
        (more); then `buy` (cards), `extra` (chips), `accept` (take the dealership or pass it; the dealer may give
        `fold=True` instead); before the showdown
        `declare` (yes), `choose` (card), `reveal` (card)."""
        if what in ("buy", "extra", "accept", "declare", "choose", "reveal"):
            if self.asks != (seat, what):
                raise BetError(f"it is not seat {seat + 1}'s turn to {what}")
            getattr(self, "_" + what)(seat, *args)
            return
        if self.phase != "bet":
            raise BetError("there is no betting now")
        getattr(self.betting, what)(seat, *args)
        self._betting_over()

    def _betting_over(self) -> None:
        """When the betting round is done: the showdown (nobody took the dealership: everyone has folded), the
        declarations before it, or the second deal."""
        if self.betting.done:
            if self.betting.carried:
                self.phase = "showdown"
            elif self.betting_stage == "last":
                self._before_showdown()
            else:
                self._second_deal()

    # -- the showdown --------------------------------------------------------------------------
    def showdown(self, evaluator) -> RoundResult:
        """The winner: the best hand at the showdown (cripples included), the most senior on a complete tie."""
        if self.phase != "showdown":
            raise TableError("the showdown comes after the draw")
        active = [s for s in self.precedence if s not in self.folded]
        self.phase = "over"
        if not active:
            carried, self.pot = self.pot, 0
            self.events.append({"type": "carry", "chips": carried})
            return RoundResult(None, (), {}, False, carried)
        if len(active) == 1:
            self._pay(active[0])
            self.events.append({"type": "win", "seat": active[0], "showdown": False})
            return RoundResult(active[0], (), {}, False)
        # Each hand is judged under its own rules; hands are compared under the rules common to all. A hand kept in
        # the arrangement it was laid down in (`reform`) is judged as it lies.
        shown = {}
        for s in active:
            own = self.seat_evaluator(s, evaluator)
            arranged = self.arranged_under(s)
            if arranged == self.entries_for(s):
                shown[s] = own.evaluate(self.hands[s])
            else:
                layout = evaluator_for(evaluator, arranged).evaluate(self.hands[s])
                shown[s] = own.judge_arrangement(self.hands[s], [g.cards for g in layout.groups])
        best = evaluator_for(evaluator, self.common_entries()).showdown([shown[s] for s in active])
        tied = tuple(active[i] for i in best)
        winner = tied[0]  # `active` runs from the most senior
        for s in active:
            self.events.append({"type": "show", "seat": s, "cards": list(self.hands[s])})
        self._pay(winner)
        self.events.append({"type": "win", "seat": winner, "showdown": True})
        follows = frozenset(key for key, test in FOLLOWS.items() if any(test(e) for e in shown.values()))
        return RoundResult(winner, tied if len(tied) > 1 else (), shown, True, follows=follows)

    def _pay(self, seat: int) -> None:
        """The pot goes to the winner."""
        if self.pot:
            self.stacks[seat] += self.pot
            self.events.append({"type": "pot", "seat": seat, "chips": self.pot})
            self.pot = 0

    def chip_count(self) -> int:
        """Every chip at the table: the stacks and the pot (the conservation check)."""
        return (sum(self.stacks or ()) + self.pot + (sum(self.betting.aside.values()) if self.betting else 0)
                + sum(self.extra.values()))

    # -- what a seat may know --------------------------------------------------------------------
    def view(self, seat: int) -> dict:
        """What `seat` sees: its own cards (and which lie face up), the face-up cards of the others and how many they hold
        face down, and the modifiers in play with their declarers."""
        others = {}
        for s in range(self.players):
            if s != seat:
                up = [c for c in self.hands[s] if c in self.face_up[s]]
                others[s] = {"face_up": up, "face_down": len(self.hands[s]) - len(up), "folded": s in self.folded,
                             "role": self.role(s)}
        return {"seat": seat, "role": self.role(seat), "hand": list(self.hands[seat]),
                "face_up": [c for c in self.hands[seat] if c in self.face_up[seat]], "in_play": list(self.in_play),
                "others": others, "phase": self.phase,
                "pack_left": len(self.pack) - self.next, "pot": self.pot, "stacks": list(self.stacks or ())}

    def card_count(self) -> int:
        """Every card of the pack, wherever it is (the conservation check)."""
        return (len(self.pack) - self.next + sum(len(h) for h in self.hands) + len(self.discards) + len(self.beside)
                + len(self.offer))
