"""Game / Node trees over the library's compact trees (a stub until the
tree part of issue 29 replaces this file)."""

__all__ = []
