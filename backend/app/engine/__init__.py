"""What every feature that calls the engine shares: request inputs and the per-request context."""
