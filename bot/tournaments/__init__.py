"""Tournaments: formats, pairings and standings as pure functions."""
