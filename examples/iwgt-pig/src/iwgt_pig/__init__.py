"""Pig, the classic dice game, as an example game of the Intelligent Wargames Table (a plug-in of its own)."""
