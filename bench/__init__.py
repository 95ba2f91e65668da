"""Measurement scripts (run them as files: .venv/bin/python bench/<name>.py); a package so they share code."""
