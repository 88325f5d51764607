"""The interpreter: cards, the expression compiler, rules, game state, moves and play."""
