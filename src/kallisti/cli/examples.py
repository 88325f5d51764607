"""Examples for each command's `--help`: (the command line, what it does), the first the commonest use."""

from __future__ import annotations

EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "list": (("kallisti list", "the shipped games, with the name `play` and `show` take"),),
    "show": (
        ("kallisti show maria", "the rules of Maria, for a player"),
        ("kallisti show spider --format md -o spider.md", "Spider's rule book in Markdown"),
        ("kallisti show --all --format html -o book/", "every game's rule book and an index"),
    ),
    "play": (
        ("kallisti play forty-thieves -s 7", "play Forty Thieves, deal 7 (type `help` in the game)"),
        ("kallisti play freecell --deal ms:11982", "Microsoft FreeCell's deal 11982"),
        ("kallisti play discordian --players ann,bot", "a match of Discordian Solitaire against a bot"),
        ("kallisti play game.sav", "go on from a save written by `save game.sav`"),
    ),
    "validate": (
        ("kallisti validate my-variant.yaml", "check a ruleset: exit 0 valid, 1 invalid"),
        ("kallisti validate rulesets/ --strict --format github", "every ruleset in a folder, warnings failing, for CI"),
    ),
    "simulate": (
        ("kallisti simulate lucas -n 200 --strategy greedy", "the greedy strategy's win rate over deals 1 to 200"),
        ("kallisti simulate freecell --strategy solver -n 1000 -j 2 --resume fc.jsonl",
         "how many deals can be won, in two processes, resumable"),
    ),
    "convert": (
        ("kallisti convert maria --to yaml", "Maria's ruleset in YAML"),
        ("kallisti convert mine.yaml --to rules -o mine.rules", "a ruleset file in the .rules syntax"),
    ),
    "fmt": (
        ("kallisti fmt mine.yaml", "rewrite a ruleset file in its canonical layout"),
        ("kallisti fmt --check rulesets/*.yaml", "list the files that would change (exit 1 if any)"),
    ),
    "schema": (("kallisti schema -o ruleset.schema.json", "the JSON Schema of ruleset files, for an editor"),),
    "hand": (
        ('kallisti hand onion "2C 2D 3S 4H 4C 6H 7C KS KD AS"', "the best groupings of one Cripple Mr Onion hand"),
        ('kallisti hand onion "2C 2D 3S 4H 4C 6H 7C KS KD AS" "AH KH QH JH 10H 9H 8H 7H 6H 5H" -m lady',
         "a showdown of two hands, the Lady in play"),
    ),
    "new": (
        ("kallisti new mine --from maria", "start mine.yaml, a variant of Maria, with its keys as comments"),
        ("kallisti new mine --from spider --syntax rules", "the same in the .rules syntax"),
    ),
    "check": (
        ("kallisti check rulesets/ -n 100", "play-test every ruleset in a folder on deals 1 to 100"),
        ("kallisti check mine.yaml -s 500 --format json", "play-test one file from deal 500, for a program"),
    ),
    "solve": (
        ("kallisti solve forty-thieves -s 5", "search deal 5 for a win and print its moves"),
        ("kallisti solve forty-thieves -s 5 | kallisti play forty-thieves -s 5", "find a win, then replay it"),
        ("kallisti solve spider -s 3 --beam 2000", "a beam search, for a game too large to search whole"),
    ),
    "report": (
        ("kallisti report -n 200 out/", "solve deals 1 to 200 of every patience; write out/winnability.md and .svg"),
        ("kallisti report -n 1000 --at-least 100 --game maria out/", "Maria only, 1000 deals where they are cheap"),
    ),
    "serve": (
        ("kallisti serve", "play in the browser at http://127.0.0.1:8000/"),
        ("kallisti serve discordian --port 8080", "open Discordian Solitaire first, on port 8080"),
    ),
    "stats": (
        ("kallisti stats", "the statistics of every game played"),
        ("kallisti stats forty-thieves --format json", "one game's, for a program"),
    ),
}
