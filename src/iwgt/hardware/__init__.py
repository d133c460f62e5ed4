"""The physical table: the MQTT bridge protocol, LED layouts and drivers, brokers and the simulated table."""
