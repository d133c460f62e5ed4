"""The embedded MQTT broker (amqtt): our password and topic-rights plug-ins, a patched amqtt Broker.

amqtt 0.12 has no usable ACL for our rights and never drops a silent client, so ``EmbeddedBroker``
runs amqtt with three small plug-ins of ours and a subclass fixing its broadcast and shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

# amqtt ships no type information: its broker and plug-in bases are Any to mypy.
from amqtt.broker import Broker  # type: ignore[import-untyped]
from amqtt.contexts import Action  # type: ignore[import-untyped]
from amqtt.plugins.base import BaseAuthPlugin, BasePlugin, BaseTopicPlugin  # type: ignore[import-untyped]

from iwgt.hardware.broker_base import BrokerError, TlsFiles, _Lifecycle, _reachable, free_port
from iwgt.hardware.credentials import Credentials, allowed, is_login
from iwgt.hardware.mqtt import MqttUrl

log = logging.getLogger("iwgt.hardware.broker")  # the logger these brokers have always used


class PasswordAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
    """amqtt plug-in: a user name and its password from the config, or the connection is refused.

    It also drops a will the user may not publish (amqtt never checks a will's topic).
    """

    @dataclass
    class Config:
        """The users amqtt accepts (name -> password) and the credentials file they came from, if any."""

        users: dict[str, str] = field(default_factory=dict)
        path: str | None = None

    def __init__(self, context: Any) -> None:
        """Hold the users, to be read again from their file when it changes."""
        super().__init__(context)
        config = cast(PasswordAuthPlugin.Config, self.config)
        self._credentials = Credentials(dict(config.users), Path(config.path) if config.path else None)

    def _users(self) -> dict[str, str]:
        """The users now: a device added since by another process (the same file) logs in at once."""
        try:
            self._credentials.refresh()
        except BrokerError as exc:  # a file half edited by hand: keep the users we had
            log.warning("the MQTT users were not read again: %s", exc)
        return self._credentials.passwords

    async def authenticate(self, *, session: Any) -> bool:
        """True only for a known user with its password (anonymous and unknown users are refused)."""
        users = self._users()
        username, password = session.username, session.password
        if not username or password is None or username not in users or not is_login(username):
            return False
        if not hmac.compare_digest(str(password).encode(), users[username].encode()):
            return False
        if session.will_flag and not allowed(username, "publish", session.will_topic or ""):
            # amqtt publishes a will without checking its topic: a table could leave a forged, retained
            # "referee offline". Drop the will and keep the login, as Mosquitto does.
            log.warning(
                "MQTT user %s may not publish its will on %s: will dropped", username, session.will_topic
            )
            session.will_flag = False
        return True


class TopicRightsPlugin(BaseTopicPlugin):  # type: ignore[misc]
    """amqtt plug-in: each user's publish and subscribe rights (``allowed``)."""

    async def topic_filtering(
        self, *, session: Any = None, topic: str | None = None, action: Any = None
    ) -> bool:
        """Whether the session's user may do ``action`` on ``topic`` (a delivery is always allowed)."""
        if action == Action.RECEIVE:
            return True  # what a user receives was checked when it subscribed (and _Broker never asks)
        if topic is None or session is None:
            return False
        return allowed(session.username, "publish" if action == Action.PUBLISH else "subscribe", topic)


class KeepAlivePlugin(BasePlugin):  # type: ignore[misc]
    """amqtt plug-in: cut a client silent for 1.5 keep-alive periods, so that the broker publishes its will.

    amqtt 0.12 notices the silence (its reader times out) but does nothing with it (the broker's read-timeout
    handler is empty): a table whose power is cut would stay online until TCP gives up, hours later.
    Mosquitto does this itself (MQTT 3.1.1, 3.1.2.10).
    """

    CHECK_S = 0.5
    """How often the silent clients are looked for."""

    def __init__(self, context: Any) -> None:
        """Track, per connection (its writer), when a packet last came in."""
        super().__init__(context)
        self._seen: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._task: asyncio.Task[None] | None = None

    def _sessions(self) -> list[tuple[Any, Any]]:
        # amqtt's BrokerContext lists sessions without their protocol handlers: ask the broker itself.
        return list(self.context._broker_instance.sessions.values())

    async def on_mqtt_packet_received(self, *, packet: Any = None, session: Any = None) -> None:
        """Note that this connection is alive."""
        if session is None:
            return
        for known, handler in self._sessions():
            if known is session and getattr(handler, "writer", None) is not None:
                self._seen[handler.writer] = asyncio.get_running_loop().time()

    async def on_broker_post_start(self) -> None:
        """Start the watch."""
        self._task = asyncio.create_task(self._watch())

    async def on_broker_pre_shutdown(self) -> None:
        """Stop the watch."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.CHECK_S)
            now = loop.time()
            for session, handler in self._sessions():
                writer = getattr(handler, "writer", None)
                if writer is None or not session.keep_alive or not session.transitions.is_connected():
                    continue
                last = self._seen.setdefault(writer, now)  # a new connection: its CONNECT just came in
                if now - last > 1.5 * session.keep_alive:
                    log.info("MQTT client %s silent for %.1f s: dropped", session.client_id, now - last)
                    self._seen[writer] = now  # once: the drop takes effect on the next turn of the loop
                    _abort(handler)


class EmbeddedBroker(_Lifecycle):
    """An amqtt broker in this process's event loop, with password auth and the rights of ``allowed``."""

    def __init__(self, host: str, port: int, credentials: Credentials, tls: TlsFiles | None = None) -> None:
        """A broker to listen on host:port (port 0: a free one, chosen now); ``start()`` opens it."""
        self.host = host
        self.port = port or free_port(host)
        self.credentials = credentials
        self.tls = tls
        self._broker: Any = None

    def config(self) -> dict[str, Any]:
        """amqtt's configuration: one TCP listener, our auth and rights plug-ins (no $SYS, no anonymous)."""
        listener: dict[str, Any] = {"type": "tcp", "bind": f"{self.host}:{self.port}"}
        if self.tls is not None:
            listener |= {"ssl": True, "certfile": str(self.tls.certfile), "keyfile": str(self.tls.keyfile)}
        return {
            "listeners": {"default": listener},
            "plugins": {
                f"{__name__}.PasswordAuthPlugin": {
                    "users": dict(self.credentials.passwords),
                    "path": None if self.credentials.path is None else str(self.credentials.path),
                },
                f"{__name__}.TopicRightsPlugin": {},
                f"{__name__}.KeepAlivePlugin": {},
            },
        }

    def url(self, user: str) -> str:
        """This broker's URL for a user (mqtts with TLS: give the CA with ``?ca=``)."""
        password = self.credentials.password(user)
        return MqttUrl(_reachable(self.host), self.port, user, password, tls=self.tls is not None).text()

    @property
    def running(self) -> bool:
        """Whether the broker is accepting connections."""
        return self._broker is not None

    async def start(self) -> None:
        """Open the listener (a fresh amqtt broker each time: no retained message survives a restart)."""
        if self._broker is not None:
            return
        broker = _Broker(self.config())
        try:
            await broker.start()
        except Exception as exc:
            raise BrokerError(
                f"the embedded MQTT broker cannot listen on {self.host}:{self.port}: {exc}"
            ) from exc
        self._broker = broker

    async def stop(self) -> None:
        """Close every connection (no will is sent for a broker shutdown) and the listener."""
        broker, self._broker = self._broker, None
        if broker is not None:
            await _drop_connections(broker)
            await broker.shutdown()


def _abort(handler: Any) -> None:
    """Cut an amqtt session's TCP connection at once (its reader then ends and a will is published)."""
    stream = getattr(getattr(handler, "writer", None), "_writer", None)  # the adapter's asyncio StreamWriter
    transport = getattr(stream, "transport", None)
    if transport is not None:
        transport.abort()


class _Broker(Broker):  # type: ignore[misc]
    """amqtt's broker, fixed: no yield mid-broadcast; retained messages only to their subscribers.

    amqtt 0.12 broadcasts a message by iterating its live subscriptions dict and awaiting the topic plug-ins
    for each receiver; a client subscribing meanwhile changes the dict, the iteration raises "dictionary
    changed size" and every receiver not yet reached loses the message (measured: 56 of 300 lost by a
    second subscriber while others subscribed). Receiving needs no check here (a subscription was checked
    when made), so it is answered at once, without awaiting. For retained messages see below.
    """

    async def _topic_filtering(self, session: Any, topic: str, action: Any) -> bool:
        if action == Action.RECEIVE:
            return True
        return bool(await super()._topic_filtering(session, topic, action))

    # A CONNECT naming the client id of a connected client. amqtt 0.12 (clean session) dropped that client's
    # session and subscriptions BEFORE checking the login, and then filed the new connection under the id
    # even when it refused it (deliveries are looked up by client id): anyone reaching the port, with no
    # password, could make the referee (its id is in its retained status) or a table deaf. Here the
    # connected client is left alone until the login is known; a refused login never displaces it; a
    # login of ANOTHER user is refused (a device may not cut another table's connection off); the same
    # user takes its connection over (a table rebooted before the broker noticed), with no will for the
    # old connection (as amqtt did; the new birth is the last word).

    async def _delete_session(self, client_id: str) -> None:
        held = self._sessions.get(client_id)
        if held is not None and held[0].transitions.is_connected():
            return  # not authenticated yet: _authenticate decides
        await super()._delete_session(client_id)

    async def _authenticate(self, session: Any, listener: Any) -> bool:
        ok = bool(await super()._authenticate(session, listener))
        held = self._sessions.get(session.client_id)
        if not ok or held is None or held[0] is session or not held[0].transitions.is_connected():
            return ok
        old_session, old_handler = held
        if old_session.username != session.username:
            log.warning(
                "MQTT user %s may not take over client id %s of user %s: refused",
                session.username,
                session.client_id,
                old_session.username,
            )
            return False
        old_session.will_flag = False
        _abort(old_handler)
        await super()._delete_session(session.client_id)  # what the clean session asked for, now allowed
        return True

    async def _handle_client_session(
        self, reader: Any, writer: Any, client_session: Any, handler: Any, server: Any, listener_name: str
    ) -> None:
        client_id = client_session.client_id
        held = self._sessions.get(client_id)
        answer = handler.mqtt_connack_authorize

        async def connack(authenticated: bool) -> None:
            # amqtt has just filed this connection under its client id, refused or not: a refused one gives
            # the id back to the client that holds it (before any await, so no delivery goes astray).
            if not authenticated and held is not None and self._sessions.get(client_id) is not held:
                self._sessions[client_id] = held
            await answer(authenticated)

        handler.mqtt_connack_authorize = connack
        await super()._handle_client_session(reader, writer, client_session, handler, server, listener_name)

    async def _publish_retained_messages_for_subscription(
        self, subscription: tuple[str, int], session: Any
    ) -> None:
        # amqtt 0.12 calls this on every CONNECT for EVERY client's subscription filter, so a new client got
        # the retained messages of topics others subscribed to (past its own rights), and got them again when
        # it subscribed. Send retained messages only for a filter this session holds (a subscription is
        # recorded before this runs; a refused one never is), and return at once otherwise: no await while
        # amqtt iterates its live subscriptions.
        holders = self._subscriptions.get(subscription[0], ())
        if any(holder is session for holder, _ in holders):
            await super()._publish_retained_messages_for_subscription(subscription, session)


async def _drop_connections(broker: Any) -> None:
    """Cut every client's TCP connection and let each session's reader end on its own.

    amqtt 0.12's shutdown cancels each session's reader task and waits for it to say it stopped; after the
    session has received a message that cancellation can be lost (the reader goes back to reading) and the
    shutdown hangs for good. A reader that meets the end of its stream stops cleanly, so: end the streams
    first. (This reaches into amqtt's session table; the tests restart the broker under live clients.)
    """
    handlers = [handler for _, handler in list(broker.sessions.values())]
    for handler in handlers:
        _abort(handler)
    readers = [h._reader_task for h in handlers if getattr(h, "_reader_task", None) is not None]
    pending = [task for task in readers if not task.done()]
    if pending:
        await asyncio.wait(pending, timeout=5)
