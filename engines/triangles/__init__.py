"""Triangles: join stars with lines that never cross; close empty triangles to score."""

from engines.triangles.engine import ENGINE, TrianglesEngine

__all__ = ["ENGINE", "TrianglesEngine"]
