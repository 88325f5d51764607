"""Load ruleset files: YAML with positions, the file schema, `extends` chains, defaults and macros."""

from __future__ import annotations

import errno
import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.located import MAX_FINDINGS, LDict, LList, copy, located, position_at
from kallisti.model.macros import expand_rule
from kallisti.model.patch import RULE_KEYS, additions_to_patches, apply_patch, overrides_to_patches
from kallisti.schema import validator_class
from kallisti.textfiles import line_column
from kallisti.unsafe import char_name, unsafe_char

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
MAX_EXTENDS_DEPTH = 8
MAX_CLAUSES = 500  # clauses of all pile rules together: counted here before any is compiled, and by the Ruleset
SHOWN_KEYS = 5  # unknown keys one finding names (a map may hold a thousand)

FRENCH_SUITS = [
    {"name": "clubs", "symbol": "♣", "letter": "C", "color": "black"},
    {"name": "diamonds", "symbol": "♦", "letter": "D", "color": "red"},
    {"name": "hearts", "symbol": "♥", "letter": "H", "color": "red"},
    {"name": "spades", "symbol": "♠", "letter": "S", "color": "black"},
]
STANDARD_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
GROUP_DEFAULTS = {"count": 1, "deal": [], "build": "none", "empty": "none", "take": "top card", "sequence": "any",
                  "dealing": "any", "flip": True, "top_face_up": False, "redeals": 0}
TOP_DEFAULTS = {"description": "", "auto": [], "compulsory": [], "lose": [], "score": "0", "honour": {}}
MATCH_DEFAULTS = {"pack": "per-seat", "start_score": 0, "equal_turns": True, "both_over": "higher-loses", "max_turns": 1000,
                  "player_x": {"changes": 0, "revoke": False}}


@dataclass
class Source:
    """One file that went into a ruleset: its name, text and hash (saves record these)."""

    name: str
    text: str
    warnings: tuple = ()  # findings read in the text itself (a comment that cuts a text short), as Findings

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()


def shipped_games() -> dict[str, Path]:
    """The shipped rulesets, by name (the file name without its extension)."""
    return {p.stem: p for p in sorted(list(RULESETS.glob("*.yaml")) + list(RULESETS.glob("*.rules")))}


def names_a(path: Path, kind: str = "file") -> bool:
    """Whether `path` names a regular file (`kind` "file") or a folder ("dir"). A name the system cannot look up
    names neither: Path.is_file() takes a missing file for False, but passes on ENAMETOOLONG (`extends: aaa…`)."""
    try:
        return path.is_file() if kind == "file" else path.is_dir()
    except (OSError, ValueError):
        return False


def locate(ref: str) -> Path:
    """A game name or a path to a ruleset file."""
    games = shipped_games()
    if ref in games:
        return games[ref]
    path = Path(ref)
    if names_a(path):
        return path
    raise KallistiError(Finding("unknown-game", f"no shipped game or file named '{ref}'", Pos(ref),
                                suggestion=did_you_mean(ref, games) or "`kallisti list` shows the shipped games"))


def parse_file(path: Path, text: str | None = None, warnings: list | None = None):
    """Read a ruleset file (YAML, or the .rules syntax by its extension) into located plain data; the warnings its text
    gives (a YAML comment that cuts a text short) are added to `warnings` when it is given."""
    from kallisti.located import load_yaml

    if text is None:
        from kallisti.textfiles import MAX_FILE_BYTES
        from kallisti.textfiles import read_text

        text = read_text(path, MAX_FILE_BYTES, "the ruleset file", "file")
    refuse_unsafe_text(text, str(path))
    if path.suffix == ".rules":
        from kallisti.grammar.rules_front import parse_rules

        data = parse_rules(text, str(path))
    else:
        data = load_yaml(text, str(path), warnings)
    if not isinstance(data, dict):
        raise KallistiError(Finding("not-a-ruleset", "a ruleset file must be a map of keys", Pos(str(path), 1, 1)))
    refuse_unsafe_strings(data)
    return data, text


# Keys whose strings are expressions (or macro phrases, or the paths of changes): parse_expression refuses an
# unsafe character in an expression as `expr-control-char`, and a path or phrase holding one names nothing.
EXPRESSION_KEYS = frozenset({"require", "forbid", "expr", "when", "win", "score", "prefill", "reveal", *RULE_KEYS})


def refuse_unsafe_text(text: str, source: str) -> None:
    """Refuse raw text holding a control character or a bidirectional control anywhere, comments included: a
    reviewer reads the text of a ruleset in a pull request, and a terminal or CI log prints it."""
    bad = unsafe_char(text)
    if bad is not None:
        line, column = line_column(text, bad)
        raise KallistiError(Finding("control-char", f"the text holds the control character {char_name(text[bad])}",
                                    Pos(source, line, column), suggestion="delete it; write text without control characters"))


def refuse_unsafe_strings(data) -> None:
    """Refuse a key or string value holding an unsafe character once escapes are read (YAML's `"\\e"`, a .rules
    text's `"\\u202e"`): names, ids, `says`, descriptions and symbols are printed as they are."""
    for path, value in _strings(data, ()):
        bad = unsafe_char(value)
        if bad is not None:
            pos = position_at(data, list(path)) or Pos("<ruleset>")
            raise KallistiError(Finding("control-char", f"{'.'.join(map(str, path)) or 'a key'} holds the control character "
                                        f"{char_name(value[bad])}", pos, suggestion="write text without control characters"))


def _strings(node, path: tuple):
    """(path, text) for every key and string value below `node`, but the strings of EXPRESSION_KEYS."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,), str(key)
            if key in EXPRESSION_KEYS and isinstance(value, str):
                continue
            yield from _strings(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _strings(item, path + (i,))
    elif isinstance(node, str):
        yield path, node


@functools.lru_cache(maxsize=None)
def _validator(kind: str):
    from kallisti.schema import schema

    return validator_class()(schema(kind))


def schema_findings(data, kind: str, default: Pos, base=None) -> list[Finding]:
    """Every schema violation, each at the position of the node it concerns; past MAX_FINDINGS of them, one
    `more-errors` finding says how many more there are. The sizes of lists and maps are checked first
    (model/sizes.py), so the validator only ever judges data of a bounded size.

    `base`, when given, is data that passed this schema and that `data` was made from, sharing every part it did not
    change (a rule change's `apply_all`): only the parts of `data` that are not the base's own are judged
    (model/schema_changes.py), and the findings are those of judging the whole."""
    from jsonschema.exceptions import best_match

    from kallisti.model.schema_changes import changed_errors
    from kallisti.model.sizes import refuse_oversized

    oversized = refuse_oversized(data, kind, default, base)
    if oversized is not None:
        return [oversized]
    validator = _validator(kind)
    findings = []
    errors = validator.iter_errors(data) if base is None else changed_errors(validator, data, base)
    for err in sorted(errors, key=lambda e: list(map(str, e.absolute_path))):
        best = best_match([err])
        path = list(best.absolute_path)
        pos = position_at(data, path, default) or default
        if best.validator == "additionalProperties" and isinstance(best.instance, LDict):
            extra = sorted(set(best.instance) - set(best.schema.get("properties", {})))
            if extra and extra[0] in best.instance.key_pos:
                pos = best.instance.key_pos[extra[0]]  # point at the unknown key itself
        where = ".".join(str(p) for p in path) or "the ruleset"
        findings.append(Finding("schema", f"{where}: {schema_message(best)}", pos, suggestion=schema_suggestion(best)))
    return cap_findings(findings)


def cap_findings(findings: list[Finding]) -> list[Finding]:
    """The first MAX_FINDINGS findings, then one `more-errors` finding at the first of the others, saying how many
    there are."""
    if len(findings) <= MAX_FINDINGS:
        return findings
    more = len(findings) - MAX_FINDINGS
    return findings[:MAX_FINDINGS] + [Finding(
        "more-errors", f"and {more:,} more error{'s' if more > 1 else ''}, the first of them here: "
        f"{findings[MAX_FINDINGS].code}", findings[MAX_FINDINGS].pos, suggestion="fix the errors above first")]


def schema_message(err) -> str:
    """A JSON Schema error in the words kallisti's findings use."""
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        named = ", ".join(map(repr, extra[:SHOWN_KEYS])) + (f" and {len(extra) - SHOWN_KEYS:,} more"
                                                             if len(extra) > SHOWN_KEYS else "")
        return f"unknown key{'s' if len(extra) > 1 else ''} {named}"
    if err.validator == "required":
        return err.message.replace("is a required property", "is required")
    if err.validator in ("maxItems", "maxProperties"):  # a limit: say it in numbers, never print the whole value
        return f"{len(err.instance)} {'items' if err.validator == 'maxItems' else 'keys'}; at most {err.validator_value}"
    if err.validator in ("oneOf", "anyOf"):
        options = [sorted(o["required"]) for o in err.validator_value if set(o) == {"required"}]
        if len(options) == len(err.validator_value) and isinstance(err.instance, dict):
            # Alternatives that differ only in their required keys: name them instead of printing the value.
            return "needs " + ", or ".join(" and ".join(f"`{k}`" for k in keys) for keys in options)
        return f"{err.instance!r} is not valid here"
    return err.message


def schema_suggestion(err) -> str | None:
    """A suggestion for a JSON Schema error: the close key or value, or the choices."""
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return did_you_mean(extra[0], err.schema.get("properties", {})) if extra else None
    if err.validator == "enum":
        return did_you_mean(err.instance, err.validator_value) or f"one of {', '.join(map(str, err.validator_value))}"
    return None


def normalise(data: LDict) -> LDict:
    """Fill defaults and expand rule macros, so a resolved ruleset is complete and every rule is a clause list."""
    pos = data.pos or Pos("<ruleset>")
    for key, value in TOP_DEFAULTS.items():
        if key not in data:
            data[key] = located(value, pos)
    deck = data.get("deck")
    if deck is None:
        deck = data["deck"] = located({}, pos)
    if isinstance(deck, dict):
        for key, value in (("packs", 1), ("ranks", STANDARD_RANKS), ("suits", FRENCH_SUITS), ("values", {}), ("marks", {}), ("wild", []),
                           ("shuffle", "always")):
            if key not in deck:
                deck[key] = located(value, deck.pos or pos)
        if isinstance(deck.get("ranks"), list):
            deck["ranks"] = LList([str(r) for r in deck["ranks"]], pos=deck["ranks"].pos if isinstance(deck["ranks"], LList) else pos) \
                if not all(isinstance(r, str) for r in deck["ranks"]) else deck["ranks"]
    match = data.get("match")
    if isinstance(match, dict):
        for key, value in MATCH_DEFAULTS.items():
            if key not in match:
                match[key] = located(value, match.pos or pos)
        if isinstance(match.get("player_x"), dict):
            for key, value in MATCH_DEFAULTS["player_x"].items():
                match["player_x"].setdefault(key, value)
    hands = data.get("hands")
    if isinstance(hands, dict):
        from kallisti.model.hands import normalise_hands  # it imports the compiler: only for the games that have hands

        normalise_hands(hands, pos, located)
    for modifier in (data.get("modifiers") or {}).values():
        if isinstance(modifier, dict):
            modifier.setdefault("enabled", True)
    piles = data.get("piles")
    if isinstance(piles, dict):
        used_tags = {g.get("tag") for g in piles.values() if isinstance(g, dict)}
        for name, group in piles.items():
            if not isinstance(group, dict):
                continue
            gpos = group.pos if isinstance(group, LDict) else pos
            for key, value in GROUP_DEFAULTS.items():
                if key not in group:
                    group[key] = located(value, gpos)
            if "role" not in group:
                group["role"] = name if name in ("tableau", "foundation", "stock", "waste", "reserve", "cell", "line", "field") else "tableau"
            if "tag" not in group:
                group["tag"] = _free_tag(name, used_tags)
                used_tags.add(group["tag"])
            for key in RULE_KEYS:
                if key not in group:
                    continue  # `discard` has no default: a group without it discards nothing
                rule = group[key]
                if not (isinstance(rule, list) and all(isinstance(c, dict) for c in rule)):
                    where = f"piles.{name}.{key}"
                    group[key] = expand_rule(rule, position_at(group, [key]), where)
    return data


def _free_tag(name: str, used: set) -> str:
    for cand in (name[0], name[:2], name[:3]):
        if cand.isalpha() and cand.islower() and cand not in used:
            return cand
    for letter in "abcdefghijklmnopqrstuvwxyz":
        if letter not in used:
            return letter
    return "x"


def resolve(ref: str | Path, text: str | None = None, _chain: tuple = (), checked: bool = True) -> tuple[LDict, list[Source]]:
    """The resolved data of a ruleset file (its `extends` chain applied) and the sources it came from; `checked`
    False skips the schema, for texts a load has found clean before (model/clean_loads.py)."""
    path = Path(ref) if text is not None or isinstance(ref, Path) else locate(str(ref))
    key = str(path.resolve()) if text is None else str(path)
    if key in _chain:
        raise KallistiError(Finding("extends-cycle", "`extends` leads back to this file: " + " -> ".join(Path(c).name for c in _chain + (key,)), Pos(str(path))))
    if len(_chain) >= MAX_EXTENDS_DEPTH:
        raise KallistiError(Finding("extends-depth", f"`extends` chain longer than {MAX_EXTENDS_DEPTH}", Pos(str(path))))
    warnings: list[Finding] = []
    data, text = parse_file(path, text, warnings)
    findings = schema_findings(data, "file", Pos(str(path), 1, 1)) if checked else []
    if findings:
        raise KallistiError(findings + warnings)
    sources = [Source(str(path), text, tuple(warnings))]
    parent_ref = data.get("extends")
    if parent_ref is None:
        base = LDict(pos=data.pos)
        for key_, value in data.items():
            if key_ in ("add", "changes"):
                continue
            base[key_] = value
            base.key_pos[key_] = data.key_pos.get(key_)
            base.value_pos[key_] = data.value_pos.get(key_)
        if "add" in data:
            raise KallistiError(Finding("add-without-extends", "`add:` is for files that extend another", data.key_pos["add"]))
        resolved = normalise(base)
        patches = []
    else:
        extends_pos = data.value_pos.get("extends") or data.pos
        parent_path = _parent_path(path, str(parent_ref), extends_pos)
        if str(parent_path.resolve()) in _chain + (key,):
            names = [Path(c).name for c in _chain + (key,)] + [parent_path.name]
            raise KallistiError(Finding("extends-cycle", "`extends` leads back to a file already in the chain: " + " -> ".join(names),
                                        extends_pos))
        if len(_chain) + 1 >= MAX_EXTENDS_DEPTH:
            raise KallistiError(Finding("extends-depth", f"`extends` chain longer than {MAX_EXTENDS_DEPTH}", extends_pos))
        parent_text = _parent_text(parent_path, str(parent_ref), extends_pos)
        try:
            parent, parent_sources = resolve(parent_path, parent_text, _chain + (key,), checked)
        except KallistiError as exc:
            if not _chain and exc.findings and exc.findings[0].code == "extends-cycle":
                # Report a cycle in the file being loaded, at its own `extends`, where its author looks.
                raise KallistiError(Finding("extends-cycle", exc.findings[0].message, extends_pos)) from None
            raise
        sources = parent_sources + sources
        overrides = LDict(pos=data.pos)
        for key_, value in data.items():
            if key_ not in ("extends", "add", "changes"):
                overrides[key_] = value
                overrides.key_pos[key_] = data.key_pos.get(key_)
                overrides.value_pos[key_] = data.value_pos.get(key_)
        patches = overrides_to_patches(overrides, parent)
        if "add" in data:
            patches += additions_to_patches(data["add"], parent)
        resolved = parent
    for patch in list(patches) + list(data.get("changes", [])):
        resolved = apply_patch(resolved, patch, normalise)
    resolved.pos = data.pos
    findings = schema_findings(resolved, "resolved", Pos(str(path), 1, 1)) if checked else []
    if findings:
        raise KallistiError(findings)
    _refuse_too_many_clauses(resolved, data, path)
    return resolved, sources


def chain_texts(ref: str | Path, text: str | None = None) -> list[str]:
    """The text of a ruleset file and of each file its `extends` chain reads, in that order: read and parsed, not
    checked (what model/clean_loads.py hashes). A fault on the way raises, as `resolve` would."""
    path = Path(ref) if text is not None or isinstance(ref, Path) else locate(str(ref))
    texts: list[str] = []
    while len(texts) <= MAX_EXTENDS_DEPTH:  # a longer chain, or a cycle, is refused by `resolve`
        data, text = parse_file(path, text)
        texts.append(text)
        parent_ref = data.get("extends")
        if parent_ref is None:
            break
        pos = data.value_pos.get("extends") or data.pos
        path = _parent_path(path, str(parent_ref), pos)
        text = _parent_text(path, str(parent_ref), pos)
    return texts


def _refuse_too_many_clauses(resolved: LDict, data: LDict, path: Path) -> None:
    """Count the clauses of every pile rule before any is compiled: the Ruleset counts them too, but only after
    compiling them all, and a file of thousands of clauses would cost minutes before that count refused it."""
    piles = resolved.get("piles") or {}
    total = sum(len(group[key]) for group in piles.values() if isinstance(group, dict)
                for key in RULE_KEYS if isinstance(group.get(key), list))
    if total > MAX_CLAUSES:
        where = next((data.key_pos[k] for k in ("piles", "changes", "add") if k in data.key_pos), Pos(str(path), 1, 1))
        raise KallistiError(Finding("too-many-clauses", f"{total} clauses; at most {MAX_CLAUSES}", where))


def _filesystem_reason(exc: Exception) -> str:
    """Why the system could not follow a path, in words."""
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
        return "following it goes round a loop of symbolic links"
    return str(getattr(exc, "strerror", None) or exc)


def _parent_text(path: Path, ref: str, pos: Pos) -> str:
    """The text of the file `extends: ref` names, read with the limits of any ruleset file; a file that cannot be
    read (access denied, an I/O error, gone since it was found) is a finding at the value of `extends`, where its
    author looks."""
    from kallisti.textfiles import MAX_FILE_BYTES
    from kallisti.textfiles import read_text

    try:
        return read_text(path, MAX_FILE_BYTES, "the ruleset file", "file")
    except KallistiError as exc:
        unreadable = exc.findings[0]
        if unreadable.code != "file-unreadable":
            raise  # too large, or not UTF-8: a finding in that file, where it is
        raise KallistiError(Finding("file-unreadable", f"`extends: {ref}`: {unreadable.message}", pos)) from None


def _parent_path(path: Path, ref: str, pos: Pos) -> Path:
    """A shipped game's name, or a path relative to the extending file's folder: never absolute, never outside it."""
    games = shipped_games()
    if ref in games:
        return games[ref]
    if Path(ref).is_absolute() or ref.startswith("~"):
        raise KallistiError(Finding("extends-path", f"`extends: {ref}` is an absolute path; name a shipped game or a path relative to this file", pos))
    try:
        folder = path.resolve().parent
        target = (folder / ref).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # RuntimeError: a loop of symbolic links (before Python 3.13)
        raise KallistiError(Finding("unknown-game", f"`extends: {ref}` names no file that can be reached: "
                                    f"{_filesystem_reason(exc)}", pos)) from None
    if folder not in target.parents:
        raise KallistiError(Finding("extends-path", f"`extends: {ref}` leaves this file's folder", pos))
    try:
        os.stat(target)  # a loop met only here on Python 3.13, whose resolve() no longer raises for one
    except FileNotFoundError:
        pass  # named below, with the closest game's name
    except (OSError, ValueError) as exc:
        raise KallistiError(Finding("unknown-game", f"`extends: {ref}` names no file that can be reached: "
                                    f"{_filesystem_reason(exc)}", pos)) from None
    if not names_a(target):
        raise KallistiError(Finding("unknown-game", f"`extends: {ref}` names no shipped game and no file", pos,
                                    suggestion=did_you_mean(ref, games)))
    return target
