"""``runner bench``: what the harness costs, measured through the public API.

    runner bench [--scale 1 10 100] [--attempts 20] [--json PATH] [--skip-suite] [--skip-build] …

One module per section (each can be skipped), run in this order by :mod:`~cfab.runner.bench.run`:

* :mod:`~cfab.runner.bench.build`: golden build time and file size per scale, split into book
  generation, load, replication, app seeding, digest (scale 1 is built afresh in a temporary
  folder; larger scales are built into ``$CFAB_HOME`` once and their recorded timing reused;
  ``--rebuild``);
* :mod:`~cfab.runner.bench.overhead`: per-attempt overhead at scale 1 over ≥ 20 attempts of a
  representative task: copy, open, log reads, diff, grade, close, each split into the calls that
  cost the time (the task's own tool calls are timed apart and excluded);
* :mod:`~cfab.runner.bench.diff`: a ten-row change made through the gate (``sql.execute``) on a
  large table (:mod:`~cfab.runner.bench.change`), diffed fast and full at every scale, with
  fast == full and snapshot/reset/digest checks;
* :mod:`~cfab.runner.bench.snapshot`: the paper's whole-state JSON snapshot approach
  (:mod:`~cfab.runner.bench.jsonsnap`) on the same book, side by side;
* :mod:`~cfab.runner.bench.memory`: peak RSS of a worker process running attempts at scale 1
  and the largest scale;
* :mod:`~cfab.runner.bench.suite`: ``runner --suite executable --k 5 --policy oracle`` with 1
  and 2 workers;
* :mod:`~cfab.runner.bench.checks`: two concurrent attempts share nothing.

:mod:`~cfab.runner.bench.probe` splits a public call into the parts that cost the time,
:mod:`~cfab.runner.bench.machine` reads the load and this process's peak memory,
:mod:`~cfab.runner.bench.worker` is the side that runs in fresh processes, and
:mod:`~cfab.runner.bench.report` judges the figures against the targets and prints them: medians
(min/max) as rich tables with each target and PASS/MISS; ``--json`` writes every figure. Wall
times on a loaded machine are inflated: the load average is recorded at start and end (a warning
prints when it exceeds the core count) and CPU medians print beside the wall medians.

This package imports nothing itself, so a worker process (``python -m
cfab.runner.bench.worker``) loads only what its mode needs.
"""
