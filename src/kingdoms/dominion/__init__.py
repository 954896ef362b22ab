"""Dominion: the rules engine (base set, first edition by default)."""
