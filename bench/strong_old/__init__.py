"""The strong level as it stood at 780ea97 (search.py, candidates.py, evaluate.py
copied unchanged but for imports), frozen so bench/arena_old.py can play the
new search against it. It runs on today's engine: the figures measure the
search and its evaluation, not the engine's own speed-up."""
