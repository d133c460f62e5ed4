"""Hidden information through the server (VX-12-02 to VX-12-05, VX-15-05/06): the other seat never learns it.

The sorcery scenario, two remote seats. The Light arms Wulfgeldre with spells of its choosing, names the
Grima's quarry and takes her off the table; the table moves her after her quarry, unseen. Every message the
Darkness's screen receives (views with their observation, lights, events, log with its words, cards, report
and timer; acks; errors; selections; previews) is searched for her cell, her quarry and the Light's held
spells.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .kit import JSON, Screen, create, screen, seat_token, serving, to_movement

pytestmark = pytest.mark.timeout(60)

GRIMA = 2
"""The Grima's unit id in sorcery.toml (the Light's third unit)."""
WULFGELDRE = 0
QUARRY = 14
"""Pocâdl, far across the table: she stays hidden through the first turns."""
CHOSEN = ["fire", "strength", "shield", "courage", "speed", "ice"]
ARMED = "The Light: arms Wulfgeldre Warrior Wizard (L0) with Fire, Strength, Shield, Courage, Speed, Ice."
"""The arming's sentence, as the Light reads it in its log (the spells' names from data/spells.toml)."""
HER = "The Grima (of the mask) (L2)"
POCADL = "Pocâdl - Bringer of Plaque (Demon) (D14)"


def _cell(v: Any) -> tuple[int, int] | None:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return (v[0], v[1])
    return None


def leaks(msg: JSON, hidden_cells: set[tuple[int, int]], light_ids: set[int]) -> list[str]:
    """What in one message the Darkness must not see while the Grima hides."""
    found: list[str] = []
    visible_cells = set()
    if msg.get("type") == "view":
        visible_cells = {_cell(u["cell"]) for u in msg["observation"]["units"] if not u.get("hidden")}
        for light in msg["lights"]:
            cell = _cell(light["cell"])
            if cell in hidden_cells and cell not in visible_cells:
                found.append(f"light {light} at the Grima's hidden cell")

    def walk(x: Any, path: str) -> None:
        if isinstance(x, dict):
            about_grima = x.get("id") == GRIMA or x.get("unit") == GRIMA
            if about_grima:
                for k, v in x.items():
                    if _cell(v) in hidden_cells:
                        found.append(f"{path}.{k} = {v}: the Grima's hidden cell")
            if "quarry" in x:
                found.append(f"{path}: a quarry ({x['quarry']})")
            if x.get("event") in ("QuarryChosen", "HiddenMove"):
                found.append(f"{path}: a secret event {x}")
            if x.get("type") == "quarry" and "target" in x:
                found.append(f"{path}: the quarry order {x}")
            owner_light = x.get("owner") == 0 or x.get("id") in light_ids or x.get("unit") in light_ids
            if "spells" in x and owner_light and x["spells"]:
                found.append(f"{path}: the Light's held spells {x['spells']}")
            for k, v in x.items():
                walk(v, f"{path}.{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")
        elif isinstance(x, str):
            if "Pocâdl" in x and "Grima" in x:
                found.append(f"{path}: a text naming her quarry: {x!r}")
            if "Grima" in x and any(f"[{c[0]}, {c[1]}]" in x for c in hidden_cells - visible_cells):
                found.append(f"{path}: a text giving her hidden cell: {x!r}")
            if "arms" in x and "Strength" in x:
                found.append(f"{path}: a text giving the Light's held spells: {x!r}")

    walk(msg, msg.get("type", "?"))
    return found


def grima(view: JSON) -> JSON:
    return next(u for u in view["observation"]["units"] if u["id"] == GRIMA)


def end_phases_until(s0: Screen, s1: Screen, stop: Any, limit: int = 40) -> JSON:
    """Both seats end their phases in turn until ``stop(view of seat 0)``; returns that view."""
    for i in range(limit):
        v0 = s0.last_view()
        if stop(v0):
            return v0
        mover = v0["to_move"]
        assert mover in (0, 1), v0["to_move"]
        s = (s0, s1)[mover]
        done = s.acted({"type": "end_phase"}, f"end-{i}", mover)
        s0.view_from(done["version"])
        s1.view_from(done["version"])
    raise AssertionError("the condition never came")


def test_the_darkness_never_sees_the_hidden_grima_her_quarry_or_the_lights_spells(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, scenario="sorcery", seed=7, timer_seconds=600)  # views carry a timer too
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            light_ids = {u["id"] for u in s0.last_view()["observation"]["units"] if u["owner"] == 0}
            # VX-15-05/06: the Light arms Wulfgeldre before the game; the choice is the Light's secret.
            armed = s0.acted({"type": "spells", "unit": WULFGELDRE, "spells": CHOSEN}, "arm", 0)
            wulf = next(u for u in armed["observation"]["units"] if u["id"] == WULFGELDRE)
            assert wulf["spells"] == CHOSEN  # its owner sees them
            # The log's words, per seat: the Light reads its order, the Darkness only that one was given.
            assert armed["log"][-1]["text"] == [ARMED]
            dark = s1.view_from(armed["version"])
            assert dark["log"][-1]["action"] == {"type": "secret_order"}
            assert dark["log"][-1]["text"] == ["The Light: gives a secret order."]
            start = to_movement(s0, s1)
            if start["to_move"] == 1:
                done = s1.acted({"type": "end_phase"}, "dark-first", 1)
                s0.view_from(done["version"])
            v0 = s0.last_view()
            assert v0["to_move"] == 0 and v0["observation"]["phase"] == "movement"
            public = _cell(grima(v0)["cell"])
            assert public is not None and not grima(v0)["hidden"]
            assert {"type": "conceal", "unit": GRIMA} in v0["options"]["actions"]
            # VX-12-03: she is set on her quarry, a secret order; VX-12-02: she goes into stealth.
            named = s0.acted({"type": "quarry", "unit": GRIMA, "target": QUARRY}, "quarry", 0)
            assert named["log"][-1]["text"] == [
                f"The Light: {HER} chooses her quarry.",
                f"{HER} hunts {POCADL}.",
            ]
            dark = s1.view_from(named["version"])
            assert dark["log"][-1]["text"] == ["The Light: gives a secret order."]
            mark = len(s1.seen)  # from here on she is hidden from the Darkness
            v0 = s0.acted({"type": "conceal", "unit": GRIMA}, "conceal", 0)
            hid_at = v0["version"]
            assert grima(v0)["hidden"] is True and _cell(grima(v0)["cell"]) == public
            assert grima(v0)["quarry"] == QUARRY  # her owner knows where she is and whom she hunts
            assert next(x for x in v0["cards"] if x["unit"] == GRIMA)["quarry"] == QUARRY
            hidden_cells = {public}

            # The Darkness probes: its own selections and previews, and a move onto her cell.
            v1 = s1.wait_for(lambda m: m["type"] == "view" and m["version"] == v0["version"])
            assert grima(v1)["hidden"] is True and grima(v1)["cell"] is None
            s1.send({"type": "select", "seat": 1, "unit": GRIMA})
            assert s1.until(lambda m: m["type"] == "selection")["lights"] == []
            onto_her = {"type": "move", "unit": 13, "to": list(public)}
            s1.send({"type": "preview", "seat": 1, "action": onto_her})
            s1.until(lambda m: m["type"] == "preview")
            # Seat 1's credential can neither act for seat 0 nor ask about seat 0's pieces.
            err = s1.act({"type": "reveal", "unit": GRIMA}, "steal", 0)
            assert err["error"] == "unauthorized"
            for probe in ({"type": "select", "seat": 0, "unit": GRIMA}, {"type": "preview", "seat": 0}):
                s1.send({**probe, "action": {"type": "end_phase"}} if probe["type"] == "preview" else probe)
                assert s1.until(lambda m: m["type"] == "error")["error"] == "unauthorized"
            r = c.get(f"/api/tables/{tid}/record", params={"token": seat_token(made, 1)})
            assert r.status_code == 403  # the record holds every hidden fact

            # Turns go by; the table moves her after her quarry, unseen (VX-12-04).
            def revealed_or_late(v: JSON) -> bool:
                g = grima(v)
                if g["hidden"] and g["cell"] is not None:
                    hidden_cells.add(_cell(g["cell"]))  # type: ignore[arg-type]
                return not g["hidden"] or v["observation"]["turn"] >= 3

            end = end_phases_until(s0, s1, revealed_or_late)
            for m in s0.seen:  # every cell she hid in, as her owner saw it
                if m["type"] == "view" and grima(m)["hidden"] and grima(m)["cell"] is not None:
                    hidden_cells.add(_cell(grima(m)["cell"]))  # type: ignore[arg-type]
            assert len(hidden_cells) >= 2, "she never moved while hidden: the test proves too little"
            stop = end["version"] if not grima(end)["hidden"] else None

            checked = 0
            for msg in s1.seen[mark:]:
                if msg["type"] == "view" and msg["version"] < hid_at:
                    continue  # sent before she hid (the quarry order's view)
                if stop is not None and msg.get("version", 0) >= stop:
                    break
                assert not leaks(msg, hidden_cells, light_ids), leaks(msg, hidden_cells, light_ids)
                checked += 1
            assert checked >= 10
            # And from the very start: never her quarry, never the Light's chosen spells.
            for msg in s1.seen:
                found = [x for x in leaks(msg, set(), light_ids) if "cell" not in x]
                assert not found, found
            # The check itself sees a leak: seat 0's own messages hold all three secrets.
            own = [x for m in s0.seen[mark:] for x in leaks(m, hidden_cells, light_ids)]
            assert any("hidden cell" in x for x in own)
            assert any("quarry" in x for x in own)
            assert any("held spells" in x for x in own)
            assert any("text giving the Light's held spells" in x for x in own)
            assert any("text naming her quarry" in x for x in own)
            # Her owner's log tells where she went unseen; the Darkness's never does.
            unseen = [t for m in s0.seen if m["type"] == "view" for e in m["log"] for t in e["text"]]
            assert any(t.startswith(f"{HER} moves unseen from ") for t in unseen)
            dark_log = [t for m in s1.seen if m["type"] == "view" for e in m["log"] for t in e["text"]]
            assert dark_log and not any("unseen" in t or "hunts" in t for t in dark_log)
