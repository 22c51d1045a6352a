"""The built-in hardware catalog: drives, arrays, RAID schemes, port types and workload templates."""
