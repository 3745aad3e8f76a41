"""HTTP routes, one module per resource; pages in pages.py."""
