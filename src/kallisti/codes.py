"""Every finding code kallisti reports: its severity, the stage that reports it, and what it means."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """One finding code; docs/checks.md says more about each."""

    name: str
    severity: str  # "error" or "warning"
    stage: str  # one of STAGES
    summary: str  # one sentence: when it is reported


STAGES = ("file", "schema", "extends", "expression", "deal", "piles", "win", "hands", "table", "modifiers", "play", "change",
          "save", "command")
# Codes `validate` or `check` report for a ruleset file ("play" = kallisti check).
RULESET_STAGES = frozenset({"file", "schema", "extends", "expression", "deal", "piles", "win", "hands", "table", "modifiers",
                            "play"})

WARNINGS = frozenset({"empty-stock", "grouping-too-large", "clause-never-true", "clause-always-true", "rule-contradiction", "pile-unreachable",
                      "pile-inert", "layout-overlap", "check-rule-error", "says-rank", "lose-never-true",
                      "constant-comparison", "text-cut-by-comment"})

_SUMMARIES: dict[str, tuple[tuple[str, str], ...]] = {
    "file": (
        ("file-unreadable", "The ruleset file cannot be read (it is a folder or a device, or access is denied)."),
        ("file-too-large", "The ruleset file is larger than 1,000,000 bytes."),
        ("file-syntax", "The ruleset file is not valid UTF-8 text."),
        ("control-char", "A ruleset file or a rule change holds a control character or a bidirectional-text control, "
                         "raw or written as an escape."),
        ("number-too-long", "A number of a ruleset file or a rule change is written with more than 100 digits."),
        ("not-a-ruleset", "The file's top level is not a map of keys."),
        ("yaml-syntax", "The YAML parser refuses the text."),
        ("yaml-alias", "The YAML uses an anchor or an alias."),
        ("yaml-tag", "The YAML gives a value an explicit tag (`!!str`, `!!python/object/apply:…`)."),
        ("yaml-depth", "The YAML nests maps and lists more than 40 levels deep."),
        ("yaml-key", "A YAML key is not a plain name (a list, a map, true, null or a decimal number)."),
        ("yaml-duplicate-key", "A YAML map gives the same key twice."),
        ("text-cut-by-comment", "A ` #` ends an unquoted YAML text that is evidently prose (a `says` or `description`, "
                                "or a text of several lines), so the rest of it is read as a comment."),
        ("rules-syntax", "A line of a .rules file is not a statement or phrase of the grammar."),
        ("unclosed", "A quote or bracket of a .rules line is not closed on its line."),
        ("bad-escape", "A quoted text of a .rules file uses an escape that is not allowed."),
        ("duplicate-key", "A .rules file gives the same key, group, grouping, cripple or honour rule twice."),
        ("misplaced", "A `row` phrase of a .rules pile line does not follow a `deal` phrase."),
        ("indent-tab", "A line of a .rules file is indented with a tab."),
        ("unexpected-indent", "A line of a .rules file or rule change is indented under a line that has no block."),
        ("description-block", "A quoted `description:` of a .rules file goes on over indented lines."),
        ("too-deep", "A flow value of a .rules file nests brackets, or its lines nest blocks, more than 40 levels deep."),
        ("unknown-moment", "An honour rule of a .rules file names a moment of play that does not exist."),
        ("honour-says", "An honour rule of a .rules file does not say, in quotes, what it asks."),
        ("too-many-items", "While a ruleset file is read, a list holds more than 1,000 items, a .rules line more than "
                           "1,000 words and list items, or the file more than 20,000 values in all."),
        ("too-many-keys", "While a ruleset file is read, a map holds more than 1,000 keys."),
        ("more-errors", "A file has more errors than are reported for one file (20): one finding says how many more "
                        "there are, or where reading stopped."),
    ),
    "schema": (
        ("schema", "A key or value breaks the ruleset schema: an unknown key, a missing key, a wrong type or value."),
    ),
    "extends": (
        ("extends-path", "`extends` names an absolute path or a file outside the extending file's folder."),
        ("unknown-game", "`extends` (or a command's argument) names no shipped game and no file it can reach."),
        ("extends-cycle", "An `extends` chain leads back to a file already in it."),
        ("extends-depth", "An `extends` chain is more than 8 files long."),
        ("add-without-extends", "A file that extends nothing has an `add:` section."),
        ("unknown-override", "A variant overrides a key its parent does not have."),
        ("key-exists", "`add:` or an `add` change names a key that exists already."),
        ("unknown-path", "A change or `set` names a path that does not exist."),
        ("unknown-clause", "A `replace` or `remove` change names a clause the rule does not have."),
        ("not-a-rule", "A clause change names a path that is not a rule (a list of clauses)."),
        ("patch-shape", "A `replace` change gives both or neither of `require` and `forbid`."),
        ("patch-verb", "A change has no verb, or is a `revoke` in a file."),
    ),
    "expression": (
        ("expr-syntax", "An expression is not grammatical."),
        ("expr-type", "A part of an expression has the wrong type (a number where true/false is needed, ...)."),
        ("expr-scope", "An expression reads `movable` outside a win, lose or score condition."),
        ("unknown-name", "An expression uses a name that means nothing where it is written."),
        ("unknown-attribute", "An expression asks a card, pile, group or list for an attribute it does not have."),
        ("unknown-function", "An expression calls a function or quantifier that does not exist."),
        ("unknown-rank", "An expression, `deck.values`, a card pattern or a mark names a rank the deck does not have."),
        ("unknown-suit", "The deck, a card pattern or a modifier's card names a suit the deck does not have."),
        ("number-too-large", "A number in an expression is larger than 10^9."),
        ("expr-too-long", "An expression is longer than 2,000 characters."),
        ("expr-too-deep", "An expression nests more than 100 levels deep."),
        ("expr-control-char", "An expression holds a control character or a bidirectional-text control."),
        ("expr-too-costly", "An expression may take more steps than its bounds allow: in one evaluation, or in all the "
                            "evaluations of its rule as the ruleset loads or in one position of a game."),
        ("reserved-variable", "A quantifier's variable is named like something that already has a meaning where it is "
                              "written (`card`, `pile`, a group, a rank, an enclosing quantifier's variable)."),
    ),
    "deal": (
        ("deal-row-length", "A row of a group's `deal` given pile by pile has more or fewer letters than the group has piles."),
        ("deal-order", "A group's `deal` puts a face-down card on a face-up one."),
        ("two-rests", "More than one group takes `deal: rest`."),
        ("deal-too-large", "The deal needs more cards than the deck has (or a deal file is larger than its limit)."),
        ("deal-leftover", "The deal leaves cards over and no group takes `deal: rest`."),
        ("empty-stock", "A group turns cards (`turn`) but is dealt none."),
    ),
    "piles": (
        ("too-many-piles", "The groups have more than 400 piles in all."),
        ("too-many-clauses", "The rules of the piles have more than 500 clauses in all."),
        ("duplicate-tag", "Two pile groups have the same tag."),
        ("reserved-name", "A pile group is named like a word of the rule language."),
        ("unknown-macro", "A rule is written as a phrase that is not a rule macro."),
        ("duplicate-clause", "A rule has two clauses with the same id."),
        ("rule-error", "A rule tabulated at load fails for some pair of cards (a product beyond 10^18)."),
        ("unknown-pile", "A `turn`, `redeal`, `divert`, `refill`, `discard_to`, move pattern or layout hint names no pile group."),
        ("discard-pair", "A group has `discard` without `discard_to`, or the other way round."),
        ("turn-to-self", "A group's `turn.to` names the group itself."),
        ("duplicate-id", "Two automatic or compulsory moves have the same id."),
        ("clause-never-true", "A clause's expression is false for every card and pile top it can meet "
                              "(a require clause refuses every move; a forbid clause forbids nothing)."),
        ("clause-always-true", "A clause's expression is true for every card and pile top it can meet "
                               "(a require clause refuses nothing; a forbid clause refuses every move)."),
        ("rule-contradiction", "Each clause of a rule can hold, but together they refuse every move."),
        ("pile-unreachable", "A group is dealt no card and no rule lets a card reach it, so it stays empty all game."),
        ("pile-inert", "No rule lets a card reach or leave a group, so it keeps its dealt cards all game."),
        ("run-onto-foundation", "A run that some group may give can land on a foundation as a unit, though the "
                                "foundation's build rule refuses the run's own cards one on another."),
        ("layout-overlap", "Layout hints place two pile groups at the same row and column."),
        ("says-rank", "A clause's, pattern's or loss's `says` names a rank by its word that its expression, which names "
                      "ranks, does not name."),
    ),
    "win": (
        ("foundation-capacity", "The win needs every card on the foundations, but they cannot hold the whole deck."),
        ("win-unreachable", "The analysis proves the win can never hold (a card that can never reach the piles the win "
                            "needs, cards that can never leave a pile the win needs empty, a win that is constantly false, "
                            "a size or count compared with a number it can never reach)."),
        ("lose-never-true", "A lose condition can never hold: the sizes and counts it reads never reach the numbers it "
                            "compares them with."),
        ("constant-comparison", "A comparison in a win, lose or score expression always holds or never holds, whatever "
                                "the position (a size compared with a number beyond every size the group can have)."),
    ),
    "hands": (
        ("unknown-grouping", "A `hands` key (`of`, a cripple, `in`, `spare`) names a grouping that does not exist."),
        ("nested-multiple", "A multiple grouping (`of`) is made of another multiple grouping."),
        ("grouping-size", "A grouping's fewest cards are more than its most."),
        ("grouping-too-large", "A grouping needs more cards than a hand holds, so no hand can have it."),
        ("shift-range", "A `hands.shift` rule's `low` is more than its `high`."),
        ("no-ranked-grouping", "No grouping has a rank, so every hand scores nothing."),
    ),
    "table": (
        ("table-seats", "`table.seats` gives a fewest number of players above the most."),
        ("table-without-hands", "A ruleset with a `table` has no `hands` section."),
        ("table-hand-size", "The table's deals do not give a player exactly `hands.size` cards."),
        ("table-pack", "The most players, each drawing the most, may need more cards than the pack has."),
    ),
    "modifiers": (
        ("modifier-unknown", "A modifier's `while`, `unless`, `not_by` or `to` names no modifier."),
        ("modifier-no-declarer", "A modifier's `to` names a declarer that cannot exist."),
        ("modifier-must-asks", "A modifier declared by `must` has `replace` or `compel`, which ask a question."),
    ),
    "play": (
        ("check-exception", "`kallisti check`: an exception was raised while dealing or playing a deal."),
        ("check-conservation", "`kallisti check`: after a move the piles hold more or fewer cards than the deck."),
        ("check-all-dead", "`kallisti check`: no deal played had a legal move at its start."),
        ("check-rule-error", "`kallisti check`: a rule failed while judging a move, which was refused."),
        ("check-foundation-build", "`kallisti check`: a foundation pile holds cards its rules refuse when judged card "
                                   "by card from its base."),
    ),
    "change": (
        ("change-syntax", "A rule-change statement is not grammatical."),
        ("change-id", "A clause's quoted title in a rule change has no letter or digit to make an id of."),
        ("change-shape", "A rule change written as a map is not a patch (it needs exactly one verb)."),
        ("change-count", "A single rule change was asked for but the text holds several."),
        ("change-nothing", "A rule change leaves the rules as they were."),
        ("change-fixed", "A rule change touches a key that cannot change once a match has begun."),
        ("change-undealable", "With a rule change, a trial deal cannot be dealt."),
        ("change-error", "With a rule change, a rule fails while a trial deal is played."),
        ("change-too-many", "A player already has the most rule changes in force that a match allows, or a game or "
                            "match has made as many rule changes as a save holds."),
        ("change-endless", "With a rule change, no trial deal ends within the move cap, though all did before it."),
        ("change-left-behind", "A `replace` change leaves in its rule a clause that refuses every move a part of the "
                               "new clause newly allows."),
        ("change-moves-runs", "A rule change lets several cards leave a pile at once where one card at a time did before "
                              "(a warning shown to whoever makes it: `take` moves runs, `take_from` says which cards)."),
        ("change-no-way-back", "A rule change would leave its player able to do nothing as Player X (neither a change "
                               "nor a revoke), so it could never be revoked."),
        ("revoke-here", "A `revoke` is given where there is no match change log to take a change back from."),
        ("unknown-catalogue", "No catalogue of rule changes is shipped for the game."),
        ("catalogue-unreadable", "A catalogue of rule changes cannot be read."),
        ("catalogue-too-large", "A catalogue of rule changes is larger than its limit."),
        ("catalogue-syntax", "A catalogue of rule changes is not valid UTF-8 text."),
        ("catalogue-schema", "A catalogue of rule changes breaks its schema."),
        ("catalogue-game", "A catalogue of rule changes is for another game."),
        ("catalogue-duplicate-id", "Two entries of a catalogue of rule changes have the same id."),
    ),
    "save": (
        ("save-unreadable", "A save file cannot be read."),
        ("save-too-large", "A save file is larger than its limit."),
        ("save-syntax", "A save file is not UTF-8 JSON."),
        ("save-format", "A JSON file is not a kallisti save (no `format: kallisti-save`)."),
        ("save-version", "A save's version is newer than this kallisti reads, or no version at all."),
        ("save-checksum", "A save's content does not match its checksum, or a save that needs one has none."),
        ("save-shape", "A save lacks a part, or a part has the wrong type."),
        ("save-deal", "A save's deal is not an order of the deck's cards."),
        ("save-event", "An event or waiting change of a save cannot be replayed."),
        ("save-tampered", "A save's ruleset does not match its recorded hash."),
        ("save-control-char", "A text of a save holds a control character, a bidirectional-text control or invalid "
                              "Unicode (a lone surrogate)."),
        ("save-too-many-events", "A save holds more events, or more rule changes among them, than a save may."),
        ("save-overwrite", "`save FILE` names a file that is not a kallisti save, which saving would replace."),
    ),
    "command": (
        ("convert-unwritable", "`kallisti convert`: the ruleset cannot be written in the other syntax."),
        ("convert-loss", "`kallisti convert`: the converted text would not read back as the same data and comments."),
        ("deal-unreadable", "`--deal`: the deal file cannot be read."),
        ("deal-syntax", "`--deal`: the deal file is not valid UTF-8 text."),
        ("bad-card", "A deal file or a hand names something that is not a card of the deck."),
        ("deal-too-many", "A deal file names a card more often than the deck holds it."),
        ("deal-size", "A deal file lists more or fewer cards than the deck has."),
        ("deal-short", "Dealing a game runs out of cards before every pile has its deal."),
        ("no-piles", "`kallisti play` or `simulate` is given a ruleset that has no piles (it scores hands)."),
        ("rule-runtime", "`kallisti play`: a win, lose or score rule failed at run time, so the game stops."),
        ("no-hands", "`kallisti hand` is given a ruleset that has no `hands` section."),
        ("hand-size", "`kallisti hand`: a hand holds more or fewer cards than the ruleset's hand size."),
        ("hand-too-many", "`kallisti hand`: a hand names a card more often than the deck holds it."),
        ("unknown-modifier", "`kallisti hand --modifier` names a modifier the game does not have."),
        ("not-a-match", "A match is started from a ruleset that has no `match` section."),
        ("seats", "A match is given more or fewer players than its seats."),
        ("table-players", "A table game is given more or fewer players than `table.seats` allows."),
    ),
}

CODES: dict[str, Code] = {
    name: Code(name, "warning" if name in WARNINGS else "error", stage, summary)
    for stage, entries in _SUMMARIES.items()
    for name, summary in entries
}


def ruleset_codes() -> list[str]:
    """The sorted names of the codes `validate` or `check` report for a ruleset file."""
    return sorted(name for name, code in CODES.items() if code.stage in RULESET_STAGES)
