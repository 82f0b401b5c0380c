"""Every game Quandary knows. Importing this package registers them all."""

from . import dilemmas, minister, randolph, royal

__all__ = ["dilemmas", "minister", "randolph", "royal"]
