"""The turn of Valhalla: dealing, cards coming up, activations ending, dice answered, coins and victory."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Point, Polygon

from iwgt.core.protocol import Event
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.dice import Fighter, Harm, fight_hits, save_effect
from iwgt.games.valhalla.events import (
    ActivationEnded,
    CardDealt,
    CardPassed,
    CardUp,
    CoinsWon,
    FigureHurt,
    FigureKilled,
    Fought,
    GameOver,
    ObjectiveAchieved,
    SavingThrow,
    ShotFired,
    ThingDropped,
    TurnBegan,
    TurnEnded,
)
from iwgt.games.valhalla.movement import charge_end, drop, figure_radius, nearest_enemy_gap
from iwgt.games.valhalla.scenario import THING_RADIUS
from iwgt.games.valhalla.state import Figure, ValhallaState, card_label
from iwgt.geometry.plane import EPS, edge_distance

Step = tuple[ValhallaState, list[Event]]


# ---------------------------------------------------------------- the turn


def start_turn(state: ValhallaState, events: list[Event]) -> Step:
    """Gather and shuffle the whole deck and deal one card per living figure to each player, in turns
    round the table (VH-TS-01, VH-TS-02); the deal itself is a run of chance steps, and its first card says
    that the turn has begun (``deal``: so turn 1 is announced too, though the first deal is made before any
    event can be told)."""
    seats = len(state.scenario.spec.players)
    alive = [sum(1 for f in state.figures if f.alive and f.seat == s) for s in range(seats)]
    to_deal = tuple(s for rnd in range(max(alive, default=0)) for s in range(seats) if alive[s] > rnd)
    figures = tuple(replace(f, activated=False) for f in state.figures)
    state = replace(
        state,
        phase="deal",
        figures=figures,
        deck=tuple(range(52)),
        to_deal=to_deal,
        hands=((),) * seats,
        order=(),
        card_index=0,
        active=None,
        allowance=0,
        actions_used=0,
    )
    return state, events


def deal(state: ValhallaState, face: int, events: list[Event]) -> Step:
    """Deal the ``face``-th card left in the deck to the next seat; after the last, the cards come up."""
    card = state.deck[face - 1]
    seat = state.to_deal[0]
    if not any(state.hands):  # the deal's first card: the turn begins (TurnBegan, once a turn)
        events.append(TurnBegan(state.turn))
    hands = list(state.hands)
    hands[seat] = tuple(sorted((*hands[seat], card)))
    state = replace(
        state, deck=state.deck[: face - 1] + state.deck[face:], to_deal=state.to_deal[1:], hands=tuple(hands)
    )
    events.append(CardDealt(seat, card, card_label(card)))
    if state.to_deal:
        return state, events
    # Cards are numbered rank first, then suit in the decided order: sorting them is playing order.
    order = tuple(sorted((c, s) for s, hand in enumerate(state.hands) for c in hand))
    state = replace(state, phase="activate", order=order, card_index=0)
    return next_card(state, events)


def allowance(f: Figure) -> int:
    """The actions a figure's activation allows: fewer when it is shocked or wounded (VH-AC-02, VH-AC-03)."""
    a = rules().actions
    return a.when_hurt if f.hurt else a.per_activation


def activate(state: ValhallaState, f: Figure) -> ValhallaState:
    """The state once the card that is up activates this figure: its allowance, no action used yet."""
    state = replace(state, active=f.id, allowance=allowance(f), actions_used=0)
    return state.with_figure(replace(f, activated=True))


def recover(state: ValhallaState, f: Figure) -> ValhallaState:
    """The state after a figure recovers: one shock marker less (VH-AC-14)."""
    return state.with_figure(replace(f, shock=f.shock - 1))


def why_not_recover(state: ValhallaState, f: Figure) -> str | None:
    """Why a figure may not recover now, or None if it may (VH-AC-13, VH-AC-14)."""
    beyond = rules().actions.recover_beyond
    if f.shock <= 0:
        return f"{f.name} has no shock marker to remove"
    if state.engaged(f.id) or nearest_enemy_gap(state, f) <= beyond:
        return f'{f.name} must be more than {beyond:g}" from every enemy to recover'
    return None


def coin_targets(state: ValhallaState) -> tuple[int, int]:
    """The coins each side needs to win: so many per player of the side (VH-WL-08)."""
    per = rules().table.coins_per_player
    return per * len(state.scenario.side_seats(0)), per * len(state.scenario.side_seats(1))


def eligible(state: ValhallaState, seat: int) -> list[Figure]:
    """The seat's living figures not yet activated this turn (VH-AC-01)."""
    return [f for f in state.figures if f.seat == seat and f.alive and not f.activated]


def next_card(state: ValhallaState, events: list[Event]) -> Step:
    """Turn up the card at ``card_index``; a card whose holder has nothing left to activate is passed."""
    while state.card_index < len(state.order):
        card, seat = state.order[state.card_index]
        events.append(CardUp(seat, card, card_label(card)))
        if eligible(state, seat):
            return state, events
        events.append(
            CardPassed(seat, card, card_label(card), "no figure of this player is left to activate")
        )
        state = replace(state, card_index=state.card_index + 1)
    return end_turn(state, events)


def end_activation(state: ValhallaState, events: list[Event]) -> Step:
    """The activation (or the pass) of the card that is up ends; the next card comes up."""
    if state.active is not None:
        events.append(ActivationEnded(state.active))
    state = replace(
        state, active=None, allowance=0, actions_used=0, withdrew=False, card_index=state.card_index + 1
    )
    return next_card(state, events)


def end_turn(state: ValhallaState, events: list[Event]) -> Step:
    """All cards are played (VH-TS-06): the baggage moves, then the next turn or the end."""
    events.append(TurnEnded(state.turn))
    queue = tuple(
        t.id
        for t in state.things
        if t.baggage_side is not None and baggage_driver(state, t.baggage_side) is not None
    )
    if queue:
        return replace(state, phase="baggage", baggage_queue=queue), events
    return next_turn(state, events)


def baggage_driver(state: ValhallaState, side: int) -> int | None:
    """The seat that drives a side's baggage: the side's first player with a living figure."""
    for seat in state.scenario.side_seats(side):
        if any(f.alive and f.seat == seat for f in state.figures):
            return seat
    return None


def baggage_done(state: ValhallaState, events: list[Event]) -> Step:
    """One baggage has moved (or stayed): the next, or the next turn."""
    state = replace(state, baggage_queue=state.baggage_queue[1:])
    state, events = settle_scores(state, events)
    if state.phase == "over" or state.baggage_queue:
        return state, events
    return next_turn(state, events)


def next_turn(state: ValhallaState, events: list[Event]) -> Step:
    """The next turn, or the end of the game at the scenario's turn limit (VH-WL-08 decided)."""
    if state.turn >= state.scenario.spec.turn_limit:
        a, b = state.coins
        side = None if a == b else (0 if a > b else 1)
        return game_over(state, events, side, f"the turn limit ({state.scenario.spec.turn_limit}) is reached")
    return start_turn(replace(state, turn=state.turn + 1, baggage_queue=()), events)


# ---------------------------------------------------------------- dice


def answer(state: ValhallaState, face: int) -> Step:
    """A die's face answers the chance step waiting: a deal, a fight's die, a shot, or a saving throw."""
    events: list[Event] = []
    if state.to_deal:
        return deal(state, face, events)
    if state.fight is not None:
        fight = state.fight
        if fight.attacker_face is None:
            return replace(state, fight=replace(fight, attacker_face=face)), events
        state, events = resolve_fight(state, fight.attacker_face, face, events)
    elif state.shot is not None:
        shot = state.shot
        hit = face >= shot.needs
        events.append(ShotFired(shot.shooter, shot.target, face, shot.needs, hit, shot.distance, shot.cover))
        state = replace(state, shot=None, saves=(shot.target,) if hit else ())
    else:
        state, events = saving_throw(state, face, events)
    return after_action(state, events)


def fighter(state: ValhallaState, f: Figure, foe: Figure, *, charging: bool, charged: bool) -> Fighter:
    """A figure's side of a fight (VH-CO-06..09); ``charged``: it was the one charged in this combat.

    VH-CO-07 decided: +1 once, for standing higher than the opponent, or for being the charged figure
    in a village or woods.
    """
    ground = state.scenario.ground
    higher = ground.elevation(f.at) > ground.elevation(foe.at) + EPS or (charged and ground.in_cover(f.at))
    return Fighter(f.kind, f.shock, f.wounded, charging, higher)


def fight_sides(
    state: ValhallaState, attacker: int, defender: int, charging: bool
) -> tuple[Fighter, Fighter]:
    """Both fighters of a combat, as the dice will see them."""
    a, d = state.figure(attacker), state.figure(defender)
    e = state.engagement(attacker, defender)
    charged_a = e is not None and e.charged == attacker
    charged_d = e is None or e.charged == defender
    return (
        fighter(state, a, d, charging=charging, charged=charged_a),
        fighter(state, d, a, charging=False, charged=charged_d),
    )


def charge_sides(state: ValhallaState, f: Figure, target: Figure) -> tuple[Fighter, Fighter]:
    """Both fighters of the combat a charge would start, as the dice will see them: the charger charging from
    the contact point ``charge_into`` puts it on, the target the one charged (``fight_sides`` after the
    charge; no state is built, as the bot asks this for every enemy that might charge)."""
    moved = replace(f, at=charge_end(f, target))
    return (
        fighter(state, moved, target, charging=True, charged=False),
        fighter(state, target, moved, charging=False, charged=True),
    )


def resolve_fight(state: ValhallaState, a_face: int, d_face: int, events: list[Event]) -> Step:
    """Both dice are in: compare the scores; the hits call for saving throws (VH-CO-10..13)."""
    fight = state.fight
    assert fight is not None
    fa, fd = fight_sides(state, fight.attacker, fight.defender, fight.charging)
    sa, sd = fa.score(a_face), fd.score(d_face)
    ha, hd = fight_hits(sa, sd), fight_hits(sd, sa)
    events.append(Fought(fight.attacker, fight.defender, a_face, d_face, sa, sd, ha, hd))
    saves = (fight.defender,) * ha + (fight.attacker,) * hd
    return replace(state, fight=None, saves=saves), events


def saving_throw(state: ValhallaState, face: int, events: list[Event]) -> Step:
    """The Dice of Death for the next hit figure, with its coins for the enemy (VH-ST-*, VH-WL-03..06)."""
    fid = state.saves[0]
    f = state.figure(fid)
    kind = rules().figures[f.kind]
    effect = save_effect(face, f.kind)
    events.append(SavingThrow(fid, face, effect))
    before = Harm(f.shock, f.wounds)
    after = before.take(effect)
    state = replace(state, saves=state.saves[1:])
    enemy = 1 - f.side
    if after.killed:
        state = kill(state, f, events)
        if kind.killed_coins:
            state = award(state, enemy, kind.killed_coins, f"{f.name} went to Valhalla", events)
        return state, events
    f = replace(f, shock=after.shock, wounds=after.wounds)
    state = state.with_figure(f)
    if (after.shock, after.wounds) != (before.shock, before.wounds):
        events.append(FigureHurt(fid, f.shock, f.wounds))
    if after.wounds > before.wounds and kind.wounded_coins:
        state = award(state, enemy, kind.wounded_coins, f"{f.name} was wounded", events)
    return state, events


def kill(state: ValhallaState, f: Figure, events: list[Event]) -> ValhallaState:
    """A figure goes to Valhalla: off the table, out of its combats, dropping what it carried."""
    events.append(FigureKilled(f.id))
    if f.carrying is not None:
        events.append(ThingDropped(f.id, f.carrying, f.at))
        state = drop(state, f)
        f = state.figure(f.id)
    state = state.with_figure(replace(f, alive=False, shock=0))
    return replace(
        state,
        engagements=tuple(e for e in state.engagements if not e.has(f.id)),
        saves=tuple(s for s in state.saves if s != f.id),
    )


def award(state: ValhallaState, side: int, coins: int, reason: str, events: list[Event]) -> ValhallaState:
    """Coins for a side (VH-WL-01)."""
    totals = list(state.coins)
    totals[side] += coins
    events.append(CoinsWon(side, coins, reason, totals[side]))
    return replace(state, coins=(totals[0], totals[1]))


# ---------------------------------------------------------------- after each action


def after_action(state: ValhallaState, events: list[Event]) -> Step:
    """Once no die is awaited: objectives, victory, and the end of a spent activation."""
    if state.awaiting_dice or state.phase == "over":
        return state, events
    state, events = settle_scores(state, events)
    if state.phase != "activate" or state.active is None:
        return state, events
    active = state.figure(state.active)
    if not active.alive or state.actions_used >= state.allowance:
        return end_activation(state, events)
    return state, events


def settle_scores(state: ValhallaState, events: list[Event]) -> Step:
    """Score objectives just achieved, then see whether a side has won (VH-WL-07, VH-WL-08)."""
    state = check_objectives(state, events)
    spec = state.scenario.spec
    targets = coin_targets(state)
    reached = [s for s in (0, 1) if state.coins[s] >= targets[s]]
    if reached:
        if len(reached) == 2:  # decided: both at once, the richer side wins; equal is a draw
            a, b = state.coins
            side = None if a == b else (0 if a > b else 1)
            return game_over(state, events, side, "both sides reached their coins at once")
        s = reached[0]
        name = spec.sides[s].name
        return game_over(state, events, s, f"{name} reached {state.coins[s]} coins ({targets[s]} needed)")
    standing = [any(f.alive and f.side == s for f in state.figures) for s in (0, 1)]
    if not all(standing):  # decided: a side with no figure left loses, whatever the coins
        if not any(standing):
            a, b = state.coins
            return game_over(
                state, events, None if a == b else (0 if a > b else 1), "every figure has fallen"
            )
        s = standing.index(True)
        fallen = spec.sides[1 - s].name
        return game_over(state, events, s, f"every figure of the {fallen} has gone to Valhalla")
    return state, events


def check_objectives(state: ValhallaState, events: list[Event]) -> ValhallaState:
    """Objectives achieved now score 3 coins, once each (VH-WL-07 decided)."""
    spec = state.scenario.spec
    r = figure_radius()
    zone = rules().actions.enemy_zone
    for i, o in enumerate(spec.objectives):
        if i in state.achieved:
            continue
        done = False
        mine = [f for f in state.figures if f.alive and f.side == o.side]
        if o.kind == "carry":
            area = Polygon(o.zone)
            thing = next(t for t in state.things if t.name == o.thing)
            done = any(f.carrying == thing.id and area.covers(Point(f.at)) for f in mine)
        elif o.kind == "reach":
            area = Polygon(o.zone)
            done = any(area.covers(Point(f.at)) for f in mine)
        else:
            cart = next(t for t in state.things if t.name == o.baggage)
            guards = [f for f in state.figures if f.alive and f.side != o.side]
            touching = any(
                edge_distance(f.at, r, cart.at, cart.radius) <= rules().actions.pickup_reach + EPS
                for f in mine
            )
            guarded = any(edge_distance(f.at, r, cart.at, cart.radius) <= zone + EPS for f in guards)
            done = touching and not guarded
        if done:
            events.append(ObjectiveAchieved(o.side, i, o.title))
            state = replace(state, achieved=state.achieved | {i})
            state = award(state, o.side, rules().table.objective_coins, o.title, events)
    return state


def game_over(state: ValhallaState, events: list[Event], side: int | None, reason: str) -> Step:
    """The game ends: a winning side, or None for a draw."""
    events.append(GameOver(side, reason))
    return (
        replace(
            state,
            phase="over",
            winner_side=side,
            over_reason=reason,
            fight=None,
            shot=None,
            saves=(),
            to_deal=(),
        ),
        events,
    )


__all__ = ["THING_RADIUS"]
