"""cfab.seeds."""
