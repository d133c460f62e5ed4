"""Forged upon an Anvil: command points, sealed bids, units on trays and the Combat Resolution Matrix."""
