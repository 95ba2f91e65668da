"""Configuration comes from the environment and an optional .env file; the token never shows."""

from __future__ import annotations

from pathlib import Path

import pytest

import services.config as config_module
from bot.__main__ import NO_TOKEN, main
from services.config import DEFAULT_DB, checkout_root, find_env_file, load_config, parse_env_file


def test_env_file_is_read_with_comments_quotes_and_export(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        '# comment\nexport DISCORD_TOKEN="abc.def"\nMEEPLE_DB=data/x.db  # trailing\n\nMEEPLE_DEV_GUILD=42\n'
    )
    config = load_config(env={}, env_file=env)
    assert config.token == "abc.def"
    assert str(config.database) == "data/x.db"
    assert config.dev_guild == 42


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\n")
    assert load_config(env={"DISCORD_TOKEN": "from-env"}, env_file=env).token == "from-env"


def test_defaults_without_anything(tmp_path: Path) -> None:
    config = load_config(env={}, env_file=tmp_path / "missing")
    assert config.token is None
    assert str(config.database) == DEFAULT_DB
    assert config.dev_guild is None and config.api_base is None


def test_bad_dev_guild_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="MEEPLE_DEV_GUILD"):
        load_config(env={"MEEPLE_DEV_GUILD": "my-server"}, env_file=None)


def test_token_never_appears_in_repr() -> None:
    config = load_config(env={"DISCORD_TOKEN": "super-secret-token"}, env_file=None)
    assert "super-secret-token" not in repr(config)
    assert "super-secret-token" not in str(config)


def test_parse_env_file_skips_malformed_lines() -> None:
    assert parse_env_file("not a pair\n=value\nGOOD=1\n") == {"GOOD": "1"}


def test_the_no_token_note_says_how_to_get_a_token() -> None:
    # Without a token the start command opens the sandbox (tests/sandbox) and prints this note beside it.
    assert "DISCORD_TOKEN" in NO_TOKEN and ".env" in NO_TOKEN and "README.md" in NO_TOKEN


def test_a_bad_sandbox_port_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("MEEPLE_SANDBOX_PORT", "not-a-port")
    assert main([]) == 2
    assert "MEEPLE_SANDBOX_PORT" in capsys.readouterr().err


ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_is_recognised_by_its_readme() -> None:
    assert checkout_root() == ROOT


def test_the_env_file_beside_the_readme_is_read_from_any_working_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    checkout, elsewhere = tmp_path / "checkout", tmp_path / "elsewhere"
    checkout.mkdir()
    elsewhere.mkdir()
    (checkout / ".env").write_text("MEEPLE_DB=/srv/from-the-checkout.db\n")
    (elsewhere / ".env").write_text("MEEPLE_DB=/srv/from-the-working-directory.db\n")
    monkeypatch.setattr(config_module, "checkout_root", lambda: checkout)
    monkeypatch.chdir(elsewhere)
    assert find_env_file({}) == checkout / ".env"
    assert str(load_config(env={}).database) == "/srv/from-the-checkout.db"


def test_an_installed_bot_reads_the_env_file_of_its_working_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("MEEPLE_DEV_GUILD=7\n")
    monkeypatch.setattr(config_module, "checkout_root", lambda: None)
    monkeypatch.chdir(tmp_path)
    assert load_config(env={}).dev_guild == 7


def test_meeple_env_file_names_the_env_file_and_must_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    chosen = tmp_path / "meeple.env"
    chosen.write_text("MEEPLE_LOG_LEVEL=debug\n")
    monkeypatch.chdir(tmp_path)
    assert load_config(env={"MEEPLE_ENV_FILE": str(chosen)}).log_level == "DEBUG"
    with pytest.raises(ValueError, match="MEEPLE_ENV_FILE"):
        load_config(env={"MEEPLE_ENV_FILE": str(tmp_path / "missing.env")})


def test_the_sandbox_port_comes_from_the_same_env_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    chosen = tmp_path / "meeple.env"
    chosen.write_text("MEEPLE_SANDBOX_PORT=99999\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEEPLE_ENV_FILE", str(chosen))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("MEEPLE_SANDBOX_PORT", raising=False)
    assert main([]) == 2
    assert "MEEPLE_SANDBOX_PORT" in capsys.readouterr().err


def test_a_postgresql_url_is_kept_as_a_url_and_its_password_never_shown(tmp_path: Path) -> None:
    url = "postgresql://meeple:s3cr@t@db.example:5432/meeple"
    config = load_config(env={"MEEPLE_DB": f" {url} ", "DISCORD_TOKEN": "x"}, env_file=None)
    assert config.database == url
    assert "s3cr" not in repr(config) and "postgresql://meeple:***@db.example:5432/meeple" in repr(config)
    assert load_config(env={"MEEPLE_DB": "postgres://m@/db?host=/run/pg"}, env_file=None).database == (
        "postgres://m@/db?host=/run/pg"
    )
    assert load_config(env={"MEEPLE_DB": "var/postgresql.db"}, env_file=None).database == Path("var/postgresql.db")


def test_render_workers_default_to_one_per_core_and_can_be_set() -> None:
    assert load_config(env={}, env_file=None).render_workers is None  # services.pictures: os.cpu_count()
    assert load_config(env={"MEEPLE_RENDER_WORKERS": "3"}, env_file=None).render_workers == 3
    assert load_config(env={"MEEPLE_RENDER_WORKERS": "0"}, env_file=None).render_workers == 0
    for bad in ("-1", "two", "1.5"):
        with pytest.raises(ValueError, match="MEEPLE_RENDER_WORKERS"):
            load_config(env={"MEEPLE_RENDER_WORKERS": bad}, env_file=None)


def test_the_state_cache_size_is_a_whole_number_of_games() -> None:
    assert load_config(env={}, env_file=None).state_cache == 1000
    assert load_config(env={"MEEPLE_STATE_CACHE": "50"}, env_file=None).state_cache == 50
    for bad in ("0", "-3", "many", "2.5"):
        with pytest.raises(ValueError, match="MEEPLE_STATE_CACHE"):
            load_config(env={"MEEPLE_STATE_CACHE": bad}, env_file=None)


def test_the_edit_pace_is_read_and_checked() -> None:
    assert load_config(env={}, env_file=None).edit_pace is None
    assert load_config(env={"MEEPLE_EDIT_PACE": "0.5"}, env_file=None).edit_pace == 0.5
    for bad in ("-1", "fast", "61"):
        with pytest.raises(ValueError, match="MEEPLE_EDIT_PACE"):
            load_config(env={"MEEPLE_EDIT_PACE": bad}, env_file=None)
