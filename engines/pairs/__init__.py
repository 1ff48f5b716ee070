"""Pairs (seed 004, "Соедини пары"): join twin tiles by a path with at most two turns."""

from engines.pairs.engine import ENGINE, PairsEngine

__all__ = ["ENGINE", "PairsEngine"]
