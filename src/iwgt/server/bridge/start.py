"""Starting the bridge for ``iwgt serve``: on a broker given by URL, or on an embedded one it also stops."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from iwgt.hardware.mqtt import MqttUrl
from iwgt.server.bridge.state import STOP_S
from iwgt.server.bridge.table import TableBridge

if TYPE_CHECKING:
    from iwgt.server.app import Settings
    from iwgt.server.manager import TableManager

log = logging.getLogger("iwgt.bridge")


async def start_bridge(settings: Settings, manager: TableManager) -> TableBridge:
    """The bridge of ``iwgt serve --table-bridge`` (with its embedded broker) or ``--mqtt URL``, started."""
    broker: Any = None
    if settings.mqtt_url is not None:
        url = MqttUrl.parse(settings.mqtt_url)
    else:
        from iwgt.hardware.broker import Credentials, EmbeddedBroker

        host, _, port = settings.mqtt_listen.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"--mqtt-listen {settings.mqtt_listen!r}: expected HOST:PORT")
        broker = EmbeddedBroker(host, int(port), Credentials.load(settings.data_dir))
        await broker.start()
        url = MqttUrl.parse(broker.url("referee"))
    bridge = _Bridge(manager, url, broker)
    await bridge.start()
    return bridge


class _Bridge(TableBridge):
    """A bridge that also stops the embedded broker it runs on."""

    def __init__(self, manager: TableManager, url: MqttUrl, broker: Any) -> None:
        super().__init__(manager, url)
        self.broker = broker

    async def stop(self) -> None:
        """Stop the bridge, then its broker."""
        await super().stop()
        if self.broker is not None:
            try:
                await asyncio.wait_for(self.broker.stop(), STOP_S)
            except TimeoutError:
                log.warning("the embedded MQTT broker did not stop within %.0f s", STOP_S)
