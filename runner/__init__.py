"""cfab.runner."""
