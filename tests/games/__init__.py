"""Test-only games registered through the ``kingdoms.games`` entry point."""
