"""The built-in Forged upon an Anvil bot (the full bot lands with the engine)."""
