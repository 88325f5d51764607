"""Semantic checks on a resolved ruleset: what the schemas cannot see."""

from __future__ import annotations

from kallisti.errors import Finding, did_you_mean
from kallisti.interpreter.state import row_faces
from kallisti.model.bounds import bounds_findings
from kallisti.model.clause_checks import clause_findings
from kallisti.model.layout import group_layouts
from kallisti.model.reach import reach_findings
from kallisti.model.runs import run_findings


def semantic_findings(rules, at) -> list[Finding]:
    """Findings about deals, references, clauses and where cards can go; `at(*path)` gives a node's position."""
    findings: list[Finding] = []
    deck = rules.deck
    data = rules.data
    for rank in data["deck"].get("values", {}):
        if str(rank) not in deck.ranks:
            findings.append(Finding("unknown-rank", f"deck.values names rank '{rank}', which the deck does not have",
                                    at("deck", "values", rank)))
    dealt = 0
    overflow = None  # the group whose deal runs past the end of the pack
    rest_groups = []
    for name, g in rules.groups.items():
        if g.deal == "rest":
            rest_groups.append(name)
            continue
        rows = list(g.deal)
        for i, row in enumerate(rows):
            if row not in ("up", "down") and len(row.split()) != len(g.piles):
                findings.append(Finding("deal-row-length", f"piles.{name}.deal row {i + 1} gives {len(row.split())} letters for "
                                        f"{len(g.piles)} piles", at("piles", name, "deal", i)))
        bad_row = _face_down_on_face_up(g, rows)
        if bad_row is not None:
            findings.append(Finding("deal-order", f"piles.{name}.deal: face-down rows must come before face-up rows",
                                    at("piles", name, "deal", bad_row)))
        before = dealt
        dealt += sum(1 for row in rows for face in row_faces(g, row) if face)
        if g.prefill is not None:
            dealt += len(g.piles)
        if before <= deck.size < dealt and overflow is None:
            overflow = name
        if g.turn is not None and g.deal != "rest" and not rows:
            findings.append(Finding("empty-stock", f"piles.{name} deals cards (`turn`) but is dealt none; give it `deal: rest`",
                                    at("piles", name, "turn"), severity="warning"))
    if not rules.groups:
        return findings  # a ruleset that only scores hands deals nothing
    if len(rest_groups) > 1:
        findings.append(Finding("two-rests", f"only one group may take the rest of the pack ({', '.join(rest_groups)} do)",
                                at("piles", rest_groups[1], "deal")))
    if dealt > deck.size:
        findings.append(Finding("deal-too-large", f"the deal needs {dealt} cards; the deck has {deck.size} (piles.{overflow} runs past its end)",
                                at("piles", overflow, "deal")))
    elif dealt < deck.size and not rest_groups:
        findings.append(Finding("deal-leftover", f"the deal uses {dealt} of {deck.size} cards and no group takes `deal: rest`",
                                at("piles"), suggestion="give the stock `deal: rest`"))
    for name, g in rules.groups.items():
        if g.turn is not None and g.turn["to"] == name:
            findings.append(Finding("turn-to-self", f"piles.{name}.turn.to names the pile itself", at("piles", name, "turn", "to")))
    ids = [p.id for p in rules.auto] + [p.id for p in rules.compulsory]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        findings.append(Finding("duplicate-id", f"two automatic or compulsory moves share the id '{dup}'", at("auto")))
    findings += run_findings(rules, at)
    reached = reach_findings(rules, at)
    return findings + clause_findings(rules, at) + reached + bounds_findings(rules, at, {f.code for f in reached})


def layout_findings(rules, at) -> list[Finding]:
    """The layout hints (`layout`): each must name a pile group (`unknown-pile`, at its name), and no two groups may
    end up at the same row and column once the hints are laid over the automatic layout (`layout-overlap`)."""
    hints = rules.data.get("layout")
    if not isinstance(hints, dict) or not hints:
        return []

    def name_at(name):  # the hint's name (its key), where a flow map would give the `{` of its value
        key_pos = getattr(hints, "key_pos", {}).get(name)
        return key_pos or at("layout", name)

    findings = [Finding("unknown-pile", f"layout.{name} names no group '{name}'", name_at(name),
                        suggestion=did_you_mean(name, rules.groups))
                for name in hints if name not in rules.groups]
    # The places a table uses: the automatic layout (by roles), each group's hint laid over it.
    places = group_layouts(rules)
    by_place: dict[tuple[int, int], list[str]] = {}
    for name, place in places.items():
        by_place.setdefault((place["row"], place["column"]), []).append(name)
    moved = [n for n in hints if n in places and isinstance(hints[n], dict) and ("row" in hints[n] or "column" in hints[n])]
    for (row, column), names in by_place.items():
        if len(names) < 2:
            continue
        culprits = [n for n in moved if n in names]
        if not culprits:
            continue  # the automatic layout gives every group a place of its own
        name = culprits[-1]
        others = [n for n in names if n != name]
        how = ", ".join(f"{n} ({'by its hint' if n in moved else 'by the automatic layout'})" for n in others)
        verb = "is" if len(others) == 1 else "are"
        free = 1 + max(p["column"] for p in places.values() if p["row"] == row)
        findings.append(Finding(
            "layout-overlap", f"layout.{name} puts {name} at row {row}, column {column}, where {how} {verb} too: the page "
            "sets them side by side in the order of `piles`", name_at(name), severity="warning",
            suggestion=f"give {name} a place of its own, such as row {row}, column {free}"))
    return findings


def _face_down_on_face_up(group, rows) -> int | None:
    """The first row that deals a face-down card onto a face-up one in some pile, or None."""
    seen_up = [False] * len(group.piles)
    for i, row in enumerate(rows):
        for k, face in enumerate(row_faces(group, row)[: len(group.piles)]):
            if face == "up":
                seen_up[k] = True
            elif face == "down" and seen_up[k]:
                return i
    return None
