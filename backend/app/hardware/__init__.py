"""User-defined drives, controllers and arrays, stored beside the built-in catalog."""
