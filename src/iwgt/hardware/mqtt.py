"""MQTT settings for every client of the physical table: the broker URL, auth, TLS, last will, reconnects.

One URL names a broker and the user to log in as: ``mqtt://user:pass@host:1883`` or
``mqtts://user:pass@host:8883?ca=/path/ca.pem`` (TLS; ``ca`` is the CA file that signed the broker's
certificate, the system's CAs when absent). Every client is MQTT 3.1.1 (the embedded amqtt broker speaks
nothing newer), starts a clean session and keeps alive every 5 s, so that a table whose power is cut is
reported offline (its last will) within about 7.5 s (1.5 keep-alive periods).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

import aiomqtt

__all__ = [
    "KEEPALIVE_S",
    "MAX_BACKOFF_S",
    "MIN_BACKOFF_S",
    "MqttAuthError",
    "MqttUrl",
    "MqttUrlError",
    "client",
    "drop",
    "run_forever",
]

log = logging.getLogger(__name__)

KEEPALIVE_S = 5
"""Keep-alive period of every client: a silent peer is dropped (and its will published) after 1.5 of them."""
MIN_BACKOFF_S = 0.2
"""The first wait before reconnecting after a lost or refused connection."""
MAX_BACKOFF_S = 2.0
"""The longest wait between reconnect attempts (the wait doubles from MIN_BACKOFF_S up to this)."""

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
"""The registered MQTT ports, used when a URL gives none."""

# CONNACK refusals that no retry can cure: MQTT 3.1.1's 4 (bad user name or password) and 5 (not authorised),
# which paho 2 reports as the MQTT 5 reason codes 134 and 135.
_AUTH_REFUSALS = frozenset({4, 5, 134, 135})


class MqttUrlError(ValueError):
    """A broker URL that cannot be used; the message says what is wrong with it."""


class MqttAuthError(RuntimeError):
    """The broker refused the user name or password (retrying with the same ones cannot help)."""


@dataclass(frozen=True, slots=True)
class MqttUrl:
    """A broker and the user to log in as, from ``mqtt://user:pass@host:port`` or ``mqtts://...?ca=FILE``."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: Path | None = None

    @classmethod
    def parse(cls, text: str | MqttUrl) -> MqttUrl:
        """Read a broker URL; raise MqttUrlError saying what is wrong (the password never appears in it)."""
        if isinstance(text, MqttUrl):
            return text
        shown = _redact(text)
        try:
            parts = urlsplit(text.strip())
        except ValueError as exc:
            raise MqttUrlError(f"broker URL {shown!r}: {exc}") from None
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            got = f"{parts.scheme!r}" if parts.scheme else "none"
            raise MqttUrlError(f"broker URL {shown!r}: the scheme must be mqtt:// or mqtts:// (got {got})")
        host = parts.hostname
        if not host:
            raise MqttUrlError(f"broker URL {shown!r}: no host (write mqtt://user:pass@host:1883)")
        try:
            port = parts.port
        except ValueError:
            raise MqttUrlError(f"broker URL {shown!r}: the port must be a number from 1 to 65535") from None
        if port == 0:
            raise MqttUrlError(f"broker URL {shown!r}: the port must be a number from 1 to 65535")
        if parts.path not in ("", "/"):
            raise MqttUrlError(f"broker URL {shown!r}: a broker URL has no path (got {parts.path!r})")
        if parts.fragment:
            raise MqttUrlError(f"broker URL {shown!r}: a broker URL has no #fragment")
        username = unquote(parts.username) if parts.username is not None else None
        password = unquote(parts.password) if parts.password is not None else None
        if password is not None and not username:
            raise MqttUrlError(f"broker URL {shown!r}: a password without a user name")
        query = parse_qs(parts.query, keep_blank_values=True)
        unknown = sorted(set(query) - {"ca"})
        if unknown:
            raise MqttUrlError(
                f"broker URL {shown!r}: unknown option {unknown[0]!r} (the only option is ca=FILE)"
            )
        ca: Path | None = None
        if "ca" in query:
            if scheme != "mqtts":
                raise MqttUrlError(f"broker URL {shown!r}: ca= needs TLS: write mqtts://")
            values = query["ca"]
            if len(values) != 1 or not values[0]:
                raise MqttUrlError(f"broker URL {shown!r}: ca= must name one CA certificate file")
            ca = Path(values[0])
        return cls(
            host=host,
            port=port if port is not None else DEFAULT_PORTS[scheme],
            username=username,
            password=password,
            tls=scheme == "mqtts",
            ca=ca,
        )

    @property
    def scheme(self) -> str:
        """``mqtts`` with TLS, else ``mqtt``."""
        return "mqtts" if self.tls else "mqtt"

    def text(self) -> str:
        """The whole URL, password included (to hand to a table; never log it: use ``str()``)."""
        return self._format(self.password)

    def with_user(self, username: str, password: str) -> MqttUrl:
        """The same broker, logged in as another user."""
        return MqttUrl(self.host, self.port, username, password, self.tls, self.ca)

    def _format(self, password: str | None) -> str:
        auth = ""
        if self.username is not None:
            auth = quote(self.username, safe="")
            if password is not None:
                auth += ":" + (password if password == "***" else quote(password, safe=""))
            auth += "@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        query = f"?ca={quote(str(self.ca), safe='/')}" if self.ca is not None else ""
        return f"{self.scheme}://{auth}{host}:{self.port}{query}"

    def __str__(self) -> str:
        """The URL with the password hidden: safe for logs and messages."""
        return self._format("***" if self.password is not None else None)


_CREDENTIALS = re.compile(r"^((?:[A-Za-z][A-Za-z0-9+.-]*://)?[^:/@]*):[^/?#]*@")


def _redact(text: str) -> str:
    """The URL text with its password (between ``user:`` and ``@``) hidden, for error messages."""
    return _CREDENTIALS.sub(r"\1:***@", text)


def _tls_params(url: MqttUrl) -> aiomqtt.TLSParameters | None:
    if not url.tls:
        return None
    if url.ca is not None and not url.ca.is_file():
        raise MqttUrlError(f"broker URL {url}: the CA file {url.ca} does not exist")
    # paho's defaults: a TLS client context that checks the certificate and the host name.
    return aiomqtt.TLSParameters(
        ca_certs=str(url.ca) if url.ca is not None else None, cert_reqs=ssl.CERT_REQUIRED
    )


def client(
    url: MqttUrl | str,
    identifier: str,
    will: aiomqtt.Will | None = None,
    *,
    keepalive: int = KEEPALIVE_S,
) -> aiomqtt.Client:
    """An aiomqtt client for the URL (auth, TLS for mqtts, MQTT 3.1.1, clean session); ``async with`` it.

    Must be called inside a running event loop (aiomqtt binds the client to it). ``will`` is published by the
    broker when this client drops without a DISCONNECT (a table's ``Offline``, the referee's status).
    """
    url = MqttUrl.parse(url)
    return aiomqtt.Client(
        url.host,
        url.port,
        username=url.username,
        password=url.password,
        identifier=identifier,
        protocol=aiomqtt.ProtocolVersion.V311,
        will=will,
        # A clean session: nothing queued for us while we were away is replayed; the retained frame and
        # births give the current state, and the referee asks a snapshot for the rest.
        clean_session=True,
        keepalive=keepalive,
        tls_params=_tls_params(url),
    )


def drop(mqtt_client: aiomqtt.Client) -> None:
    """Cut the client's connection without an MQTT DISCONNECT, as a power cut does: the broker sends its will.

    The client's ``async with`` block then ends with an ``aiomqtt.MqttError`` (its messages iterator raises).
    """
    # aiomqtt keeps the paho client private; its socket is the only way to drop the line uncleanly.
    sock = mqtt_client._client.socket()
    # The drop sets aiomqtt's private "disconnected" future to an error nobody awaits when the block ends
    # (its __aexit__ returns early): read it, so asyncio does not log "Future exception was never retrieved".
    mqtt_client._disconnected.add_done_callback(_retrieve)
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):  # already gone: the broker has seen the drop
            sock.shutdown(socket.SHUT_RDWR)


def _retrieve(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def _is_auth_refusal(exc: aiomqtt.MqttError) -> bool:
    rc = getattr(exc, "rc", None)
    value = getattr(rc, "value", rc)
    return isinstance(value, int) and value in _AUTH_REFUSALS


async def run_forever(
    url: MqttUrl | str,
    identifier: str,
    on_connect: Callable[[aiomqtt.Client], Awaitable[None]],
    *,
    will: aiomqtt.Will | None = None,
    on_disconnect: Callable[[BaseException], None] | None = None,
    min_backoff_s: float = MIN_BACKOFF_S,
    max_backoff_s: float = MAX_BACKOFF_S,
) -> None:
    """Connect, run ``on_connect(client)``, and reconnect with backoff whenever the connection is lost.

    ``on_connect`` should subscribe, publish its birth and then serve ``client.messages``; when the line drops
    it raises ``aiomqtt.MqttError``, this loop calls ``on_disconnect(error)``, waits MIN_BACKOFF_S doubling up
    to MAX_BACKOFF_S (reset after each successful connect) and connects again (a new clean session: subscribe
    again in ``on_connect``). Returns when ``on_connect`` returns; cancel the task to stop. A refused user
    name or password raises MqttAuthError at once (retrying with the same ones cannot succeed).
    """
    parsed = MqttUrl.parse(url)
    backoff = min_backoff_s
    while True:
        try:
            async with client(parsed, identifier, will) as connected:
                backoff = min_backoff_s
                await on_connect(connected)
                return
        except aiomqtt.MqttError as exc:
            if _is_auth_refusal(exc):
                raise MqttAuthError(f"the broker {parsed} refused user {parsed.username!r}: {exc}") from exc
            log.info("MQTT %s (%s): %s; reconnecting in %.1f s", parsed, identifier, exc, backoff)
            if on_disconnect is not None:
                on_disconnect(exc)
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, max_backoff_s)
