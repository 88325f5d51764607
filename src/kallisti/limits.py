"""Every limit on the work untrusted input may cause, in one place: the table of docs/security.md is made from it.

Each limit stays a named constant in the module that enforces it (where its reason is written beside it); this
module only lists them, with what each bounds and what happens when it is reached, and reads their values from
those modules, so the table can never disagree with the code. tests/test_limits.py checks that every `MAX_*`
constant of the package is listed here and that docs/security.md holds the table as `table()` makes it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """One limit: the constant `name` of module `module`, what it bounds, and what reaching it does (a finding
    code in backquotes, or what stops)."""

    name: str
    module: str
    bounds: str
    reached: str

    @property
    def value(self) -> int:
        return getattr(importlib.import_module(self.module), self.name)


LIMITS = (
    # Reading files
    Limit("MAX_FILE_BYTES", "kallisti.textfiles", "bytes of a ruleset file (YAML or .rules), read before parsing",
          "`file-too-large`"),
    Limit("MAX_DEAL_BYTES", "kallisti.cli.play", "bytes of a `--deal` file", "`deal-too-large`"),
    Limit("MAX_COMMAND_CHARS", "kallisti.cli.command_lines", "characters of one piped command line",
          "the line is refused and skipped; play goes on"),
    Limit("MAX_SAVE_BYTES", "kallisti.interpreter.save", "bytes of a save file (`load FILE` in `play`)", "`save-too-large`"),
    Limit("MAX_SAVE_EVENTS", "kallisti.interpreter.save_log", "events of a save's log (counted before any is replayed)",
          "`save-too-many-events`, on loading and on saving"),
    Limit("MAX_SAVE_CHANGES", "kallisti.interpreter.save_log",
          "rule changes of a save's log, and those waiting for the next deal (each is checked again on loading)",
          "`save-too-many-events`, on loading and on saving; in play, a further change is `change-too-many`"),
    Limit("MAX_CATALOGUE_BYTES", "kallisti.catalogue", "bytes of a catalogue of rule changes", "`catalogue-too-large`"),
    Limit("MAX_DEPTH", "kallisti.located", "nesting of YAML maps and lists, and of .rules flow values",
          "`yaml-depth`, `too-deep`"),
    Limit("MAX_NUMBER_DIGITS", "kallisti.located", "digits of a number in a ruleset file or a rule change",
          "`number-too-long`"),
    Limit("MAX_LIST_ITEMS", "kallisti.located",
          "items of any list of a ruleset file, and words and list items of a .rules line, counted while it is read "
          "(the schema allows each list far fewer: below)", "`too-many-items`"),
    Limit("MAX_MAP_KEYS", "kallisti.located", "keys of any map of a ruleset file, counted while it is read",
          "`too-many-keys`"),
    Limit("MAX_NODES", "kallisti.located",
          "values of a ruleset file in all (YAML nodes; words and list items of .rules lines), counted while it is read",
          "`too-many-items`"),
    Limit("MAX_FINDINGS", "kallisti.located", "errors reported for one file (the schema's, a .rules file's lines')",
          "`more-errors`: how many more, or where reading stopped"),
    # The ruleset
    Limit("MAX_EXTENDS_DEPTH", "kallisti.model.loader", "files in an `extends` chain", "`extends-depth`"),
    Limit("MAX_FILE_CHANGES", "kallisti.schema", "patches under a file's `changes:`", "`schema`"),
    Limit("MAX_PILES", "kallisti.model.ruleset", "piles of all groups together", "`too-many-piles`"),
    Limit("MAX_CLAUSES", "kallisti.model.loader", "clauses of all pile rules together (counted before compiling)",
          "`too-many-clauses`"),
    Limit("MAX_CARD_VALUE", "kallisti.schema", "size of a value in `deck.values` (either sign)", "`schema`"),
    Limit("MAX_DEAL_ROWS", "kallisti.schema", "rows of a group's `deal` (`deal N face up` in a .rules file)", "`schema`"),
    Limit("MAX_VALUE_CHOICES", "kallisti.schema", "alternative values of one rank (`A: [1, 11]`)", "`schema`"),
    # Expressions
    Limit("MAX_EXPRESSION_CHARS", "kallisti.grammar.expressions", "characters of one expression", "`expr-too-long`"),
    Limit("MAX_EXPRESSION_DEPTH", "kallisti.grammar.expressions", "nesting of one expression's tree", "`expr-too-deep`"),
    Limit("MAX_INT_LITERAL", "kallisti.grammar.expressions", "a number written in an expression", "`number-too-large`"),
    Limit("MAX_QUANTIFIED_ITEMS", "kallisti.grammar.expressions",
          "items a quantifier over cards or piles is counted as going through", "`expr-too-costly`"),
    Limit("MAX_QUANTIFIER_STEPS", "kallisti.grammar.expressions",
          "body evaluations of one evaluation, at worst whatever the deck", "`expr-too-costly`"),
    Limit("MAX_EVALUATION_STEPS", "kallisti.interpreter.compiler",
          "steps of one evaluation of a rule, counted with the ruleset's own deck", "`expr-too-costly`"),
    Limit("MAX_LOAD_STEPS", "kallisti.interpreter.compiler",
          "steps of all the evaluations of one rule as a ruleset loads (tables, checks)", "`expr-too-costly`"),
    Limit("MAX_POSITION_STEPS", "kallisti.interpreter.compiler",
          "steps of all the evaluations of one rule in one position of a game", "`expr-too-costly`"),
    Limit("MAX_HISTORY_MOVES", "kallisti.interpreter.history",
          "moves since the deal a rule reads through `moves` (the most recent; `last_move` and a pile's `played` read "
          "every move)", "older moves are not read; a quantifier over them is costed at this many items"),
    Limit("MAX_INT_RESULT", "kallisti.interpreter.compiler", "a product computed by a rule (either sign)",
          "`rule-error` at load; at run time the move judged is refused (`check-rule-error`, `change-error`), and "
          "a failing win, lose or score rule stops play (`rule-runtime`)"),
    Limit("MAX_TOTALS", "kallisti.grammar.expressions", "distinct totals one `totals()` makes",
          "as `MAX_INT_RESULT`"),
    # Play
    Limit("MAX_AUTO_MOVES", "kallisti.interpreter.game", "automatic moves in a row", "the automatic moves stop"),
    Limit("TURN_MOVE_CAP", "kallisti.interpreter.match", "moves of one turn of a match", "the turn ends as it stands"),
    Limit("MAX_ACTIVE_CHANGES", "kallisti.interpreter.match", "rule changes in force on one player", "`change-too-many`"),
    Limit("TRIAL_CAP", "kallisti.interpreter.amend", "moves of a rule change's trial deal", "`change-endless`"),
    Limit("MAX_FOLLOWING", "kallisti.solver.autoplay", "moves autoplay makes after one move (safe moves home)",
          "autoplay stops; the player moves on"),
    Limit("MAX_CHECKS", "kallisti.solver.playerx", "rule changes a Player X bot checks for one decision",
          "the bot chooses among those checked"),
    Limit("MAX_VALUES_AFTER", "kallisti.solver.playerx", "settings' values a Player X bot remembers between decisions",
          "all are forgotten, and worked out again when needed"),
    Limit("MAX_BOT_ACTIONS", "kallisti.solver.bots", "actions of bots in one run, between two of a person's",
          "the bots stop acting"),
    Limit("DEFAULT_CAP", "kallisti.solver.simulate", "moves of a simulated or checked game (`--cap`)",
          "the game counts as capped"),
    Limit("MAX_STAND_INS", "kallisti.interpreter.hands", "ways wild cards of one set may stand in",
          "the hand's evaluation is incomplete"),
    # Search
    Limit("DEFAULT_STATES", "kallisti.solver.depth_first", "positions `solve` searches (`--states`)", "the verdict is unknown"),
    Limit("MAX_TABLE", "kallisti.solver.depth_first", "positions the solver remembers (`--memory`)", "the verdict is unknown"),
    Limit("HINT_STATES", "kallisti.solver.strategies", "positions a hint searches", "the greedy measure answers"),
    Limit("DEFAULT_BUDGET", "kallisti.solver.search", "positions the search bot weighs for one decision",
          "the best found so far is played"),
    Limit("MAX_CASES", "kallisti.interpreter.expr_cost", "cases the clause check tries for one rule",
          "the rule is not judged (no warning)"),
    # Memory kept between calls (caches): reaching one forgets, never refuses
    Limit("MAX_PARSED", "kallisti.grammar.expressions", "parsed expressions kept by their text", "forgotten"),
    Limit("MAX_TABLES", "kallisti.model.rule_tables", "tabulated rules kept", "forgotten"),
    Limit("MAX_SHARED_EXPRESSIONS", "kallisti.interpreter.shared_compiled",
          "compiled expressions kept for rulesets of the same cards and pile groups", "forgotten"),
    Limit("MAX_TABLE_BYTES", "kallisti.model.rule_tables",
          "bytes of the tabulated rules kept (a pair rule of the largest deck is 8.3 MB)", "the least recently used are forgotten"),
    Limit("MAX_CACHED", "kallisti.model.amended", "compiled rulesets of rule changes kept", "forgotten"),
    Limit("MAX_CACHED_BYTES", "kallisti.model.amended",
          "bytes of the rule tables of the compiled rulesets of rule changes kept",
          "the least recently used are forgotten (the last one compiled is kept)"),
    Limit("MAX_EVALUATORS", "kallisti.interpreter.table", "hand evaluators kept per base evaluator", "forgotten"),
    Limit("MAX_MEMO", "kallisti.interpreter.hands", "condition answers kept per grouping", "forgotten"),
    Limit("MAX_JUDGES", "kallisti.interpreter.hands", "groupings whose answers are shared", "forgotten"),
    Limit("MAX_RECENT", "kallisti.interpreter.hands", "whole-hand evaluations an evaluator keeps", "forgotten"),
    Limit("MAX_MEMO", "kallisti.model.clause_checks", "clause-check outcomes kept", "forgotten"),
    Limit("MAX_RUNS_KEPT", "kallisti.solver.search",
          "positions' runs, promises and settled values the search bot keeps for one deal", "forgotten"),
    Limit("MAX_RUNS_MEMO", "kallisti.interpreter.kept_verdicts",
          "piles' runs kept by their cards, per ruleset, for the positions that hold them again", "forgotten"),
    Limit("MAX_REPLAYED_STREAMS", "kallisti.interpreter.rng",
          "random streams whose draws are kept for the trial and measuring deals that read them again", "forgotten"),
    Limit("MAX_REPLAYED_DRAWS", "kallisti.interpreter.rng", "draws kept of one such stream",
          "the rest of the stream is worked out as it is read, not kept"),
    Limit("MAX_SHUFFLED_TOTALS", "kallisti.solver.search",
          "rulesets whose shuffled deals' scores the search bot's shuffling choice keeps", "forgotten"),
    Limit("MAX_MEASURES", "kallisti.solver.playerx", "Player X's measures of rules (and nastiness on the base rules) kept",
          "forgotten"),
    Limit("MAX_KEPT", "kallisti.model.clean_loads", "hashes of loads that found nothing, kept between runs",
          "the oldest are forgotten (its texts are checked once more)"),
    Limit("MAX_HEADINGS", "kallisti.cli.games", "games' headings `kallisti list` keeps between runs",
          "the oldest are forgotten (its file is read once more)"),
    # Display
    Limit("MAX_SHOWN", "kallisti.model.diff", "characters of one value in a `diff` line", "cut with `…`"),
    Limit("MAX_EXCERPT", "kallisti.errors", "characters of the source line shown under a finding",
          "cut around the caret with `…`"),
    Limit("MAX_TEXT", "kallisti.cli.new", "characters of a string listed by `kallisti new`", "cut with `…`"),
    Limit("MAX_SEED", "kallisti.cli.play", "the deal number a fresh game picks; new N takes no more digits", "the new command says what it takes"),
    Limit("MAX_PILE_CACHE", "kallisti.solver.beam", "pile values the beam search remembers",
          "forgotten (the cache starts afresh)"),
    # The web table (`kallisti serve`)
    Limit("MAX_SESSIONS", "kallisti.web.api", "games `kallisti serve` keeps in memory at once",
          "the game used least recently (and not being played) is saved and closed to make room; it comes back when "
          "next played"),
    Limit("MAX_SAVED_SESSIONS", "kallisti.web.api", "games `kallisti serve` keeps saved after closing them to make room",
          "HTTP 503 (too-many-sessions): a new game is refused, no game is closed"),
    Limit("MAX_BODY_BYTES", "kallisti.web.api", "bytes of a request body sent to `kallisti serve`",
          "HTTP 413, the request refused unread"),
    Limit("MAX_HEADER_BYTES", "kallisti.web.guard", "bytes of a request's line and headers sent to `kallisti serve`",
          "HTTP 431 (headers-too-large), or 400 (bad-http) while they are still arriving"),
)


def _number(value: int) -> str:
    return f"{value:,}"


def table() -> str:
    """The Markdown table of every limit, as docs/security.md holds it."""
    rows = ["| Constant | Module | Value | Bounds | When reached |", "| --- | --- | ---: | --- | --- |"]
    for limit in LIMITS:
        rows.append(f"| `{limit.name}` | `{limit.module}` | {_number(limit.value)} | {limit.bounds} | {limit.reached} |")
    return "\n".join(rows) + "\n"
