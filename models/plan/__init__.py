"""Plans for the installed base: replication and DR, expansion, quote checks, consolidation, refresh.

Each module answers one question a consultant is asked about systems that already exist, by
calling the engine's public functions (:func:`models.evaluate.evaluate`,
:func:`models.size.size`) on changed inputs; none restates the engine's physics.

* :mod:`models.plan.replication`: asynchronous (snapshot-based) and synchronous replication from
  the change rate per window and the RPO: WAN bandwidth, lag, the latency a distance adds to every
  write, and the DR-side array.
* :mod:`models.plan.expand`: a configuration plus shelves, drives of another model, cache or nodes.
* :mod:`models.plan.quote`: a vendor's bill of materials checked against the windows and growth.
* :mod:`models.plan.consolidate`: N workloads placed onto M arrays at the least cost.
* :mod:`models.plan.refresh`: the observed workloads of a system sized onto its successor.
"""
