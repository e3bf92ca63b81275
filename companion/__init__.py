"""Mutiny Table: a Raspberry Pi game master for pirate mutiny tabletop games."""

__version__ = "0.1.0"
