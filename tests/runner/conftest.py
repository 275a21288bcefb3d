"""Fixtures for tests/runner: the fake OpenAI-compatible server."""

from __future__ import annotations

import pytest

from tests.runner.runner_fake_openai import FakeOpenAI


@pytest.fixture
def fake_openai():
    server = FakeOpenAI()
    try:
        yield server
    finally:
        server.close()
