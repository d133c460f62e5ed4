"""The Intelligent Wargames Table: a computer referee for tabletop fantasy wargames."""

__version__ = "0.1.0"
