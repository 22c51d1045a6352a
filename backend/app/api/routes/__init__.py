"""One module per tag; each route's operation id is ``{tag}-{function name}``."""
