"""What every mutation operator uses: the shipped games, mutants, the registry of operators, and small edits of
resolved ruleset data (groups, clauses, expressions, deals, references)."""

from __future__ import annotations

import copy
import functools
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from kallisti.model.loader import parse_file, resolve, shipped_games
from kallisti.located import plain

PER_GAME = 3  # the most mutants an operator makes of one game
RULE_KEYS = ("build", "empty", "take", "sequence", "dealing", "discard")
JUDGED_KEYS = ("build", "empty", "take", "sequence")  # rules whose clauses read the moving card (and its target)
BIG = "1000000000"  # the largest number literal: BIG * BIG is the largest product a rule may compute
NOTHING = {"id": "nothing", "forbid": "true"}  # the `none` macro: a rule that allows nothing


# -- shipped games -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shipped:
    """A shipped game: its name, its file and its resolved data (never changed: operators edit `fresh()` copies)."""

    name: str
    path: Path
    data: dict

    @property
    def syntax(self) -> str:
        return "rules" if self.path.suffix == ".rules" else "yaml"

    def fresh(self) -> dict:
        """A copy of the resolved data to edit."""
        return copy.deepcopy(self.data)

    def text(self, syntax: str) -> str:
        """The game's own file in `syntax` ("yaml" or "rules"): the shipped text, or the shipped file converted."""
        return file_text(self.path, syntax)

    @property
    def deck_size(self) -> int:
        deck = self.data["deck"]
        packs = deck["packs"]
        pack_suits = [len(deck["suits"])] * packs if isinstance(packs, int) else [len(p["suits"]) for p in packs]
        return sum(pack_suits) * len(deck["ranks"])

    @property
    def ranks(self) -> list[str]:
        return [str(r) for r in self.data["deck"]["ranks"]]


@functools.cache
def games() -> tuple[Shipped, ...]:
    """Every shipped game, in name order."""
    return tuple(Shipped(name, path, plain(resolve(name)[0])) for name, path in shipped_games().items())


@functools.cache
def file_text(path: Path, syntax: str) -> str:
    """The text of a ruleset file in `syntax`, converted by `kallisti convert` when it is written in the other."""
    if (path.suffix == ".rules") == (syntax == "rules"):
        return path.read_text(encoding="utf-8")
    from kallisti.cli.convert import write_checked

    return write_checked(parse_file(path)[0], syntax, str(path))


# -- mutants and operators -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mutant:
    """A broken ruleset: what was broken, the files to write (name, and text, bytes or data written as YAML), the file
    to check (the first file's name unless `main` says otherwise), and an engine fault in force while it is checked."""

    description: str
    files: tuple[tuple[str, Any], ...]
    main: str | None = None
    fault: Callable | None = None  # a context manager factory: the engine as changed by the fault

    def write(self, folder: Path) -> Path:
        """Write the files under `folder`; the path of the ruleset to check."""
        for name, content in self.files:
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content if isinstance(content, str) else dump(content), encoding="utf-8")
        return folder / (self.main or self.files[0][0])


@dataclass(frozen=True)
class Operator:
    """A mutation operator: its name, the code it targets, and `make(game, rng)`, its mutants of one game (none when
    it does not apply); `plays` when its mutants are also play-tested with `kallisti check`."""

    name: str
    code: str
    make: Callable[[Shipped, random.Random], list[Mutant]]
    plays: bool = False

    @property
    def why(self) -> str:
        """Why its mutants are broken: the operator's docstring."""
        return " ".join((self.make.__doc__ or "").split())


REGISTRY: list[Operator] = []


def operator(name: str, code: str, plays: bool = False):
    """Register the decorated function as the operator `name`, which targets `code`."""
    def register(make):
        REGISTRY.append(Operator(name, code, make, plays))
        return make
    return register


# libyaml's emitter where PyYAML was built with it: the same text as the pure-Python one for every mutant (compared
# over the mutants of seeds 1-3), written six times faster; the mutation test writes some five hundred files.
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump(data) -> str:
    """Ruleset data as a standalone YAML file."""
    return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=10**9)


def standalone(data: dict, description: str) -> Mutant:
    """A mutant that is one ruleset file: resolved data written as standalone YAML."""
    return Mutant(description, (("ruleset.yaml", data),))


def as_text(text: str | bytes, syntax: str, description: str, fault: Callable | None = None) -> Mutant:
    """A mutant that is one ruleset file written as text in `syntax` (checked with the engine `fault`, if any)."""
    return Mutant(description, (("ruleset.rules" if syntax == "rules" else "ruleset.yaml", text),), fault=fault)


def variant(game: Shipped, description: str, **body: Any) -> Mutant:
    """A mutant that is a variant file extending the shipped game by name (unless `body` gives another `extends`),
    with the keys `body`."""
    data = {"extends": game.name, "game": f"{game.data['game']} variant", **body}
    return Mutant(description, (("variant.yaml", data),))


def pick(rng: random.Random, items: Iterable, k: int = PER_GAME) -> list:
    """Up to `k` of `items`, chosen by `rng` (in a reproducible order)."""
    items = list(items)
    return rng.sample(items, min(k, len(items)))


def misspell(word: str, rng: random.Random, taken: Iterable[str] = ()) -> str:
    """`word` with two neighbouring letters swapped, a letter dropped or a letter doubled, so it is none of `taken`."""
    taken = set(taken) | {word}
    letters = [i for i, ch in enumerate(word) if ch.isalpha()]
    for _ in range(100):
        i = rng.choice(letters)
        how = rng.choice(("swap", "drop", "double"))
        if how == "swap" and i + 1 < len(word) and word[i + 1].isalpha():
            candidate = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        elif how == "drop" and len(letters) > 1 and i > 0:
            candidate = word[:i] + word[i + 1:]
        else:
            candidate = word[:i + 1] + word[i:]
        if candidate not in taken:
            return candidate
    return word + "q" * (1 + max(map(len, taken)))


def fresh_name(taken: Iterable[str], base: str = "spare") -> str:
    """A name like `base` that is none of `taken`."""
    taken = set(taken)
    return next(f"{base}{i or ''}" for i in range(len(taken) + 1) if f"{base}{i or ''}" not in taken)


# -- reading and editing resolved data ----------------------------------------------------------------------------

def get_in(data, path: tuple):
    for part in path:
        data = data[part]
    return data


def set_in(data, path: tuple, value) -> None:
    get_in(data, path[:-1])[path[-1]] = value


def piles(data: dict) -> dict:
    """The pile groups of resolved data, by name (none when the ruleset only scores hands)."""
    return data.get("piles", {})


def clause_expr(clause: dict) -> tuple[str, str]:
    """A clause's kind (require or forbid) and its expression text."""
    kind = "require" if "require" in clause else "forbid"
    return kind, str(clause[kind])


def refuses_all(rule: list) -> bool:
    """Whether a rule is the `none` macro: it has `forbid: true`."""
    return any(clause_expr(c) == ("forbid", "true") for c in rule)


def live_rules(data: dict, keys: tuple = JUDGED_KEYS) -> list[tuple[str, str]]:
    """(group, key) of every rule among `keys` that allows something (it is not `none`)."""
    return [(name, key) for name, g in piles(data).items() for key in keys
            if isinstance(g.get(key), list) and not refuses_all(g[key])]


def add_clause(data: dict, group: str, key: str, kind: str, expr: str, base: str = "mutant",
               first: bool = False) -> dict:
    """Add a clause `kind: expr` with a new id to piles.GROUP.KEY, last (or `first`); the data."""
    rule = piles(data)[group][key]
    rule.insert(0 if first else len(rule), {"id": fresh_name((c["id"] for c in rule), base), kind: expr})
    return data


def freeze(group: dict) -> None:
    """Make a group give up no card: nothing leaves it (`take: none`), it deals nothing, redeals nothing, discards
    nothing and refills nothing."""
    group["take"] = [dict(NOTHING)]
    group["redeals"] = 0
    for key in ("turn", "redeal", "discard", "discard_to", "refill"):
        group.pop(key, None)


def row_cards(row: str, count: int) -> int:
    """How many cards one row of a deal lays: `up`/`down` one per pile, otherwise one per `u` or `d` letter."""
    if row in ("up", "down"):
        return count
    return sum(1 for letter in row.split() if letter in ("u", "d"))


def dealt(group: dict) -> int:
    """The cards a group is dealt at the start, besides `deal: rest` (its rows, and one per pile for `prefill`)."""
    rows = [] if group["deal"] == "rest" else group["deal"]
    return sum(row_cards(row, group["count"]) for row in rows) + (group["count"] if "prefill" in group else 0)


def drop_last_row(group: dict) -> int:
    """Take away the last row of the group's deal that lays cards; the cards it laid."""
    rows = group["deal"]
    return row_cards(rows.pop(max(i for i, r in enumerate(rows) if row_cards(r, group["count"]))), group["count"])


def rest_group(data: dict) -> str | None:
    """The group that takes `deal: rest`, if any."""
    return next((name for name, g in piles(data).items() if g["deal"] == "rest"), None)


def rest_size(game: Shipped, data: dict) -> int:
    """The cards left for `deal: rest` once the rows are dealt."""
    return game.deck_size - sum(dealt(g) for g in piles(data).values())


# -- expressions --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    """An expression of resolved data: where it is, its text, and whether it is a condition (bool) or a number."""

    path: tuple
    text: str
    type: str  # "bool" or "int"


def expressions(data: dict) -> list[Expr]:
    """Every expression of the ruleset: clauses, win, score, lose, move patterns, pile options, hand groupings."""
    out = []
    for name, g in piles(data).items():
        for key in RULE_KEYS:
            for i, clause in enumerate(g.get(key) or []):
                kind, text = clause_expr(clause)
                if text != "true":
                    out.append(Expr(("piles", name, key, i, kind), text, "bool"))
        for path in (("prefill",), ("divert", "when"), ("redeal", "when")):
            if _has(g, path):
                out.append(Expr(("piles", name) + path, str(get_in(g, path)), "bool"))
        if "reveal" in g:
            out.append(Expr(("piles", name, "reveal"), str(g["reveal"]), "int"))
    for key, type_ in (("win", "bool"), ("score", "int")):
        if key in data:
            out.append(Expr((key,), str(data[key]), type_))
    for key in ("lose", "auto", "compulsory"):
        items = enumerate(data.get(key, []))
        out += [Expr((key, i, "when"), str(item["when"]), "bool") for i, item in items if "when" in item]
    for gid, grouping in data.get("hands", {}).get("groupings", {}).items():
        if "when" in grouping:
            out.append(Expr(("hands", "groupings", gid, "when"), str(grouping["when"]), "bool"))
    return out


def _has(data, path: tuple) -> bool:
    try:
        get_in(data, path)
        return True
    except (KeyError, TypeError, IndexError):
        return False


def words(text: str) -> list[re.Match]:
    """The names of an expression: words that follow neither a dot nor a quote."""
    return [m for m in re.finditer(r"(?<![\w.\"])[A-Za-z_][\w]*", text)]


def attributes(text: str) -> list[re.Match]:
    """The attribute names of an expression: the words after a dot."""
    return list(re.finditer(r"(?<=\.)[A-Za-z_]\w*", text))


def replace_span(text: str, match: re.Match, new: str) -> str:
    return text[:match.start()] + new + text[match.end():]


# -- group references ---------------------------------------------------------------------------------------------

def references(data: dict) -> list[tuple]:
    """The path of every place that names a pile group (turn, redeal, divert, refill, discard_to, move patterns)."""
    out = []
    for name, g in piles(data).items():
        base = ("piles", name)
        for path in (("turn", "to"), ("divert", "to"), ("refill", "from"), ("discard_to",)):
            if _has(g, path):
                out.append(base + path)
        for key in ("gather", "deal"):
            out += [base + ("redeal", key, i) for i in range(len(g.get("redeal", {}).get(key, [])))]
    for key in ("auto", "compulsory"):
        for i, item in enumerate(data.get(key, [])):
            for field in ("from", "to"):
                value = item.get(field)
                if isinstance(value, str) and value != "any":
                    out.append((key, i, field))
                elif isinstance(value, list):
                    out += [(key, i, field, j) for j, v in enumerate(value) if v != "any"]
    return out


def rename_group(data: dict, old: str, new: str) -> dict:
    """The data with the group `old` named `new`, everywhere it is named (expressions included)."""
    data["piles"] = {new if name == old else name: g for name, g in piles(data).items()}
    if "layout" in data:  # layout hints are keyed by the group's name
        data["layout"] = {new if name == old else name: hint for name, hint in data["layout"].items()}
    for path in references(data):
        if get_in(data, path) == old:
            set_in(data, path, new)
    for e in expressions(data):
        text = e.text
        for m in reversed([m for m in words(e.text) if m.group() == old]):
            text = replace_span(text, m, new)
        set_in(data, e.path, text)
    return data


def named_groups(data: dict) -> set[str]:
    """The groups some other group's rules move cards out of by a route other than a move: a `redeal` gathers them,
    a `refill` draws from them."""
    out = set()
    for g in piles(data).values():
        out |= set(g.get("redeal", {}).get("gather", []))
        if "refill" in g:
            out.add(g["refill"]["from"])
    return out


# -- wins ---------------------------------------------------------------------------------------------------------

SIZE_SUM = re.compile(r"^\s*([a-z][a-z0-9_]*)\.size(\s*\+\s*[a-z][a-z0-9_]*\.size)*\s*$")


def win_needs_all(data: dict) -> list[str]:
    """The groups that must hold the whole deck for the win, when the win is `deck.size == A.size + B.size ...`
    (either way round); none otherwise."""
    win = " ".join(str(data.get("win", "")).split())
    sides = [s.strip() for s in win.split("==")]
    if len(sides) != 2 or "deck.size" not in sides:
        return []
    other = sides[1] if sides[0] == "deck.size" else sides[0]
    if not SIZE_SUM.match(other):
        return []
    names = [part.strip()[: -len(".size")] for part in other.split("+")]
    return names if all(n in piles(data) for n in names) else []


def win_needs_empty(data: dict) -> list[str]:
    """The group that must be empty for the win, when the win is `G.size == 0` or `G.empty`; none otherwise."""
    win = " ".join(str(data.get("win", "")).split())
    m = re.fullmatch(r"([a-z][a-z0-9_]*)\.size == 0|0 == ([a-z][a-z0-9_]*)\.size|([a-z][a-z0-9_]*)\.empty", win)
    name = next((g for g in m.groups() if g), None) if m else None
    return [name] if name in piles(data) else []


RANK_STEP = {"card.rank == top.rank + 1": "up", "card.rank == top.rank - 1": "down"}


def monotone(group: dict) -> str | None:
    """The direction, `up` or `down`, when the group's build rule requires each card one rank above (below) the card
    it goes on, without wrapping; None otherwise."""
    for clause in group["build"]:
        kind, text = clause_expr(clause)
        if kind == "require" and " ".join(text.split()) in RANK_STEP:
            return RANK_STEP[" ".join(text.split())]
    return None


def where(path: tuple) -> str:
    """A data path as the dotted text findings use (`piles.tableau.build.0.require`)."""
    return ".".join(map(str, path))


def misspelt_references(game: Shipped, rng: random.Random, paths: Iterable[tuple], names: Iterable[str]) -> list[Mutant]:
    """One mutant for each of some of `paths`, the name found there misspelt so it is none of `names`."""
    out = []
    for path in pick(rng, paths):
        data = game.fresh()
        wrong = misspell(get_in(data, path), rng, names)
        set_in(data, path, wrong)
        out.append(standalone(data, f"{where(path)} names '{wrong}'"))
    return out
