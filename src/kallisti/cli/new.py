"""`kallisti new NAME --from GAME`: start a variant, a ruleset file that `extends` GAME, ready to edit.

The file holds `extends`, the variant's `game` name (from NAME: `my-thieves` is "My Thieves") and a
placeholder description; below them, as comments, what the parent has now (every top-level key and
every pile group's keys with their values, the keys a variant may override), an example of an
override and of a clause added under `changes:`, and for a game with modifiers the line that turns
each one off. Comments change nothing: the file loads as the parent's rules under a new name.

It is written in the canonical layout of its syntax (`kallisti fmt --check` passes), checked to read
back as written and to load before it is written, atomically, and never over an existing file
unless `--force`.
"""

from __future__ import annotations

import os
import re
import textwrap
from enum import Enum
from pathlib import Path

import typer

from kallisti.errors import KallistiError

RULESET_SUFFIXES = (".yaml", ".yml", ".rules")
WIDTH = 96  # comment lines are wrapped to this width
MAX_TEXT = 72  # longer strings (descriptions, expressions, says) are cut short in the listing


class Syntax(str, Enum):
    yaml = "yaml"
    rules = "rules"


def title_of(name: str) -> str:
    """The game name a variant called NAME gets: `my-thieves` is "My Thieves"."""
    words = [w for w in re.split(r"[-_\s]+", name) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or name


# ---- what the parent has now, as comment lines --------------------------------------------------------
def _text(value: str) -> str:
    text = " ".join(value.split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1].rstrip() + "…"


def rule_text(clauses: list) -> str:
    """A resolved rule in few words: `any` for no clause, the macro its clauses came from, or else the
    macros and clause ids in order (`[down in suit, forbid aces-go-home]`)."""
    if not clauses:
        return "any"
    parts: list[str] = []
    last_macro = None
    for c in clauses:
        macro = c.get("macro")
        if macro:
            if macro != last_macro:
                parts.append(str(macro))
        else:
            parts.append(f"{'forbid' if 'forbid' in c else 'require'} {c.get('id')}")
        last_macro = macro
    return parts[0] if len(parts) == 1 and clauses[0].get("macro") else "[" + ", ".join(parts) + "]"


def knob(value, key: str | None = None) -> str:
    """A value on one line, short: named entries (clauses, patterns, groupings…) by their ids."""
    from kallisti.model.patch import RULE_KEYS

    if isinstance(value, dict):
        if value and all(isinstance(v, dict) for v in value.values()):
            return "[" + ", ".join(map(str, value)) + "]"
        return "{" + ", ".join(f"{k}: {knob(v, k)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        if key in RULE_KEYS and all(isinstance(c, dict) for c in value):
            return rule_text(value)
        if value and all(isinstance(v, dict) for v in value):
            names = [v.get("id", v.get("name")) for v in value]
            if all(isinstance(n, str) for n in names):
                return "[" + ", ".join(names) + "]"
        return "[" + ", ".join(knob(v) for v in value) + "]"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return _text(value)
    return str(value)


def _wrapped(line: str) -> list[str]:
    """A long `key: value` line broken after the commas between the value's items (never inside an
    item), the lines after the first indented four more."""
    if len(line) <= WIDTH - 2:
        return [line]
    items, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 1 and line[i + 1:i + 2] == " ":
            items.append(line[start:i + 1])
            start = i + 2
    items.append(line[start:])
    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    out = [items[0]]
    for item in items[1:]:
        if len(out[-1]) + 1 + len(item) <= WIDTH - 2:
            out[-1] += " " + item
        else:
            out.append(indent + item)
    return out


def knob_lines(parent: dict) -> list[str]:
    """Every top-level key of the resolved parent (but its name and description) with its value; a map
    one level deeper, so each pile group is one line with all its keys."""
    lines: list[str] = []
    for key, value in parent.items():
        if key in ("game", "description"):
            continue
        if key == "modifiers" and isinstance(value, dict):
            lines += _wrapped(f"  modifiers: {knob(value)}")
        elif isinstance(value, dict) and value:
            lines.append(f"  {key}:")
            for sub, v in value.items():
                lines += _wrapped(f"    {sub}: {knob(v, sub)}")
        else:
            lines += _wrapped(f"  {key}: {knob(value, key)}")
    return lines


# ---- examples of an override, a change and the modifiers, in the file's syntax -----------------------------
def _plain_word(name: str) -> bool:
    from kallisti.grammar.rules_writer import _WORD, STATEMENT_WORDS

    return bool(_WORD.fullmatch(name)) and name not in STATEMENT_WORDS


def _example_group(parent: dict) -> str | None:
    """The group the examples edit: a tableau, else one that is not where the win gathers the cards
    (forbidding kings on a foundation would make an unwinnable game)."""
    piles = parent.get("piles") or {}
    groups = [(name, g) for name, g in piles.items() if isinstance(g, dict)]
    for wanted in (lambda g: g.get("role") == "tableau", lambda g: g.get("role") not in ("foundation", "discard")):
        for name, group in groups:
            if wanted(group):
                return name
    return next(iter(piles), None)


def override_example(parent: dict, syntax: str) -> list[str]:
    """Lines that, uncommented, override one key of the parent with its present value."""
    from kallisti.model.yaml_writer import key_text, scalar

    group = _example_group(parent)
    if group is not None:
        count = parent["piles"][group].get("count", 1)
        if syntax == "rules":
            if _plain_word(group):
                return [f"{group}: {count} pile{'' if count == 1 else 's'}"]
            return [f"set piles.{group}.count {count}"]
        return ["piles:", f"  {key_text(group, True)}: {{count: {count}}}"]
    score = parent.get("score", 0)
    if syntax == "rules":
        return [f"score {score}"]
    return [f"score: {scalar(score)}"]


def change_example(parent: dict, syntax: str) -> list[str] | None:
    """Lines that, uncommented, add a forbid clause to a pile group's build rule."""
    group = _example_group(parent)
    if group is None:
        return None
    if syntax == "rules":
        where = f"{group}.build" if _plain_word(group) else f"piles.{group}.build"
        return ["changes:", f'    forbid {where} "No kings": card.rank == last']
    return ["changes:", f"  - forbid: piles.{group}.build", "    id: no-kings", "    expr: card.rank == last"]


def modifier_lines(parent: dict, syntax: str) -> list[str]:
    """For each modifier, the change that turns it off (or on, when the parent has it off), with its name."""
    modifiers = parent.get("modifiers") or {}
    if not modifiers:
        return []
    lines = ["changes:"]
    for mid, modifier in modifiers.items():
        enabled = "false" if modifier.get("enabled", True) else "true"
        name = modifier.get("name") or mid
        if syntax == "rules":
            lines.append(f"    set modifiers.{mid}.enabled {enabled}  # {name}")
        else:
            lines.append(f"  - {{set: modifiers.{mid}.enabled, value: {enabled}}}  # {name}")
    return lines


def variant_comments(parent: dict, ref: str, syntax: str) -> list[str]:
    """The comment lines after the variant's keys (without their leading `# `)."""
    name = parent.get("game", ref)
    lines = [f"What {name} has now (`kallisti show {ref}` gives its rules in full):"]
    lines += knob_lines(parent)
    lines += ["", "Override a key by writing it here, e.g."]
    lines += override_example(parent, syntax)
    change = change_example(parent, syntax)
    if change:
        lines += ["", "Add a clause to a rule (or remove or replace one, by its id) under `changes:`, e.g."]
        lines += change
    mods = modifier_lines(parent, syntax)
    if mods:
        lines += ["", "Turn a modifier off (or on) by its line under `changes:`:"]
        lines += mods
    return lines


# ---- the file --------------------------------------------------------------------------------------
def variant_data(parent: dict, extends: str, ref: str, title: str, syntax: str, file: str = "FILE"):
    """The new file's data, its comments attached (as the readers keep them)."""
    from kallisti.located import LDict

    data = LDict()
    data["extends"] = extends
    data["game"] = title
    data["description"] = f"A variant of {parent.get('game', ref)}; say here how it differs."
    data.comments["extends"] = [f"{title}: a variant of {parent.get('game', ref)}. Check it with `kallisti validate {file}`."]
    data.comments[""] = variant_comments(parent, ref, syntax)
    return data


def _refuse(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def _extends_ref(game: str, parent_path: Path, out: Path) -> str:
    """What the new file's `extends` says: the shipped game's name, or the parent's path relative to the
    new file's folder (which must hold it, at any depth)."""
    from kallisti.model.loader import shipped_games

    if game in shipped_games():
        return game
    folder = out.resolve().parent
    target = parent_path.resolve()
    if folder not in target.parents:
        _refuse(f"'{out}' must be in the folder of '{game}' or above it: `extends` names a file by its path "
                f"from the extending file's folder, never outside it (use --output)")
    return Path(os.path.relpath(target, folder)).as_posix()


def _comparable(rules) -> dict:
    data = rules.plain()
    data.pop("game", None)
    data.pop("description", None)
    return data


def new(
    name: str = typer.Argument(..., metavar="NAME", help="The variant's name: `my-thieves` writes my-thieves.yaml for a game called My Thieves."),
    game: str = typer.Option(..., "--from", metavar="GAME", help="The game it extends: a shipped game's name (see `kallisti list`) or a ruleset file."),
    output: Path = typer.Option(None, "-o", "--output", metavar="FILE", dir_okay=False,
                                help="The file to write (default NAME.yaml, or NAME.rules with --syntax rules)."),
    syntax: Syntax = typer.Option(None, "--syntax", help="yaml or rules; by default from the output file's extension, else yaml."),
    force: bool = typer.Option(False, "--force", help="Overwrite the file if it exists."),
) -> None:
    """Write a variant of GAME, ready to edit: `extends` GAME, a new name, and the parent's keys as comments.

    The file loads as GAME's rules under the new name.
    Exit codes: 0 written, 1 GAME unknown or invalid or the file exists (without --force), 2 usage error.
    """
    from kallisti.cli.convert import report, syntax_of, write_checked
    from kallisti.interpreter.save import write_atomic
    from kallisti.model.loader import locate
    from kallisti.model.ruleset import load_ruleset

    base = Path(name)
    if output is None:
        if base.suffix in RULESET_SUFFIXES:
            output = base
        else:
            output = base.with_name(base.name + (".rules" if syntax == Syntax.rules else ".yaml"))
    chosen = syntax.value if syntax is not None else syntax_of(output)
    if syntax_of(output) != chosen:
        want = "end in .rules" if chosen == "rules" else "not end in .rules (use .yaml)"
        raise typer.BadParameter(f"a file in the {chosen} syntax must {want}: '{output}'", param_hint="--output")
    stem = base.stem if base.suffix in RULESET_SUFFIXES else base.name
    title = title_of(stem)
    if not title.strip():
        raise typer.BadParameter("the variant needs a name", param_hint="NAME")
    if output.is_dir():
        raise typer.BadParameter(f"'{output}' is a folder", param_hint="--output")
    if not output.resolve().parent.is_dir():
        raise typer.BadParameter(f"no folder {output.resolve().parent} to write '{output}' in", param_hint="--output")
    if output.exists() and not force:
        _refuse(f"{output} exists; not overwritten (use --force to replace it)")

    try:
        parent_path = locate(game)
        parent = load_ruleset(parent_path)
    except KallistiError as exc:
        report(exc.findings)
        raise typer.Exit(1)
    extends = _extends_ref(game, parent_path, output)
    try:
        data = variant_data(parent.plain(), extends, game, title, chosen, str(output))
        text = write_checked(data, chosen, str(output))
        child = load_ruleset(output, text)
    except KallistiError as exc:
        report(exc.findings)
        typer.echo(f"{output}: not written", err=True)
        raise typer.Exit(1)
    if _comparable(child) != _comparable(parent) or child.name != title:
        _refuse(f"{output}: not written: the variant would not load as {parent.name}'s rules")
    write_atomic(output, text)
    typer.echo(f"wrote {output} ({chosen}): {title}, a variant of {parent.name}; edit it, then "
               f"`kallisti validate {output}`", err=True)
