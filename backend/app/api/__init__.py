"""HTTP API mounted under ``/api/v1``: thin routes that parse, call one service and return a schema."""
