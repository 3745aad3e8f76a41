"""Benchmarks of the server itself (``parlour bench server``)."""
