"""Valhalla: a skirmish game in inches, with card activation and opposed dice."""
