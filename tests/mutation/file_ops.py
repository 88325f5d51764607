"""Operators on a shipped ruleset's text: broken files, YAML and `.rules` syntax (the "file" stage)."""

from __future__ import annotations

import functools
import json
import random
import re

import yaml

from .base import Mutant, Shipped, as_text, fresh_name, misspell, operator, pick, variant

MAX_FILE_BYTES = 1_000_000
TOO_DEEP = 45  # brackets nested past the 40 levels YAML and .rules values may nest
MAX_ITEMS = 1_000  # items of any list, and keys of any map, a ruleset file may hold while it is read
MAX_FINDINGS = 20  # errors reported for one file before `more-errors`
MOMENTS = ("at match start", "at turn start", "before deal", "before move", "at turn end")
SYNTAXES = ("yaml", "rules")


# -- the file -----------------------------------------------------------------------------------------------------

@operator("folder-for-file", "file-unreadable")
def folder_for_file(game, rng):
    """The ruleset's path is a folder (the file was unpacked into a folder of its own name): there is no file to read."""
    syntax = rng.choice(SYNTAXES)
    name = "ruleset.rules" if syntax == "rules" else "ruleset.yaml"
    return [Mutant(f"{name} is a folder holding the ruleset", ((f"{name}/{name}", game.text(syntax)),), main=name)]


@operator("padded-file", "file-too-large")
def padded_file(game, rng):
    """A comment pads the file past 1,000,000 bytes, the largest ruleset file kallisti reads."""
    return [as_text(game.text(s) + "\n# " + "x" * MAX_FILE_BYTES + "\n", s, f"{s} file padded past 1 MB")
            for s in SYNTAXES]


@operator("latin-1-byte", "file-syntax")
def latin_1_byte(game, rng):
    """A comment line written in Latin-1 (`café` as the byte 0xE9 followed by a newline) is not UTF-8: 0xE9 opens a
    three-byte sequence that a newline cannot continue."""
    out = []
    for s in SYNTAXES:
        lines = game.text(s).encode("utf-8").split(b"\n")
        at = rng.randrange(len(lines) + 1)
        text = b"\n".join(lines[:at] + [b"# caf\xe9"] + lines[at:])
        out.append(as_text(text, s, f"{s} file with a Latin-1 comment at line {at + 1}"))
    return out


# -- YAML -----------------------------------------------------------------------------------------------------------

@functools.cache
def yaml_pairs(text: str) -> tuple[tuple[yaml.Node, yaml.Node], ...]:
    """The (key, value) nodes of block mappings whose key is a plain scalar alone at the start of its line and whose
    value is a scalar or flow collection on that same line."""
    lines = text.split("\n")
    out = []

    def walk(node):
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                line = key.start_mark.line
                if (not node.flow_style and isinstance(key, yaml.ScalarNode) and key.style is None
                        and not lines[line][:key.start_mark.column].strip()
                        and value.start_mark.line == value.end_mark.line == line):
                    out.append((key, value))
                walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)

    walk(yaml.compose(text, Loader=yaml.SafeLoader))
    return tuple(out)


def plain_pairs(text: str) -> list[tuple[yaml.Node, yaml.Node]]:
    """The pairs of `yaml_pairs` whose value is a plain (unquoted) scalar."""
    return [(k, v) for k, v in yaml_pairs(text) if isinstance(v, yaml.ScalarNode) and v.style is None]


def edit(text: str, start: yaml.Mark, end: yaml.Mark, new: str) -> str:
    """The text with the span from `start` to `end` (marks of one line) replaced."""
    lines = text.split("\n")
    line = lines[start.line]
    lines[start.line] = line[:start.column] + new + line[end.column:]
    return "\n".join(lines)


def node_text(text: str, node: yaml.Node) -> str:
    return text.split("\n")[node.start_mark.line][node.start_mark.column:node.end_mark.column]


def yaml_edits(game: Shipped, rng: random.Random, pairs, change, what: str) -> list[Mutant]:
    """One mutant per chosen pair of the game's YAML text: `change(text, key, value)` gives the new text."""
    text = game.text("yaml")
    return [as_text(change(text, k, v), "yaml", f"{what} at line {k.start_mark.line + 1} ({k.value})")
            for k, v in pick(rng, pairs(text))]


@operator("second-colon", "yaml-syntax")
def second_colon(game, rng):
    """A plain value gets `: x` after it (`score: foundation.size: x`): YAML allows no second `key:` on a line whose
    value is a plain scalar ("mapping values are not allowed in this context")."""
    return yaml_edits(game, rng, plain_pairs, lambda t, k, v: edit(t, v.end_mark, v.end_mark, ": x"), "second colon")


@operator("anchored-value", "yaml-alias")
def anchored_value(game, rng):
    """A plain value gets an anchor (`&shared`) and another value becomes its alias (`*shared`): rulesets may not use
    anchors or aliases."""
    def change(text, key, value):
        others = [v for _, v in plain_pairs(text) if v.start_mark.line != value.start_mark.line]
        if others:
            other = rng.choice(others)
            text = edit(text, other.start_mark, other.end_mark, "*shared")
        return edit(text, value.start_mark, value.start_mark, "&shared ")
    return yaml_edits(game, rng, plain_pairs, change, "anchor and alias")


@operator("key-twice", "yaml-duplicate-key")
def key_twice(game, rng):
    """A `key: value` line is repeated just below itself, so its map gives the key twice."""
    def change(text, key, value):
        lines = text.split("\n")
        return "\n".join(lines[:key.start_mark.line + 1] + lines[key.start_mark.line:])
    return yaml_edits(game, rng, yaml_pairs, change, "line repeated")


@operator("hash-in-text", "text-cut-by-comment")
def hash_in_text(game, rng):
    """An unquoted `says` or `description` gets a reference ending it (`... (see rule #2)`): YAML reads ` #2)` as a
    comment, so the text stops at `(see rule`. A game with no such text gets a variant whose description is written so."""
    text = game.text("yaml")
    pairs = lambda t: [(k, v) for k, v in plain_pairs(t) if k.value in ("says", "description")]  # noqa: E731
    out = yaml_edits(game, rng, pairs, lambda t, k, v: edit(t, v.end_mark, v.end_mark, " (see rule #2)"),
                     "text cut by a `#`")
    if not out:
        body = (f"extends: {game.name}\ngame: {json.dumps(game.data['game'] + ' variant')}\n"
                f"description: {game.data['game']} with a rule of its own (see rule #2)\n")
        out.append(Mutant("a variant's description cut by a `#`", (("variant.yaml", body),)))
    return out


@operator("tagged-value", "yaml-tag")
def tagged_value(game, rng):
    """A plain value gets an explicit YAML tag (`game: !!str Forty Thieves`), as if written by a tool that tags what it
    dumps: a ruleset may not tag a value."""
    return yaml_edits(game, rng, plain_pairs, lambda t, k, v: edit(t, v.start_mark, v.start_mark, "!!str "), "tagged value")


@operator("runaway-list", "too-many-items")
def runaway_list(game, rng):
    """A list is written out by a script gone wrong: a group's `deal` (or, in a game without piles, the deck's ranks)
    repeated to more than the 1,000 items any list of a ruleset file may hold, in YAML or in a `.rules` `set`."""
    out = []
    for name in pick(rng, [n for n, g in game.data.get("piles", {}).items() if isinstance(g.get("deal"), list)]):
        rows = ["up"] * (MAX_ITEMS + 1 + rng.randrange(50))
        out.append(variant(game, f"piles.{name}.deal of {len(rows)} rows", piles={name: {"deal": rows}}))
        out.append(as_text(f"extends {game.name}\nset piles.{name}.deal [{', '.join(rows)}]\n", "rules",
                           f".rules set of piles.{name}.deal to {len(rows)} rows"))
    if not out:
        ranks = [f"r{i}" for i in range(MAX_ITEMS + 1)]
        out.append(variant(game, f"deck.ranks of {len(ranks)} ranks", deck={"ranks": ranks}))
    return out


@operator("runaway-map", "too-many-keys")
def runaway_map(game, rng):
    """Honour rules are generated by a script gone wrong: more than the 1,000 keys any map of a ruleset file may hold."""
    count = MAX_ITEMS + 1 + rng.randrange(50)
    rules = {f"rule{i}": {"at": rng.choice(["match-start", "before-deal"]), "says": "Shuffle well."} for i in range(count)}
    return [variant(game, f"{count} honour rules", honour=rules)]


@operator("pasted-prose", "more-errors")
def pasted_prose(game, rng):
    """The game's description is pasted into its .rules file as lines of prose, each a line the grammar refuses: more
    than the 20 errors reported for one file, so reading stops at the 21st."""
    words = re.findall(r"[A-Za-z]+", str(game.data.get("description", ""))) or ["the", "rules", "in", "prose"]
    while len(words) < 8 * (MAX_FINDINGS + 5):
        words += words
    lines = [" ".join(["Note"] + words[i:i + 8]) for i in range(0, 8 * (MAX_FINDINGS + 5), 8)]
    at = rng.choice(code_lines(game.text("rules")))
    text = game.text("rules").split("\n")
    return [as_text("\n".join(text[:at] + lines + text[at:]), "rules", f"{len(lines)} lines of prose at line {at + 1}")]


@operator("listed-key", "yaml-key")
def listed_key(game, rng):
    """A key is written in brackets (`[game]: ...`), which makes it a list, not a plain name."""
    return yaml_edits(game, rng, yaml_pairs, lambda t, k, v: edit(t, k.start_mark, k.end_mark, f"[{k.value}]"),
                      "key in brackets")


@operator("deep-brackets", "yaml-depth")
def deep_brackets(game, rng):
    """A plain value is wrapped in 45 brackets, nesting lists past the 40 levels a ruleset may nest."""
    return yaml_edits(game, rng, plain_pairs,
                      lambda t, k, v: edit(t, v.start_mark, v.end_mark, "[" * TOO_DEEP + node_text(t, v) + "]" * TOO_DEEP),
                      "value in 45 brackets")


@operator("hidden-control", "control-char")
def hidden_control(game, rng):
    """A terminal escape (ESC [2J, which clears the screen) is put into the game's name, and a right-to-left
    override (U+202E) into a comment, where a reviewer would not see what it hides."""
    named = {"extends": game.name, "game": f"{game.data['game']}\x1b[2J"}
    out = [Mutant("game name with a terminal escape", (("variant.yaml", named),))]
    for s in SYNTAXES:
        lines = game.text(s).split("\n")
        at = rng.randrange(len(lines) + 1)
        out.append(as_text("\n".join(lines[:at] + ["# \u202e hidden"] + lines[at:]), s,
                           f"{s} file with a right-to-left override in a comment at line {at + 1}"))
    return out


@operator("endless-number", "number-too-long")
def endless_number(game, rng):
    """The number of packs is written with 150 digits, more than the 100 a number of a ruleset may have (and past
    what any count needs)."""
    return [variant(game, "150-digit number of packs", deck={"packs": int("9" * 150)})]


@operator("listed-ruleset", "not-a-ruleset")
def listed_ruleset(game, rng):
    """The whole ruleset is made the one item of a list (`- game: ...`, every line indented): the top level of the
    file is a list, not a map of keys."""
    lines = game.text("yaml").split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip() and not line.startswith("#"))
    text = "\n".join(("- " if i == first else "  ") + line if line else line for i, line in enumerate(lines))
    return [as_text(text, "yaml", "the ruleset is an item of a list")]


# -- the .rules syntax ----------------------------------------------------------------------------------------------

def code_lines(text: str) -> list[int]:
    """The indexes of the lines of a .rules text that are statements or their continuations: not blank, not comments,
    not the text of a `description:` block."""
    out, block = [], None
    for i, line in enumerate(text.split("\n")):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and (not line.strip() or indent > block):
            continue
        block = indent if re.fullmatch(r"\s*description:\s*", line) else None
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(i)
    return out


def statements(text: str, pattern: str) -> list[int]:
    """The indexes of the unindented statement lines matching `pattern` (a regular expression on the line)."""
    lines = text.split("\n")
    return [i for i in code_lines(text) if not lines[i].startswith(" ") and re.match(pattern, lines[i])]


def rules_edits(game: Shipped, rng: random.Random, candidates, change, what: str) -> list[Mutant]:
    """One mutant per chosen line of the game's .rules text: `change(lines, i)` edits the list of lines in place."""
    text = game.text("rules")
    out = []
    for i in pick(rng, candidates(text)):
        lines = text.split("\n")
        change(lines, i)
        out.append(as_text("\n".join(lines), "rules", f"{what} at line {i + 1}"))
    return out


def quoted_lines(text: str) -> list[int]:
    """Code lines holding exactly one quoted text (two quotes, none escaped)."""
    lines = text.split("\n")
    return [i for i in code_lines(text) if "\\" not in lines[i] and lines[i].count('"') == 2]


def pile_lines(game: Shipped):
    """A candidates function: the statement lines of pile groups (`GROUP: PHRASES`)."""
    names = "|".join(map(re.escape, game.data.get("piles", {}))) or "(?!)"
    return lambda text: statements(text, rf"({names}): \S")


@operator("misspelt-statement", "rules-syntax")
def misspelt_statement(game, rng):
    """The keyword that opens a statement (`win`, `score`, `lose`, `auto`, `compulsory`, `grouping`, `cripple`) is
    misspelt: the line is then a group name followed by words that are neither `:` nor a rule's name."""
    keywords = ("win", "score", "lose", "auto", "compulsory", "grouping", "cripple")

    def change(lines, i):
        word, rest = lines[i].split(" ", 1)
        lines[i] = f"{misspell(word, rng, keywords)} {rest}"
    return rules_edits(game, rng, lambda t: statements(t, rf"({'|'.join(keywords)}) \S"), change, "misspelt keyword")


@operator("unclosed-quote", "unclosed")
def unclosed_quote(game, rng):
    """The closing quote of a quoted text is dropped, so the quote runs to the end of the line."""
    def change(lines, i):
        at = lines[i].rindex('"')
        lines[i] = lines[i][:at] + lines[i][at + 1:]
    return rules_edits(game, rng, quoted_lines, change, "closing quote dropped")


@operator("unknown-escape", "bad-escape")
def unknown_escape(game, rng):
    """A quoted text gets the escape `\\q`, which is not one of the escapes a quoted text may use."""
    def change(lines, i):
        at = lines[i].index('"') + 1
        lines[i] = lines[i][:at] + "\\q" + lines[i][at:]
    return rules_edits(game, rng, quoted_lines, change, "escape \\q")


@operator("statement-twice", "duplicate-key")
def statement_twice(game, rng):
    """A statement that sets a key (`game:`, `deck:`, `win`, `score`, `hands:`, a pile group's line) is repeated below
    itself: the key is given twice."""
    groups = pile_lines(game)

    def candidates(text):
        return statements(text, r"(game:|deck:|win when |score |hands:) ?") + groups(text)
    return rules_edits(game, rng, candidates, lambda lines, i: lines.insert(i + 1, lines[i]), "statement repeated")


@operator("row-first", "misplaced")
def row_first(game, rng):
    """A `row u` phrase is put first on a pile group's line, where no `deal` phrase comes before it."""
    def change(lines, i):
        name, rest = lines[i].split(": ", 1)
        lines[i] = f"{name}: row u, {rest}"
    return rules_edits(game, rng, pile_lines(game), change, "row before any deal")


@operator("tab-indent", "indent-tab")
def tab_indent(game, rng):
    """A line is indented with a tab, which the .rules syntax refuses (indentation is spaces)."""
    def change(lines, i):
        lines[i] = "\t" + lines[i].lstrip(" ")
    return rules_edits(game, rng, code_lines, change, "tab indent")


@operator("indented-under-statement", "unexpected-indent")
def indented_under_statement(game, rng):
    """An indented line is put under `game:`, `win` or `score`, statements that own no block and take no
    continuation."""
    return rules_edits(game, rng, lambda t: statements(t, r"(game:|win when |score )"),
                       lambda lines, i: lines.insert(i + 1, "    and more besides"), "indented line")


@operator("quoted-description-block", "description-block")
def quoted_description_block(game, rng):
    """The `description:` that owns a block of text gets a quoted text of its own as well, so a quoted description
    goes on over indented lines."""
    return rules_edits(game, rng, lambda t: statements(t, r"description:\s*$"),
                       lambda lines, i: lines.__setitem__(i, 'description: "In short."'), "quoted description")


def appended(game: Shipped, statement: str, what: str) -> list[Mutant]:
    """A mutant that is the game's .rules text with one statement added at the end."""
    return [as_text(game.text("rules").rstrip("\n") + "\n" + statement + "\n", "rules", what)]


@operator("deep-set", "too-deep")
def deep_set(game, rng):
    """A `set` statement's value is nested in 45 brackets, past the 40 levels a .rules value may nest."""
    depth = TOO_DEEP + rng.randrange(5)
    return appended(game, f"set deck.marks.spare {'[' * depth}1{']' * depth}", f"set with {depth} brackets")


def honour_id(game: Shipped) -> str:
    return fresh_name(game.data.get("honour", {}), "courtesy")


@operator("misspelt-moment", "unknown-moment")
def misspelt_moment(game, rng):
    """An honour rule is added at a misspelt moment of play (`befor deal`), which is no moment."""
    out = []
    for moment in pick(rng, MOMENTS):
        word = rng.choice([w for w in moment.split() if w != "at"])
        wrong = moment.replace(word, misspell(word, rng, {w for m in MOMENTS for w in m.split()}), 1)
        out += appended(game, f'honour {honour_id(game)} {wrong}: "Shuffle well."', f"honour rule at '{wrong}'")
    return out


@operator("silent-honour", "honour-says")
def silent_honour(game, rng):
    """An honour rule is added that does not say what it asks (no quoted text after the colon)."""
    moment = rng.choice(MOMENTS)
    return appended(game, f"honour {honour_id(game)} {moment}:", f"honour rule at {moment} saying nothing")
