"""Recommend: ranked, minimally sized configurations from the whole catalog (``/recommend``)."""
