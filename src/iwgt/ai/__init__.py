"""Bots that play through the public protocol: observations, legal actions and the pure apply."""
