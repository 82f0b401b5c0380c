"""Every game Quandary knows. Importing this package registers them all."""

from . import dilemmas, randolph, royal

__all__ = ["dilemmas", "randolph", "royal"]
