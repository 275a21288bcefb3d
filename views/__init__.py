"""cfab.views."""
