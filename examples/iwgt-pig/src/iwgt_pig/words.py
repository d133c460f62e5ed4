"""Pig in words: every action and event as one sentence, for the server's log, the headless report and the
screen. Names come from the seat's observation (the players' names). Every event is public."""

from __future__ import annotations

from iwgt.core.protocol import JSON, Event, Seat


class PigWords:
    """The words of Pig (``GamePlugin.words``). A roll and a hold are told by their events (the face, what was
    banked), so the actions themselves say nothing."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """Nothing: ``Rolled``, ``RolledOne`` and ``Held`` say what the roll or the hold did."""
        return None

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """ "Anna rolls 5: 5 this turn", "Anna holds: banks 12, 30 in all", "Anna wins with 31"."""
        from iwgt_pig.rules import Held, Rolled, RolledOne, Won

        names = [str(p["name"]) for p in observation.get("players", [])]

        def name(s: int) -> str:
            return names[s] if 0 <= s < len(names) else f"seat {s}"

        match event:
            case Rolled(s, face, total):
                return f"{name(s)} rolls {face}: {total} this turn"
            case RolledOne(s, lost):
                return f"{name(s)} rolls a 1 and loses {lost}"
            case Held(s, banked, score):
                return f"{name(s)} holds: banks {banked}, {score} in all"
            case Won(s, score):
                return f"{name(s)} wins with {score}"
        return None
