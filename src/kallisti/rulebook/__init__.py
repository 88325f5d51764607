"""A game's rule book, generated from the compiled ruleset so it cannot drift from the game played.

`build_book(rules)` reads the ruleset once into a small structure — a `Book` of `Section`s, each a
list of blocks: `Para` (a paragraph), `Items` (a list, each `Item` with its own sub-items) and `Part`
(a titled sub-section, such as one pile group) — and three renderers write that structure: as
plain text (`render_text`, what `kallisti show` prints), as Markdown (`render_md`) and as a
standalone HTML page (`render_html`). The prose exists once, in the builder.

The structure is in structure.py, the builder in build.py, the renderers in render.py; `kallisti show`
and the web table's summary both print it.
"""
