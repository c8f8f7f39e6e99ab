"""collate: textual collation and critical apparatus for classical Chinese texts."""

__version__ = "0.1.0"
