"""The rules pages (one per preset, in the players' words) and a first-game tutorial."""
