"""Benchmarks: ``parlour bench GAME ...`` runs ``agents.bench.<game>.main(argv)``; each prints a table
(or JSON with --json) and can run peer libraries side by side with --peers."""
