"""The attempt-process memory cap (cfab.apps.world.limits): sizes parse or fail naming the input,
the cap is growth over the current data segment, and it can be undone."""

from __future__ import annotations

import resource

import pytest

from cfab.apps.world.limits import cap_memory, parse_size, restore_memory


def test_sizes() -> None:
    assert parse_size("4GB") == 4 * 1024**3
    assert parse_size("512mb") == 512 * 1024**2
    assert parse_size("1.5G") == int(1.5 * 1024**3)
    assert parse_size("none") is None and parse_size("off") is None
    for bad in ("lots", "4 parsecs", "-1GB"):
        with pytest.raises(ValueError, match=repr(bad)):
            parse_size(bad)
    with pytest.raises(ValueError, match="below 256MB"):
        parse_size("10MB")


def test_cap_is_growth_over_the_current_segment_and_restores() -> None:
    before = resource.getrlimit(resource.RLIMIT_DATA)
    previous = cap_memory("2GB")
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        assert hard == before[1]
        with open("/proc/self/status") as fh:
            data = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmData:"))
        assert data < soft <= data + 2 * 1024**3
    finally:
        restore_memory(previous)
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    assert cap_memory("none") is None
