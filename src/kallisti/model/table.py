"""Compile a ruleset's `table` section (seats, the deal by role, the draw, the second deal) into TableRules."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.errors import Finding


@dataclass(frozen=True)
class TableRules:
    """How a round at the table is dealt: passes of (dealer's cards, each other's cards), the draw, the second deal."""

    seats: tuple[int, int]
    passes: tuple[tuple[int, int], ...]
    draw_most: int  # 0: no draw
    may_fold: bool
    second: int  # cards each in the second deal (0: none)
    second_up: tuple[bool, bool]  # (dealer's face up, the others' face up)
    stake: int = 0  # 0: no money
    chips: int = 0
    max_bet: int = 0
    betting: tuple[bool, ...] = ()  # the parts of the betting round after the draw: raises allowed or not
    buy: int = 0  # cards each player but the dealer may buy face down in the second deal
    extra_bets: bool = False
    last_betting: tuple[bool, ...] = ()  # the parts of betting after the extra bets are matched
    declarations: str = "round"  # round: asked in a round of their own before the showdown; showdown: as hands are laid
    reform: str = "always"  # whether a hand laid down is arranged again when a later modifier changes its rules

    def first_cards(self, dealer: bool) -> int:
        return sum(d if dealer else o for d, o in self.passes)

    def most_cards(self, players: int) -> int:
        """The most cards a round with this many players can take from the pack (every draw at its most)."""
        first = self.first_cards(True) + (players - 1) * self.first_cards(False)
        return first + players * (self.draw_most + self.second)


def compile_table(data, hands, deck_size: int, at, findings: list[Finding]) -> TableRules:
    """The TableRules of a resolved `table` section; faults go to `findings` with their positions."""
    lo, hi = int(data["seats"][0]), int(data["seats"][1])
    if lo > hi:
        findings.append(Finding("table-seats", f"table.seats: the fewest ({lo}) is more than the most ({hi})", at("table", "seats")))
    draw = data.get("draw") or {"most": 0}
    money = data.get("money")
    second = data.get("second")
    rules = TableRules((lo, hi), tuple((int(p["dealer"]), int(p["others"])) for p in data["deal"]), int(draw["most"]),
                       bool(draw.get("fold", False)), int(second["count"]) if second else 0,
                       (second["dealer"] == "up", second["others"] == "up") if second else (False, False),
                       int(money["stake"]) if money else 0, int(money["chips"]) if money else 0,
                       int(money.get("max_bet", 0)) if money else 0,
                       tuple(p == "raise" for p in money.get("betting", ())) if money else (),
                       int(money.get("buy", 0)) if money else 0, bool(money.get("extra_bets", False)) if money else False,
                       tuple(p == "raise" for p in money.get("last_betting", ())) if money else (),
                       str(data.get("declarations", "round")), str(data.get("reform", "always")))
    if hands is None:
        findings.append(Finding("table-without-hands", "a table compares hands at the showdown: the ruleset needs a `hands` section",
                                at("table")))
        return rules
    for role, dealer in (("the dealer", True), ("every other player", False)):
        got = rules.first_cards(dealer) + rules.second
        if got != hands.size:
            findings.append(Finding("table-hand-size", f"the deals give {role} {got} cards; a hand holds {hands.size}",
                                    at("table", "deal"), suggestion="make the passes and the second deal add up to hands.size"))
    need = rules.most_cards(hi)
    if need > deck_size:
        findings.append(Finding("table-pack", f"{hi} players may need {need} cards (every draw at its most); the pack has "
                                f"{deck_size}", at("table", "seats"), suggestion="allow fewer seats or smaller draws"))
    return rules
