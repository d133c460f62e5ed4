"""What happens in a game of Days of the Valkyrx; lights, touchscreen and reports react to these."""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat

Cell = tuple[int, int]
"""A cell as an odd-r offset [col, row], the form players and scenario files use."""


@dataclass(frozen=True, slots=True)
class UnitPlaced(Event):
    """A unit was set on a deployment cell."""

    unit: int
    to: Cell


@dataclass(frozen=True, slots=True)
class DeploymentConfirmed(Event):
    """A seat tapped the tick."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class FirstMoverChosen(Event):
    """The table chose who moves first this turn (VX-04-03)."""

    turn: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class MovementPhaseStarted(Event):
    """A seat's movement phase began; ``movable`` are the units lit for it (VX-03-01, VX-14-02), and
    ``arriving`` the late troops it may add to the table now (VX-15-24, the Add troops button)."""

    turn: int
    seat: Seat
    movable: tuple[int, ...]
    arriving: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TroopsArrived(Event):
    """A late troop joined the battle on a cell of its side's entry zone (VX-15-24). Public."""

    unit: int
    cell: Cell


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """A unit was moved (``compulsory`` for a routed unit's move away, VX-03-08)."""

    unit: int
    frm: Cell
    to: Cell
    cost: float
    charge: bool = False
    airborne: bool = False
    compulsory: bool = False


@dataclass(frozen=True, slots=True)
class TerrainCasualties(Event):
    """Casualties from a deadly feature such as quicksand (VX-05-05)."""

    unit: int
    casualties: float
    feature: str


@dataclass(frozen=True, slots=True)
class TemplePrayer(Event):
    """A unit prayed at the Temple of Ψεύδος (VX-05-06): god-like powers until ``until``, or destroyed."""

    unit: int
    success: bool
    until: int


@dataclass(frozen=True, slots=True)
class TrollDevoured(Event):
    """A hungry Troll pounced on a passing friend (VX-13-TROLL-1)."""

    troll: int
    victim: int
    casualties: float


@dataclass(frozen=True, slots=True)
class ContactMade(Event):
    """Two units are in close combat; ``deferred`` when they fight only from next turn (VX-04-10)."""

    a: int
    b: int
    deferred: bool


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    """One unit's attack on another: missile units flash green, targets red (VX-14-04, VX-14-05)."""

    attacker: int
    target: int
    mode: str
    hits: float
    casualties: float
    factors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CloseCombatOutcome(Event):
    """The winner lights green and the loser red at the end of the combat phase (VX-14-07)."""

    winner: int
    loser: int


@dataclass(frozen=True, slots=True)
class MoraleChanged(Event):
    """A unit's morale score changed at the end of the turn, with the reasons (VX-10-05)."""

    unit: int
    before: float
    after: float
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnitRouted(Event):
    """A unit fell to Critical morale and will move away next turn (VX-03-11)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRallied(Event):
    """A routed unit's morale rose above Critical again."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRemoved(Event):
    """A unit left the table: ``destroyed``, ``fled`` (morale below zero) or ``left`` (the Elves)."""

    unit: int
    why: str


@dataclass(frozen=True, slots=True)
class DeadRaised(Event):
    """Men slain by the undead rose to march with them (VX-13-UNDEAD-2)."""

    unit: int
    raised: float


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One unit's line of the health-bar report."""

    unit: int
    name: str
    side: str
    strength: float
    start: float
    casualties: float
    morale: float
    level: str
    status: str
    infected: bool = False  # the skull (VX-SP-PLAGUE-7): sickening units only, never the first carrier


@dataclass(frozen=True, slots=True)
class CombatReport(Event):
    """The report after the combat round: every unit's strength, casualties and morale level (VX-04-01)."""

    turn: int
    lines: tuple[ReportLine, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over (VX-15-26)."""

    winner: Seat | None
    reason: str


@dataclass(frozen=True, slots=True)
class PrivateEvent(Event):
    """An event only its owner's seat may see (hidden movement, secret orders)."""

    owner: Seat

    def visible_to(self, seat: Seat | None) -> bool:
        """Only the owner's seat."""
        return seat == self.owner


@dataclass(frozen=True, slots=True)
class SecretEvent(Event):
    """An event no player may see until the game is over (the plague's first carrier, VX-SP-PLAGUE-4)."""

    def visible_to(self, seat: Seat | None) -> bool:
        """Nobody."""
        return False


@dataclass(frozen=True, slots=True)
class SpellsChosen(PrivateEvent):
    """A wizard was armed with his six spells (VX-11-02): his owner alone knows which."""

    unit: int
    spells: tuple[str, ...]
    default: bool


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    """ "X is casting Y" (VX-15-14): the wizard, the spell, and the range lit as a wave (VX-14-11)."""

    unit: int
    spell: str
    name: str
    range: int | None
    cost: float


@dataclass(frozen=True, slots=True)
class SpellFizzled(Event):
    """A spell cast by a denied wizard, or with nothing to act on, came to nothing."""

    unit: int
    spell: str
    why: str


@dataclass(frozen=True, slots=True)
class SpellResisted(Event):
    """A unit shrugged a hostile spell off with its Resist Magic (VX-SP-GEN-6)."""

    unit: int
    spell: str


@dataclass(frozen=True, slots=True)
class SpellTookEffect(Event):
    """The units a spell enchanted (lit, VX-14-12) and the cells it lights (portal, lava)."""

    caster: int
    spell: str
    units: tuple[int, ...]
    cells: tuple[Cell, ...] = ()
    first_turn: int = 0
    last_turn: int = 0


@dataclass(frozen=True, slots=True)
class SpellEnded(Event):
    """A spell in force ended early: a new spell of its caster (VX-SP-GEN-3) or Deny Magic (VX-SP-DENY-2)."""

    caster: int
    spell: str
    why: str


@dataclass(frozen=True, slots=True)
class SpellCasualties(Event):
    """Casualties a spell inflicted (Fire, Ice, Earthquake: damage / defence score)."""

    unit: int
    spell: str
    casualties: float


@dataclass(frozen=True, slots=True)
class UnitRestored(Event):
    """Resurrection brought a unit back towards its starting complement (VX-SP-RESURRECT-2)."""

    unit: int
    restored: float


@dataclass(frozen=True, slots=True)
class UnitTransported(Event):
    """A unit passed through the portal (VX-SP-TRANSPORT-4)."""

    unit: int
    frm: Cell
    to: Cell


@dataclass(frozen=True, slots=True)
class LavaSpread(Event):
    """Creeping Death covers these cells this turn (VX-SP-CREEP-2, VX-14-13)."""

    caster: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class ArmageddonRolled(Event):
    """The gods answered Armageddon, or would not (VX-SP-ARMAGEDDON-3)."""

    caster: int
    works: bool


@dataclass(frozen=True, slots=True)
class PlagueCarrierChosen(SecretEvent):
    """The Plague spell's first carrier (VX-SP-PLAGUE-2): known to no player until the game ends."""

    unit: int
    caster: int


@dataclass(frozen=True, slots=True)
class UnitInfected(Event):
    """A unit caught the plague by contact: the skull appears beside it (VX-SP-PLAGUE-5, -7)."""

    unit: int


@dataclass(frozen=True, slots=True)
class PlagueLosses(Event):
    """The plague's toll this turn (VX-SP-PLAGUE-6)."""

    unit: int
    casualties: float


@dataclass(frozen=True, slots=True)
class PlagueCured(Event):
    """Cure Plague healed a sickening unit (VX-SP-CURE-2)."""

    unit: int


@dataclass(frozen=True, slots=True)
class CarrierCured(SecretEvent):
    """Cure Plague healed the first carrier: no player may learn which unit that was."""

    unit: int


@dataclass(frozen=True, slots=True)
class PlagueChain(Event):
    """The end-of-game report of the plague (VX-SP-PLAGUE-8): each infection's turn, unit and source."""

    infections: tuple[tuple[int, int, int, bool], ...]  # (turn, unit, source, by_spell)


@dataclass(frozen=True, slots=True)
class TitanCracked(Event):
    """Fire then ice cracked and destroyed a Stone Titan (VX-SP-ICE-4, VX-13-VERTIGRON-2)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitConcealed(Event):
    """The Grima was taken off the table, or the Sand Worm went underground (VX-12-02, VX-12-08)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRevealed(Event):
    """A hidden unit came back into sight on this cell."""

    unit: int
    cell: Cell


@dataclass(frozen=True, slots=True)
class QuarryChosen(PrivateEvent):
    """The Grima's owner named her quarry (VX-12-03): the enemy never learns whom (VX-12-05)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class HiddenMove(PrivateEvent):
    """A hidden unit moved unseen: the Grima in pursuit, the worm underground (VX-12-04, VX-12-08)."""

    unit: int
    frm: Cell
    to: Cell


@dataclass(frozen=True, slots=True)
class GrimaStruck(Event):
    """The Grima emerged beside her quarry and struck (VX-12-07)."""

    unit: int
    quarry: int
    success: bool


@dataclass(frozen=True, slots=True)
class WormSurfaced(Event):
    """The Sand Worm broke the surface (VX-12-09 to VX-12-12); ``swallowed`` men of ``victim``, if any."""

    unit: int
    aimed: Cell
    cell: Cell
    victim: int | None
    swallowed: float
