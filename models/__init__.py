"""Storage sizing engine: drives, RAID, capacity, caches, tiering, controllers, ports, queueing.

Pure Python (numpy/scipy); imports nothing of the web or database layers and reads no files by
itself (the catalog loader takes a path). Identical inputs and ``ENGINE_VERSION`` give identical
results.
"""

ENGINE_VERSION = "0.1.0"

__all__ = ["ENGINE_VERSION"]
