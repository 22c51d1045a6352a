"""What-if analyses over HTTP: growth, sensitivity, maximum workload, ranges, degraded modes, RAID conversion, building blocks."""
