"""Fixtures shared by every test folder: the throw-away PostgreSQL server (tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.support.postgres import PostgresServer, find_binaries


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--bot-database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="where the emulator tests' bot keeps its games unless a test chooses (tests/bot/conftest.py)",
    )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server per test process (each xdist worker has its own); skips when not installed."""
    bin_dir, reason = find_binaries()
    if bin_dir is None:
        pytest.skip(reason)
    server = PostgresServer.start(bin_dir)
    try:
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a fresh, migrated PostgreSQL database, dropped after the test."""
    name = await postgres_server.create_database()
    try:
        yield postgres_server.url(name)
    finally:
        await postgres_server.drop_database(name)
