"""Speed benchmarks (figures go to docs/benchmarks.md by hand, with the command)."""
