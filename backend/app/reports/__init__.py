"""Saved, shareable, immutable reports."""
