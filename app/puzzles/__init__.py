"""Puzzles: positions from real play where one action, and only one, wins.

- miner.py: the verdict on one position (the only winning action, checked
  at two depths) and its forced line; pure;
- themes.py: what a solution does, in the game's words;
- selfplay.py, mining.py, __main__.py: the computer's seeded matches, the
  puzzles mined from them or from a finished match, and the command that
  writes the shipped seed set (`seed.jsonl`).
"""
