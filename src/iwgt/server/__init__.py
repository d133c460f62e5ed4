"""The game server: journal, seats, the WebSocket protocol, and the touchscreen pages."""
