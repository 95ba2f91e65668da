"""Sharding's configuration and the ownership rule: which guilds one bot process serves."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.config import load_config, parse_shards
from services.shards import Shards, shard_of

SNOWFLAKES = st.integers(min_value=1, max_value=2**63 - 1)


def config(**settings: str):
    return load_config(settings, env_file=None)


def test_no_sharding_settings_mean_one_process_serving_everything() -> None:
    chosen = config()
    assert not chosen.sharded and chosen.shard_ids is None and chosen.shard_count is None
    assert chosen.shards.everything and chosen.shards.owns_guild(12345 << 22) and chosen.shards.owns_guild(None)


@pytest.mark.parametrize(
    ("ids", "count", "expected"),
    [
        ("0,1", "4", ((0, 1), 4)),
        ("3, 1", "4", ((1, 3), 4)),
        ("2-5", "8", ((2, 3, 4, 5), 8)),
        ("0", "1", ((0,), 1)),
        ("", "4", (None, 4)),
    ],
)
def test_shard_ids_and_count_are_read(ids: str, count: str, expected: tuple) -> None:
    assert parse_shards(ids, count) == expected
    chosen = config(MEEPLE_SHARD_IDS=ids, MEEPLE_SHARD_COUNT=count)
    assert (chosen.shard_ids, chosen.shard_count) == expected and chosen.sharded


def test_a_count_alone_serves_every_shard_of_that_count_in_one_process() -> None:
    shards = config(MEEPLE_SHARD_COUNT="3").shards
    assert shards == Shards(frozenset({0, 1, 2}), 3) and shards.everything


@pytest.mark.parametrize(
    ("ids", "count", "says"),
    [
        ("0,1", "", "needs MEEPLE_SHARD_COUNT"),
        ("2", "2", "between 0 and 1"),
        ("0,0", "2", "twice"),
        ("0-1,1", "2", "twice"),
        ("one", "2", "separated by commas"),
        ("-1", "2", "separated by commas"),
        ("1-", "2", "separated by commas"),
        ("0", "0", "number of shards"),
        ("0", "two", "number of shards"),
    ],
)
def test_a_wrong_shard_setting_is_a_configuration_error_naming_it(ids: str, count: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        config(MEEPLE_SHARD_IDS=ids, MEEPLE_SHARD_COUNT=count)


def test_the_configuration_shows_its_shards() -> None:
    assert "shard_ids=(1,), shard_count=2" in repr(config(MEEPLE_SHARD_IDS="1", MEEPLE_SHARD_COUNT="2"))


def test_a_guild_is_on_the_shard_discord_computes_and_a_dm_on_shard_0() -> None:
    guild = (7 << 22) | 12345  # the low 22 bits never matter
    assert shard_of(guild, 4) == 3 and shard_of(guild, 7) == 0 and shard_of(None, 4) == 0
    assert Shards(frozenset({3}), 4).owns_guild(guild) and not Shards(frozenset({0, 1}), 4).owns_guild(guild)
    assert Shards(frozenset({0}), 4).owns_guild(None) and not Shards(frozenset({1, 2, 3}), 4).owns_guild(None)


def test_impossible_shards_are_refused() -> None:
    for ids, count in (({0}, 0), (set(), 2), ({2}, 2), ({-1}, 2)):
        with pytest.raises(ValueError):
            Shards(frozenset(ids), count)


@st.composite
def shard_sets(draw: st.DrawFn) -> Shards:
    count = draw(st.integers(min_value=1, max_value=16))
    ids = draw(st.sets(st.integers(min_value=0, max_value=count - 1), min_size=1))
    return Shards(frozenset(ids), count)


@given(shards=shard_sets(), guilds=st.lists(st.one_of(st.none(), SNOWFLAKES), max_size=30))
def test_the_sql_condition_keeps_exactly_the_guilds_the_process_owns(shards: Shards, guilds: list) -> None:
    """What the database selects (start-up, the scheduler, delivery) is what owns_guild says."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, guild_id INTEGER)")
        conn.executemany("INSERT INTO games (id, guild_id) VALUES (?, ?)", list(enumerate(guilds)))
        selected = {row[0] for row in conn.execute(f"SELECT id FROM games WHERE {shards.sql()}")}
    finally:
        conn.close()
    assert selected == {n for n, guild in enumerate(guilds) if shards.owns_guild(guild)}


@given(guilds=st.lists(SNOWFLAKES, min_size=1, max_size=20), count=st.integers(min_value=1, max_value=8))
def test_the_processes_of_all_shards_share_out_every_guild_exactly_once(guilds: list[int], count: int) -> None:
    owners = [Shards(frozenset({shard}), count) for shard in range(count)]
    for guild in [*guilds, None]:
        assert sum(owner.owns_guild(guild) for owner in owners) == 1
