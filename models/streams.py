"""How a sequential stream is stated and said: what each stream keeps requested ahead of itself,
and the words of the back-end formula for it (:func:`models.pool.pool_work` prices the streams)."""

from __future__ import annotations

from models.explain import fmt
from models.workload import Phase


def stream_ahead_kib(ph: Phase, size_kib: float) -> float | None:
    """KiB each sequential stream of ``ph`` keeps requested ahead of itself at the host: its stated
    ``readahead_kib``, or in a purely sequential phase stating both its concurrency and its streams
    the I/Os of ``size_kib`` each stream keeps outstanding (``concurrency / streams`` of them, which
    lie one after the other on the drives), whichever is larger; None when neither is stated."""
    ahead = ph.readahead_kib
    n, c = ph.sequential_streams, ph.concurrency
    if n is not None and c is not None and ph.random_pct == 0:
        queued = size_kib * c / n
        ahead = queued if ahead is None else max(ahead, queued)
    return ahead


def stream_words(streams: int | None, segment_kib: float) -> str:
    """How a phase's sequential I/O is priced, in words: the streams assumed when none are stated."""
    request = f"requests of {fmt(segment_kib)} KiB (readahead)"
    if streams == 1:
        return f"sequential: 1 stream in {request}, read without seeking"
    if streams is None:
        return (
            f"sequential streams not stated: assumed interleaved, {request} each paying one positioning "
            "on every drive they reach, no queuing credit (state sequential_streams for it)"
        )
    return (
        f"sequential: {streams:,} interleaved streams, {request} each paying one positioning on every "
        "drive they reach and queued there"
    )
