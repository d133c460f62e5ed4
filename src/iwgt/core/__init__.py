"""Game-agnostic engine core: protocol, chance, records, errors, registry, data files."""
