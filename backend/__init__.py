"""Sizer web backend: FastAPI app, database tables and migrations around the ``models`` engine."""
