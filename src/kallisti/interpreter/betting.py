"""A betting round at the table: the dealer names an amount, the others match it or fold (and may raise the
dealer), the dealer covers the raises or folds; a dealer who folds puts the dealership up for auction."""

from __future__ import annotations

from kallisti.unsafe import QuotingError


class BetError(QuotingError):
    """A bet the rules do not allow now; the message says why."""


class Betting:
    """The parts of one betting round, played on a Round's stacks, pot and folded seats.

    Chips a player raises lie beside the pot (`aside`) until the dealer covers them; a refused raise
    goes back. In the auction, each bid lies beside the pot until its bidder declines (it then goes
    into the pot) or wins (the winning bid goes into the pot). Every chip is always in a stack, the
    pot or `aside`.
    """

    def __init__(self, rnd, parts: tuple[bool, ...], max_bet: int):
        self.rnd = rnd
        self.parts = parts  # per part: whether raises are allowed
        self.max_bet = max_bet  # the most one raise may be (the dealer names any amount hir chips cover)
        self.part = 0
        self.stage = "name"
        self.amount = 0
        self.queue: list[int] = []
        self.aside: dict[int, int] = {}
        self.bidders: list[int] = []
        self.high = 0
        self.leader: int | None = None
        self.done = False
        self.carried = False  # nobody took the dealership: everyone folds and the pot goes to the next round

    # -- whose turn, to do what ------------------------------------------------------------------
    def asks(self) -> tuple[int, str] | None:
        """(seat, what): `name` (the dealer names the amount), `answer` (match or fold, perhaps raise),
        `cover` (the dealer matches the raises or folds), `bid` (the auction of the dealership)."""
        if self.done:
            return None
        if self.stage == "name" or self.stage == "cover":
            return self.rnd.dealer, self.stage
        if self.stage == "answer":
            return self.queue[0], "answer"
        return self.bidders[0], "bid"

    def raises_allowed(self) -> bool:
        return self.parts[self.part]

    def _expect(self, seat: int, what: str) -> None:
        if self.asks() != (seat, what):
            raise BetError(f"it is not seat {seat + 1}'s turn to {what}")

    def _pay(self, seat: int, chips: int) -> None:
        self.rnd.stacks[seat] -= chips
        self.rnd.pot += chips

    def _active(self) -> list[int]:
        return [s for s in self.rnd.precedence if s not in self.rnd.folded]

    # -- the parts -------------------------------------------------------------------------------
    def name(self, seat: int, amount: int) -> None:
        """The dealer names what every other player must match, and puts it in the pot: any amount hir chips cover (the
        limit of `max_bet` is on raises)."""
        self._expect(seat, "name")
        most = self.rnd.stacks[seat]
        if not 0 <= amount <= most:
            raise BetError(f"name an amount from 0 to {most}")
        self._pay(seat, amount)
        self.amount = amount
        self.rnd.events.append({"type": "bet", "seat": seat, "chips": amount})
        self.queue = [s for s in self._active() if s != seat]
        self.stage = "answer"
        self._after_answers()

    def answer(self, seat: int, match: bool, raise_by: int = 0) -> None:
        """Match the dealer's amount (and perhaps raise the dealer), or fold. A player who cannot cover the
        amount folds (the ruleset's `cannot_cover: fold`)."""
        self._expect(seat, "answer")
        stack = self.rnd.stacks[seat]
        if match and stack < self.amount:
            raise BetError(f"you cannot cover {self.amount} with {stack} chips: fold")
        if raise_by and not self.raises_allowed():
            raise BetError("no raises in this part of the betting")
        if match and not 0 <= raise_by <= min(self.max_bet, stack - self.amount):
            raise BetError(f"raise from 0 to {min(self.max_bet, stack - self.amount)}")
        self.queue.pop(0)
        if not match:
            self.rnd.fold(seat)
        else:
            self._pay(seat, self.amount)
            self.rnd.events.append({"type": "match", "seat": seat, "chips": self.amount})
            if raise_by:
                self.rnd.stacks[seat] -= raise_by
                self.aside[seat] = raise_by
                self.rnd.events.append({"type": "raise", "seat": seat, "chips": raise_by})
        self._after_answers()

    def _after_answers(self) -> None:
        if self.queue:
            return
        if self.aside:
            self.stage = "cover"
        else:
            self._end_part()

    def cover(self, seat: int, accept: bool) -> None:
        """The dealer matches the players' raises together, or folds (the raises go back to their players)."""
        self._expect(seat, "cover")
        total = sum(self.aside.values())
        if accept and self.rnd.stacks[seat] < total:
            raise BetError(f"you cannot cover the raises ({total}) with {self.rnd.stacks[seat]} chips: fold")
        if accept:
            self._pay(seat, total)
            self.rnd.pot += total
            self.rnd.events.append({"type": "cover", "seat": seat, "chips": total})
            self.aside.clear()
            self._end_part()
            return
        for s, chips in self.aside.items():
            self.rnd.stacks[s] += chips
        self.aside.clear()
        self.rnd.fold(seat)
        self._start_auction()

    def _end_part(self) -> None:
        self.part += 1
        if self.part >= len(self.parts) or len(self._active()) < 2:
            self.done = True
        else:
            self.stage = "name"

    # -- the auction of the dealership -------------------------------------------------------------
    def auction_first(self) -> None:
        """Begin with the auction of the dealership, the dealer having folded before the first part: the new dealer
        then names the first part's amount."""
        self.part = -1  # the auction ends by moving on to the next part: the first
        self._start_auction()

    def _start_auction(self) -> None:
        self.rnd.events.append({"type": "auction"})
        old = self.rnd.dealer
        self.bidders = [(old + k) % self.rnd.players for k in range(1, self.rnd.players)]
        self.bidders = [s for s in self.bidders if s not in self.rnd.folded]
        self.stage, self.high, self.leader = "auction", 0, None
        if not self.bidders:
            self._nobody_deals()

    def bid(self, seat: int, more: bool) -> None:
        """Advance the bid by one stake to become the dealer, or decline (a bid already advanced goes in the pot)."""
        self._expect(seat, "bid")
        stake = self.rnd.rules.table.stake
        owed = self.high + stake - self.aside.get(seat, 0)
        if more and self.rnd.stacks[seat] < owed:
            raise BetError(f"you cannot advance the bid to {self.high + stake} with {self.rnd.stacks[seat]} chips")
        self.bidders.pop(0)
        if more:
            self.rnd.stacks[seat] -= owed
            self.aside[seat] = self.high + stake
            self.high, self.leader = self.high + stake, seat
            self.bidders.append(seat)
            self.rnd.events.append({"type": "bid", "seat": seat, "chips": self.high})
        else:
            self.rnd.pot += self.aside.pop(seat, 0)
            self.rnd.events.append({"type": "decline", "seat": seat})
        if self.leader is not None and self.bidders == [self.leader]:
            self.rnd.pot += self.aside.pop(self.leader)
            self.rnd.dealer = self.leader  # the roles move round the new dealer
            self.rnd.events.append({"type": "new-dealer", "seat": self.leader})
            self._end_part()
        elif not self.bidders:
            self._nobody_deals()

    def _nobody_deals(self) -> None:
        for s in self._active():
            self.rnd.fold(s)
        self.carried = True
        self.done = True
