"""Evaluate, size, compare and curves: the engine behind ``/evaluate``, ``/size``, ``/compare``, ``/curves``."""
