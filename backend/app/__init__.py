"""FastAPI application: settings, database, routes and UI serving."""
