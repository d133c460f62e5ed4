"""The games on the table: one package each, with one plug-in object registered under the ``iwgt.games`` entry
point group (``pyproject.toml``). Nothing here registers a game: the core registry reads the entry points.

Why not: every rule that can refuse an act says why in one way, a function
``why_not_<verb>(...) -> str | None`` (``why_not_move``, ``why_not_charge``, ``why_not_cast``,
``why_not_shoot``...) in the rules module of its subject. It returns None when the act is allowed, and
otherwise one sentence a player understands, naming the pieces and, where it helps, the rule clause
(``Asa warrior is 2.10" away: a charge covers 2"``). It only judges: it changes nothing and raises nothing.
``legal_actions`` offers only acts it allows, ``apply`` raises ``IllegalAction`` with its sentence (at most
after the piece's name), and the touchscreen and the bots ask the same functions, so none of them can disagree
with the referee. What a legal act measures (a shot's range and cover, ``aim``; a move's cost, ``check_move``)
comes from functions of its own.
"""
