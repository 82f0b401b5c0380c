"""Every game Quandary knows. Importing this package registers them all."""

from . import dilemmas

__all__ = ["dilemmas"]
