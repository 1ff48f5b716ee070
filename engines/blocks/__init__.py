"""Block puzzles: one engine, three rulesets (classic10, shapes48, gravity8).

See RULES.md § Blocks. The rulesets differ only in data and small strategies
(``rulesets.py``); ``play.py`` is the one game loop.
"""

from engines.blocks.engine import ENGINE, BlocksEngine

__all__ = ["ENGINE", "BlocksEngine"]
