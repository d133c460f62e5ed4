"""The ASGI app: the touchscreen pages, the lobby API and one WebSocket per screen (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocketDisconnected

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON
from iwgt.core.registry import plugins
from iwgt.server.catalogue import game_cards, game_data
from iwgt.server.clock import SYSTEM_CLOCK, Clock
from iwgt.server.errors import TableError, refuse
from iwgt.server.help import game_help
from iwgt.server.limits import RateLimiter
from iwgt.server.live import Accepted
from iwgt.server.manager import CreateRequest, TableManager
from iwgt.server.screens import Screen
from iwgt.server.session import TableSession
from iwgt.server.wire import read_json
from iwgt.table.plain import table_of

log = logging.getLogger("iwgt.server")

MAX_MESSAGE_BYTES = 16 * 1024
"""The largest message a screen may send; an action is a few hundred bytes."""

MAX_FRAME_BYTES = 64 * 1024
"""Frames larger than this close the socket (uvicorn's ``ws_max_size``)."""

HTTP_CODES = {
    400: "malformed",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
}
"""The ``error`` code of each HTTP status the server answers with (docs/protocol.md)."""

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""The host names the lobby answers to without --open-lobby."""

HELLO_SECONDS = 10.0
"""How long a new socket may wait before it says hello."""

SEND_QUEUE = 256
"""Messages waiting for a slow screen before it is dropped (it reconnects and gets its view back)."""


@dataclass(slots=True)
class Settings:
    """How the server runs: where its journal lives and what it lets in."""

    data_dir: Path
    open_lobby: bool = False
    allowed_origins: tuple[str, ...] = ()
    bot_delay: float = 0.6
    rate_per_second: float = 20.0
    rate_burst: int = 40
    clock: Clock = (
        SYSTEM_CLOCK  # the movement timer's, the bot's and the rate limiter's (tests set their own)
    )
    extra: dict[str, Any] = field(default_factory=dict)
    table_bridge: bool = False  # run the physical tables' bridge (server/bridge/) on an embedded broker
    mqtt_listen: str = "127.0.0.1:1883"  # where the embedded broker listens (with --table-bridge)
    mqtt_url: str | None = None  # another broker's mqtt:// or mqtts:// URL (the bridge then embeds none)

    @property
    def journal_path(self) -> Path:
        """The SQLite journal file."""
        return self.data_dir / "tables.sqlite3"


def web_dir() -> Path:
    """The folder of the touchscreen's static files."""
    return Path(str(resources.files("iwgt") / "web"))


def _is_local(host: str | None) -> bool:
    if host is None:
        return False
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost"
    # A server listening on "::" sees this machine's IPv4 clients as ::ffff:127.0.0.1 (not loopback to 3.11).
    mapped = getattr(addr, "ipv4_mapped", None)
    return addr.is_loopback or (mapped is not None and mapped.is_loopback)


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's Origin must be this server itself (or listed); a client that sends none is no browser."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class OriginCheck(BaseHTTPMiddleware):
    """Refuse state-changing requests from another site's pages (cross-site request forgery)."""

    def __init__(self, app: Any, allowed: tuple[str, ...]) -> None:
        super().__init__(app)
        self.allowed = allowed

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        """Check the Origin of POST, PUT, PATCH and DELETE."""
        if request.method in ("POST", "PUT", "PATCH", "DELETE") and not origin_allowed(
            request.headers.get("origin"), request.headers.get("host"), self.allowed
        ):
            return JSONResponse(
                {"error": "forbidden", "message": "requests from other sites are refused"}, 403
            )
        return await call_next(request)


def tune_gc() -> None:
    """Keep the collector's pauses out of the players' way.

    Each action allocates many short-lived objects but builds almost no reference cycles, so the default
    thresholds ran a full collection every second under load, each pausing every table for 70-120 ms.
    Objects alive after start-up (the games' data, the app) are frozen out of the collector's sight.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 50, 50)


GC_THRESHOLD = 50_000
"""Allocations between young-generation collections (CPython's default is 700)."""


def create_app(settings: Settings) -> FastAPI:
    """The server's app; its journal opens at startup and every game in play resumes."""
    manager = TableManager(settings.journal_path, bot_delay=settings.bot_delay, clock=settings.clock)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        manager.start()
        bridge: Any = None
        try:
            if settings.table_bridge or settings.mqtt_url is not None:
                from iwgt.server.bridge import start_bridge  # nothing of the hardware loads without it

                bridge = app.state.bridge = await start_bridge(settings, manager)
            yield
        finally:
            if bridge is not None:
                await bridge.stop()
            manager.stop()

    app = FastAPI(title="Intelligent Wargames Table", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.manager = manager
    app.state.settings = settings
    app.state.bridge = None  # the physical tables' bridge, while it runs (server/bridge/)
    app.add_middleware(OriginCheck, allowed=settings.allowed_origins)
    # Each game's own screen and board, served by convention at /static/games/<name>/ (mounted before the
    # shell's /static, which would otherwise answer for them).
    for plugin in plugins():
        if plugin.web is not None:
            app.mount(
                f"/static/games/{plugin.name}", StaticFiles(directory=plugin.web), name=f"game-{plugin.name}"
            )
    web = web_dir()
    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")

    def lobby(request: Request) -> None:
        if settings.open_lobby:
            return
        if not _is_local(request.client.host if request.client else None):
            raise HTTPException(403, "the lobby answers only on the table's own machine (see --open-lobby)")
        # A loopback client must also have asked for a loopback name: a page of another site whose name was
        # rebound to 127.0.0.1 (DNS rebinding) would otherwise read every table's credentials.
        if urlsplit("//" + request.headers.get("host", "")).hostname not in LOOPBACK_NAMES:
            raise HTTPException(403, "open the lobby as localhost or 127.0.0.1 (see --open-lobby)")

    def table_or_404(table_id: str) -> TableSession:
        try:
            return manager.get(table_id)
        except KeyError:
            raise HTTPException(404, f"there is no table {table_id!r}") from None
        except GameError as exc:
            raise HTTPException(409, exc.message) from None

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> Response:
        """Every HTTP refusal, the router's own (no such route, no such method) included, in one shape."""
        if exc.status_code == 404 and exc.detail == "Not Found":
            message = "there is nothing at this address (see docs/protocol.md for the API)"
        elif exc.status_code == 405:
            message = "this address does not take that method (see docs/protocol.md for the API)"
        else:
            message = str(exc.detail)
        return JSONResponse(
            {"error": HTTP_CODES.get(exc.status_code, "error"), "message": message},
            exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        """A path or query parameter of the wrong kind: malformed, in the documented shape."""
        where = ", ".join(".".join(map(str, e.get("loc", ()))) for e in exc.errors()) or "the request"
        return JSONResponse({"error": "malformed", "message": f"not understood: {where}"}, 400)

    def index() -> FileResponse:
        page = web / "index.html"
        if not page.is_file():
            raise HTTPException(404, "the touchscreen pages are not installed")
        return FileResponse(page, headers={"Cache-Control": "no-store"})

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return index()

    @app.get("/play/{table_id}", include_in_schema=False)
    async def play(table_id: str) -> FileResponse:
        return index()

    @app.get("/api/games")
    async def games() -> list[JSON]:
        """The game selection cards."""
        return game_cards()

    @app.get("/api/games/{name}/data")
    async def data(name: str) -> JSON:
        """A game's spells, wizards' packs and unit names."""
        out = game_data(name)
        if out is None:
            raise HTTPException(404, f"no data for the game {name!r}")
        return out

    @app.get("/api/games/{name}/help")
    async def help_for(name: str) -> JSON:
        """A game's help at the table: how to play, its topics, its first-game guides."""
        out = game_help(name)
        if out is None:
            raise HTTPException(404, f"no such game: {name!r}")
        return out

    async def body(request: Request) -> Any:
        try:
            raw = await request.body()
        except ClientDisconnect:  # half a body, then silence: the timed protocol closed the connection
            raise HTTPException(400, "the request's body was not sent whole") from None
        if len(raw) > 8 * 1024 * 1024:
            raise HTTPException(413, "the body is larger than 8 MiB")
        try:
            return read_json(raw, "the body")
        except GameError as exc:
            raise HTTPException(400, exc.message) from None

    def links(request: Request, table: TableSession) -> JSON:
        base = str(request.base_url).rstrip("/")
        return manager.links(table, base)

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> JSON:
        """Create a table (see docs/protocol.md)."""
        lobby(request)
        try:
            req = CreateRequest.parse(await body(request))
            table = await manager.create(req)
        except GameError as exc:
            raise HTTPException(400, exc.message) from None
        return {"id": table.row.id, "links": links(request, table), "table": table.live.summary()}

    @app.get("/api/tables")
    async def list_tables(request: Request) -> list[JSON]:
        """Saved tables, newest first."""
        lobby(request)
        out = []
        for row in manager.rows():
            summary = manager.row_summary(row)
            summary["links"] = manager.links_for_row(row, str(request.base_url).rstrip("/"))
            out.append(summary)
        return out

    @app.get("/api/tables/{table_id}")
    async def one_table(request: Request, table_id: str) -> JSON:
        """One table's summary and links."""
        lobby(request)
        table = table_or_404(table_id)
        return {**table.live.summary(), "links": links(request, table)}

    @app.delete("/api/tables/{table_id}", status_code=204)
    async def delete(request: Request, table_id: str) -> Response:
        """Delete a table and its journal."""
        lobby(request)
        if not await manager.delete(table_id):
            raise HTTPException(404, f"there is no table {table_id!r}")
        return Response(status_code=204)

    @app.get("/api/tables/{table_id}/record")
    async def export(request: Request, table_id: str, token: str | None = None) -> JSONResponse:
        """The game record; a seat may export only a finished game (it holds every hidden fact)."""
        table = table_or_404(table_id)
        if token is not None:
            if not manager.seats_for(table, token) and not manager.is_table_token(table, token):
                raise HTTPException(403, "that credential does not belong to this table")
            if table.live.status == "playing":
                raise HTTPException(
                    403, "the record holds hidden facts: it is exported once the game is over"
                )
        else:
            lobby(request)
        headers = {"Content-Disposition": f'attachment; filename="{table_id}.json"'}
        return JSONResponse(table.live.record().to_json(), headers=headers)

    @app.post("/api/tables/import", status_code=201)
    async def import_record(request: Request) -> JSON:
        """Import a record: replayed step by step (digests checked), then playable or finished."""
        lobby(request)
        try:
            table = await manager.import_record(await body(request))
        except GameError as exc:
            raise HTTPException(400, exc.message) from None
        return {"id": table.row.id, "links": links(request, table), "table": table.live.summary()}

    @app.get("/api/hardware")
    async def hardware(request: Request) -> JSON:
        """The physical tables the bridge knows and the game table each plays (none without the bridge)."""
        lobby(request)
        bridge = app.state.bridge
        return {"devices": [] if bridge is None else bridge.devices_json()}

    @app.put("/api/hardware/{device}")
    async def bind_hardware(request: Request, device: str) -> JSON:
        """Bind a physical table to a game table (``{"table": id}``), or free it (``{"table": null}``)."""
        lobby(request)
        bridge = app.state.bridge
        if bridge is None:
            raise HTTPException(409, "no physical table is served: start the server with --table-bridge")
        data = await body(request)
        if not isinstance(data, dict) or set(data) != {"table"} or not isinstance(data["table"], str | None):
            raise HTTPException(400, 'the body must be {"table": "<table id>"} or {"table": null}')
        try:
            return dict(await bridge.bind(device, data["table"]))
        except KeyError as exc:
            raise HTTPException(404, str(exc.args[0])) from None
        except GameError as exc:
            raise HTTPException(409, exc.message) from None

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
        ):
            await websocket.close(code=1008, reason="origin refused")
            return
        await websocket.accept()
        await Connection(websocket, manager, settings).run(table_id)

    return app


class Connection:
    """One screen's socket: hello, then messages authorized against the seats bound at hello."""

    def __init__(self, websocket: WebSocket, manager: TableManager, settings: Settings) -> None:
        self.ws = websocket
        self.manager = manager
        self.limiter = RateLimiter(settings.rate_per_second, settings.rate_burst, settings.clock.monotonic)
        self.outbox: asyncio.Queue[JSON | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.screen: Screen | None = None
        self.table: TableSession | None = None
        self.close_code, self.close_reason = 1000, ""  # how the socket closes once the outbox is done
        self.gone = False  # the socket failed or closed: nothing more is sent, and the reader stops

    def send(self, message: JSON) -> None:
        """Queue a message for this screen; a screen too slow to read is dropped (it will reconnect)."""
        if self.gone:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("a screen fell %d messages behind; dropping it", SEND_QUEUE)
            self.close_code, self.close_reason = 1013, "too slow"
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.get_nowait()
                self.outbox.put_nowait(None)

    async def _pump(self) -> None:
        try:
            while (message := await self.outbox.get()) is not None:
                try:
                    text = orjson.dumps(message).decode()
                except orjson.JSONEncodeError:  # a bug, not the screen's fault: its other answers still go
                    log.exception("an answer could not be encoded; it was not sent")
                    continue
                await self.ws.send_text(text)
                if message.get("type") == "closed":  # the table was deleted or quit: nothing more to say
                    self.close_code, self.close_reason = 1000, "the table is closed"
                    if self.table is not None and self.screen is not None:
                        self.table.screens.discard(self.screen)
                    break
            await self.ws.close(code=self.close_code, reason=self.close_reason)
        except (WebSocketDisconnect, WebSocketDisconnected, OSError):
            pass  # the screen went away while a message was on its way: the reader sees the disconnect
        finally:
            self._leave()

    def _leave(self) -> None:
        """This socket is done: it is taken off its table's screens, and nothing more is queued for it."""
        self.gone = True
        if self.table is not None and self.screen is not None:
            self.table.screens.discard(self.screen)

    def error(self, code: str, message: str, msg_id: Any = None, lights: list[JSON] | None = None) -> None:
        """Send a structured error; nothing changed."""
        self.send({"type": "error", "id": msg_id, "error": code, "message": message, "lights": lights or []})

    async def run(self, table_id: str) -> None:
        """Serve the socket until it closes."""
        pump = asyncio.create_task(self._pump())
        try:
            if await self._hello(table_id):
                await self._serve()
            else:  # refused at hello: a policy violation, not "try again later" (1013)
                self.close_code, self.close_reason = 1008, "no hello with a credential of this table"
        except (WebSocketDisconnect, _Gone):
            pass
        finally:
            if self.table is not None and self.screen is not None:
                self.table.screens.discard(self.screen)
            if not self.outbox.full():
                self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 1.0)
            pump.cancel()

    async def _receive(self) -> Any:
        # The socket's own receive, not receive_text: once a send failed (the screen dropped while its ack or
        # view was on its way) Starlette refuses receive_text at once, without waiting, and a reader that
        # took that for a bad message spun forever without yielding, freezing every table on the server.
        if self.gone:
            raise _Gone
        try:
            message = await self.ws.receive()
        except (WebSocketDisconnected, OSError):
            raise _Gone from None
        if message["type"] == "websocket.disconnect":
            raise _Gone
        raw = message.get("text")
        if raw is None:
            raise _Refusal("malformed", "a message is a JSON text frame, not a binary one")
        if len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
            raise _Refusal("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
        try:
            msg = read_json(raw)
        except GameError as exc:
            raise _Refusal("malformed", exc.message) from None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise _Refusal("malformed", 'a message is a JSON object with a "type"')
        return msg

    async def _hello(self, table_id: str) -> bool:
        try:
            msg = await asyncio.wait_for(self._receive(), HELLO_SECONDS)
        except TimeoutError:
            self.error("unauthorized", "say hello with your credential first")
            return False
        except _Refusal as exc:
            self.error(exc.code, exc.message)
            return False
        if msg.get("type") != "hello" or not isinstance(msg.get("token"), str):
            self.error("unauthorized", 'the first message must be {"type": "hello", "token": "…"}')
            return False
        try:
            table = self.manager.get(table_id)
        except KeyError:
            self.error("not_found", f"there is no table {table_id!r}")
            return False
        except GameError as exc:
            self.error(exc.code, exc.message)
            return False
        token = msg["token"]
        seats = self.manager.seats_for(table, token)
        if not seats and not self.manager.is_table_token(table, token):
            self.error("unauthorized", "that credential does not open this table")
            return False
        self.table = table
        # A client id is the screen's own: two credentials sending the same id are two messages.
        tag = (
            "table"
            if self.manager.is_table_token(table, token)
            else "seat" + "-".join(map(str, sorted(seats)))
        )
        self.screen = Screen(frozenset(seats), self.send, tag=tag)
        self.send(
            {
                "type": "welcome",
                "table": table.live.summary(),
                "seats": sorted(seats),
                "names": list(table.live.seat_names),
            }
        )
        table.screens.add(self.screen)
        self._send_view()
        return True

    def _send_view(self) -> None:
        assert self.table is not None and self.screen is not None
        self.table.send_view(self.screen)

    async def _serve(self) -> None:
        while True:
            msg_id: Any = None
            try:
                msg = await self._receive()
                msg_id = msg.get("id")
                if not self.limiter.allow():
                    raise _Refusal("rate_limited", "too many messages: wait a moment")
                # Ids with ':' are the server's own ("timer:42", "bot:42"): a client squatting one would
                # have the timer's or the bot's step taken for a retry, and never applied.
                if msg_id is not None and (
                    not isinstance(msg_id, str) or not 0 < len(msg_id) <= 64 or ":" in msg_id
                ):
                    raise _Refusal("malformed", "'id' must be a string of 1 to 64 characters, without ':'")
                await self._dispatch(msg)
            except _Refusal as exc:
                self.error(exc.code, exc.message, msg_id, exc.lights)
            except (WebSocketDisconnect, _Gone):
                raise
            except Exception as exc:  # a message must never take the server down or leak a trace
                err = refuse(exc)
                if not isinstance(exc, GameError):
                    log.exception("unexpected failure on a message")
                self.error(err.code, err.message, msg_id)

    async def _acknowledge(self, msg: JSON, accepted: Accepted) -> None:
        """Ack a committed step, then broadcast; a retry gets its first ack and this screen's view again."""
        assert self.table is not None
        self.send({"type": "ack", "id": msg.get("id"), "version": accepted.version})
        if accepted.repeated:
            self._send_view()
        else:
            await asyncio.sleep(0)  # the ack leaves before the views are built
            self.table.after_step()

    def _client_id(self, msg: JSON) -> str | None:
        """The message's id as the journal keeps it: prefixed by the credential that sent it."""
        assert self.screen is not None
        msg_id = msg.get("id")
        return None if msg_id is None else f"{self.screen.tag}/{msg_id}"

    def _seat(self, msg: JSON) -> int:
        assert self.screen is not None
        seat = msg.get("seat")
        if seat is None and len(self.screen.seats) == 1:
            return next(iter(self.screen.seats))
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise _Refusal("malformed", "'seat' must be your seat number")
        if seat not in self.screen.seats:
            raise _Refusal("unauthorized", f"this screen does not hold seat {seat}")
        return seat

    async def _dispatch(self, msg: JSON) -> None:
        table, screen = self.table, self.screen
        assert table is not None and screen is not None
        kind = msg["type"]
        if kind == "ping":
            self.send({"type": "pong"})
        elif kind == "act":
            seat = self._seat(msg)
            action = msg.get("action")
            table.playing(seat)  # a mover who plays without a ready has read the report: the clock runs
            try:
                accepted = await table.live.act(seat, action, self._client_id(msg))
            except GameError as exc:
                raise _Refusal(exc.code, exc.message, _illegal_lights(table, seat, action)) from None
            await self._acknowledge(msg, accepted)
        elif kind == "die":
            if not screen.seats:
                raise _Refusal("unauthorized", "a spectator does not roll the dice")
            accepted = await table.live.enter_die(msg.get("face"), self._client_id(msg))
            await self._acknowledge(msg, accepted)
        elif kind == "select":
            seat = self._seat(msg)
            unit = msg.get("unit")
            if not isinstance(unit, int) or isinstance(unit, bool):
                raise _Refusal("malformed", "'unit' must be a unit id")
            live = table.live
            out = table_of(live.plugin).selection(live.game, live.state, seat, unit)
            self.send({**out, "id": msg.get("id")})
        elif kind == "preview":
            seat = self._seat(msg)
            action = msg.get("action")
            if not isinstance(action, dict):
                raise _Refusal("malformed", "'action' must be an action object")
            live = table.live
            out = table_of(live.plugin).preview(live.game, live.state, seat, action)
            self.send({**out, "id": msg.get("id")})
        elif kind == "ready":  # the seat's screen shows `version` uncovered: a held timer may start
            seat = self._seat(msg)
            version = msg.get("version")
            if not isinstance(version, int) or isinstance(version, bool) or version < 0:
                raise _Refusal("malformed", "'version' must be the version of the view the screen shows")
            table.ready(seat, version)
        elif kind == "undo":  # take back the seat's last step, or ask the other player (docs/protocol.md)
            await self._acknowledge(msg, await table.live.ask_undo(self._seat(msg), self._client_id(msg)))
        elif kind == "undo_answer":
            seat, allow = self._seat(msg), msg.get("allow")
            await self._acknowledge(msg, await table.live.answer_undo(seat, allow, self._client_id(msg)))
        elif kind == "quit":
            if not screen.seats:
                raise _Refusal("unauthorized", "a spectator cannot quit the game")
            await table.quit()
            self.send({"type": "ack", "id": msg.get("id"), "version": table.live.version})
            table.close_screens("the game was quit")
        elif kind == "hardware":  # the physical table: play on past the cells it now reads wrongly
            if not screen.seats:
                raise _Refusal("unauthorized", "a spectator does not decide for the table")
            if msg.get("op") != "carry_on":
                raise _Refusal("malformed", "'op' must be \"carry_on\"")
            if table.hardware is None:
                raise _Refusal("no_hardware", "no physical table plays this game")
            table.hardware.carry_on()
            self.send({"type": "ack", "id": msg.get("id"), "version": table.live.version})
        elif kind == "hello":
            raise _Refusal("malformed", "this screen already said hello")
        else:
            raise _Refusal("malformed", f"unknown message type {kind!r}")


def _illegal_lights(table: TableSession, seat: int, action: Any) -> list[JSON]:
    """An illegal destination lights red (VX-14-03): the cell the action named, if it is on the board."""
    if not isinstance(action, dict):
        return []
    live = table.live
    obs = live.game.observe(live.state, seat)
    return [light.to_json() for light in table_of(live.plugin).refusal_lights(obs, action)]


class _Gone(Exception):
    """The screen's socket is closed: its connection ends, and only its own."""


class _Refusal(Exception):
    def __init__(self, code: str, message: str, lights: list[JSON] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.lights = lights or []


__all__ = ["Settings", "TableError", "create_app", "origin_allowed"]
