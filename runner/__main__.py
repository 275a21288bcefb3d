"""``python -m cfab.runner`` is the ``runner`` command."""

from cfab.runner.cli import main

raise SystemExit(main())
