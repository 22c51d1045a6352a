"""``/plan/...``: the installed base (replication and DR, expansion, quote checks, consolidation, refresh)."""
