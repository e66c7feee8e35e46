"""The library's version (in a module of its own: the records it writes name it, and they sit
below the package's ``__init__``)."""

__version__ = "0.1.0"
