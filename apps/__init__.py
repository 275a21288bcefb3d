"""cfab.apps."""
