"""cfab.tasks."""
