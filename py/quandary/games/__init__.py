"""Every game Quandary knows. Importing this package registers them all."""

from . import dilemmas, royal

__all__ = ["dilemmas", "royal"]
