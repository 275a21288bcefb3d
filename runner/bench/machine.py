"""The machine and this process as ``runner bench`` sees them: the load average (wall times on
a loaded machine are inflated) and this process's peak memory (``VmHWM``, ``ru_maxrss``),
whose high-water mark can be reset so each section reports its own."""

from __future__ import annotations

import contextlib
import os
import resource
from pathlib import Path


def load() -> dict[str, float]:
    one, five, fifteen = os.getloadavg()
    return {"1m": round(one, 2), "5m": round(five, 2), "15m": round(fifteen, 2)}


def vmhwm_mb() -> float | None:
    """This process's resident high-water mark (Linux ``VmHWM``), in MB; None elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024.0, 1)
    except OSError:
        pass
    return None


def peak_mb() -> dict[str, float | None]:
    """``ru_maxrss`` (which survives fork+exec on Linux) and ``VmHWM`` of this process, in MB."""
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
    return {"ru_maxrss_mb": round(maxrss, 1), "vmhwm_mb": vmhwm_mb()}


def reset_peak() -> None:
    """Reset this process's VmHWM (Linux: ``5`` to /proc/self/clear_refs), so each section
    reports its own peak (e.g. what a full diff of the whole book costs in memory)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
