"""Shipped patiences cut down to small packs, for tests whose searches must run to the end."""

from __future__ import annotations

from pathlib import Path

import yaml

from kallisti.model.ruleset import load_ruleset


def cut_down(game: str, folder: Path, ranks: list[str], packs: int, suits: int, rows: int, piles: int):
    """`game` with `packs` packs of `suits` suits and the ranks `ranks`: each dealt group keeps its last
    `rows` rows, a tableau at most `piles` piles, the foundations one pile per suit and pack."""
    data = load_ruleset(game).plain()
    deck = data["deck"]
    deck.update(ranks=ranks, packs=packs, values={}, suits=[deck["suits"][i] for i in (0, 2, 1, 3)[:suits]])
    for group in data["piles"].values():
        if group.get("role") == "foundation":
            group["count"] = min(group["count"], packs * suits)
        if isinstance(group.get("deal"), list):
            group["deal"] = group["deal"][-rows:]
        if group.get("role") == "tableau":
            group["count"] = min(group["count"], piles)
    data["game"] = f"{data['game']} ({packs}×{suits} suits, {ranks[0]}–{ranks[-1]})"
    path = folder / f"{game}-{packs}x{suits}-{len(ranks)}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_ruleset(path)
