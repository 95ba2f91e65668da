"""Tournaments: formats, pairings and standings as pure functions (issue 13, in progress)."""
