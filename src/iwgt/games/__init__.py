"""The games on the table; importing this package registers every one of them (lazily, by name)."""

from __future__ import annotations

from typing import Any

from iwgt.core.protocol import Game
from iwgt.core.registry import register


def _valkyrx() -> Game[Any, Any]:
    from iwgt.games.valkyrx.game import ValkyrxGame

    return ValkyrxGame()


register("valkyrx", _valkyrx)


def _valhalla() -> Game[Any, Any]:
    from iwgt.games.valhalla.game import ValhallaGame

    return ValhallaGame()


register("valhalla", _valhalla)
