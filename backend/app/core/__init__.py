"""Cross-cutting pieces: settings and HTTP middleware."""
