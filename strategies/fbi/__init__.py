"""Built-in FBI strategies: random, rule, expert (any seat, any player count)."""
