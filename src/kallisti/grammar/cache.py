"""Built parsers kept between runs: each LALR parser's tables as JSON in the user's cache folder, keyed by its grammar.

Building the `.rules` parser costs about half a second and the expression parser a tenth; loading the tables a build
left costs a few milliseconds. The tables are written as JSON, never pickled: reading a cache file can at worst give
a wrong parser, never run code. And they are read only from a folder the user owns and no one else may write to
(`$XDG_CACHE_HOME/kallisti`, by default `~/.cache/kallisti`), and only from a regular file the user owns, opened
without following a link. The key, in the file's name and again inside it, covers the text of every grammar file and
the versions of kallisti, Lark and Python: an edited grammar is built afresh. A file that is missing, unreadable,
stale or broken is passed over silently and the parser built as if there were no cache; the new tables then take its
place at once (a temporary file renamed over it), and the oldest files of a grammar beyond the newest few are
deleted. `KALLISTI_NO_CACHE=1` turns the cache off, and it is off where the system has no user ids (POSIX only).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

# The cache folder and its files, read and written under its rules (kallisti/user_cache.py).
from kallisti.user_cache import NO_CACHE, cache_folder, read_owned, write_owned  # noqa: F401

HERE = Path(__file__).resolve().parent
FORMAT = 1  # the layout of a cache file: a new one makes every key new
KEPT_PER_GRAMMAR = 4  # files of one grammar kept, the newest: two checkouts of different grammars take turns freely
_TUPLE, _PAIRS, _TOKEN = "(", "{", "'"  # JSON has no tuples, no keys but strings, no Lark tokens: these are tagged


def lark_parser(grammar: str, **options):
    """The Lark parser of the grammar file `grammar` (in this folder, where its `%import`s are too) built with
    `options`: loaded from the cache when it holds the tables of the same grammar, else built and kept there."""
    folder = cache_folder()
    if folder is None:
        return _build(grammar, options)
    key = _key(grammar, options)
    stem = Path(grammar).stem
    name = f"lark-{stem}-{key[:32]}.json"
    parser = _load(folder / name, key)
    if parser is None:
        parser = _build(grammar, options)
        _save(folder, name, key, parser, stem)
    return parser


def _key(grammar: str, options: dict) -> str:
    """The hash of everything the tables depend on: the grammar files, the options, the versions and the layout."""
    import lark

    from kallisti import __version__

    grammars = {p.name: p.read_text(encoding="utf-8") for p in sorted(HERE.glob("*.lark"))}
    what = [FORMAT, __version__, lark.__version__, list(sys.version_info[:2]), grammar, options, grammars]
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def _build(grammar: str, options: dict):
    from lark import Lark

    return Lark.open(grammar, rel_to=str(HERE / grammar), **options)


def _load(path: Path, key: str):
    """The parser kept at `path` under `key`, or None."""
    text = read_owned(path)
    if text is None:
        return None
    try:
        record = json.loads(text, object_hook=_decoded)
        if not isinstance(record, dict) or record.get("key") != key:
            return None
        from lark import Lark

        tables = record["tables"]
        return Lark._load_from_dict(tables["data"], tables["memo"])  # as Lark's own standalone parsers load theirs
    except Exception:  # noqa: BLE001 - whatever is wrong with a cache file, the parser is built instead
        return None


def _save(folder: Path, name: str, key: str, parser, stem: str) -> None:
    """Keep the parser's tables in `folder` under `name`, and delete the grammar's files beyond the newest
    KEPT_PER_GRAMMAR; a cache that cannot be written is left as it is (the parser is built again next time)."""
    try:
        from lark.grammar import Rule
        from lark.lexer import TerminalDef

        data, memo = parser.memo_serialize([TerminalDef, Rule])
        write_owned(folder, name, json.dumps({"key": key, "tables": _encoded({"data": data, "memo": memo})},
                                             separators=(",", ":")))
        kept = sorted(folder.glob(f"lark-{stem}-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEPT_PER_GRAMMAR:]:
            old.unlink(missing_ok=True)
    except Exception:  # noqa: BLE001 - a full disk, a read-only folder: no cache, nothing else
        pass


def _encoded(value):
    """`value` as JSON can hold it: a tuple as {"(": [items]}, a map with other keys than strings (or with a tag for
    a key) as {"{": [[key, value], ...]}, a Lark token (a rule's name from an imported grammar) as {"'": [type, text]}."""
    from lark.lexer import Token

    def encoded(v):
        if isinstance(v, Token):
            return {_TOKEN: [v.type, str(v)]}
        if isinstance(v, tuple):
            return {_TUPLE: [encoded(x) for x in v]}
        if isinstance(v, list):
            return [encoded(x) for x in v]
        if isinstance(v, dict):
            if all(type(k) is str for k in v) and not {_TUPLE, _PAIRS, _TOKEN} & v.keys():
                return {k: encoded(x) for k, x in v.items()}
            return {_PAIRS: [[encoded(k), encoded(x)] for k, x in v.items()]}
        if v is None or type(v) in (str, bool, int, float):
            return v
        raise TypeError(f"cannot keep a {type(v).__name__} in the parser cache")

    return encoded(value)


def _decoded(obj: dict):
    """The inverse of _encoded, for json.loads's object_hook (inner values come decoded already)."""
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _PAIRS in obj:
            return {k: v for k, v in obj[_PAIRS]}
        if _TOKEN in obj:
            from lark.lexer import Token

            kind, text = obj[_TOKEN]
            return Token(kind, text)
    return obj
