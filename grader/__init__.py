"""cfab.grader."""
