"""The table layer: light effects, selections and previews from events and a seat's observation."""
