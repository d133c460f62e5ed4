"""Help at the table, for every game: how to play, a topic for each thing a player may tap, a first-game
guide.

A game keeps its help as a data file in its package (``data/help.toml``), validated here like its other data
files: the how-to-play sections, the rule texts it quotes (keyed by the game's clause ids: the rulebook's own
words and the table's decision, as ``docs/rules/<game>.md`` records it), the topics (keyed ``kind:id``, for
example a unit type, a spell, a kind of ground or a phase) and the first-game guides (steps, each saying what
to look at or tap). What a thing *is* (its numbers) is never retyped there: the game's plug-in gives each
profiled thing's profile from its own data (``Profile``), and ``build_help`` joins the two, refusing a thing
of the data that has no topic, so that help can never silently miss one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field, model_validator

from iwgt.core.datafiles import DataModel, load_model
from iwgt.core.errors import DataFileError
from iwgt.core.protocol import JSON

CLAUSE_ID = r"^[A-Z]{2}-[A-Z0-9]+(-[A-Z0-9]+)*$"
"""A clause id of the shared rules, e.g. ``AB-CD-05`` or ``AB-SP-NAME-2``."""
KIND = r"^[a-z][a-z_]*$"
TOPIC_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


class RuleText(DataModel):
    """One clause as help quotes it: the rulebook's own words, and what the table decided about them."""

    quote: str = ""
    """The rulebook's words, verbatim (an elision is written ``…``); empty where the rulebook is silent."""
    decision: str = ""
    """The table's decision (``docs/rules/<game>.md``) in a sentence or two; empty where the text is played
    as written."""

    @model_validator(mode="after")
    def _says_something(self) -> RuleText:
        """A clause with neither the rulebook's words nor a decision would say nothing."""
        if not self.quote.strip() and not self.decision.strip():
            raise ValueError("a rule needs the rulebook's words (quote) or the table's decision, or both")
        return self


class SectionEntry(DataModel):
    """A section of "How to play": a heading, a few sentences, the clauses they rest on."""

    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    clauses: tuple[str, ...] = ()


class TopicEntry(DataModel):
    """A topic as written in the help file; its profile comes from the game's data."""

    kind: str = Field(pattern=KIND)
    id: str = Field(pattern=TOPIC_ID)
    title: str = ""
    """The heading; empty: the profile's title."""
    text: str = Field(min_length=1)
    clauses: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    """Related topics, as keys ``kind:id``."""

    @property
    def key(self) -> str:
        """The topic's key, ``kind:id``."""
        return f"{self.kind}:{self.id}"


class GuideStep(DataModel):
    """One step of a first-game guide."""

    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    testid: str = ""
    """The ``data-testid`` of what to look at or tap; the guide outlines it on the screen."""
    topic: str = ""
    """A topic the step offers to open (``kind:id``)."""


class GuideEntry(DataModel):
    """A first-game guide: a scenario's first turn, step by step."""

    scenario: str = Field(min_length=1)
    title: str = Field(min_length=1)
    steps: tuple[GuideStep, ...] = Field(min_length=1)


class HelpFile(DataModel):
    """A game's whole help file (``data/help.toml``)."""

    kinds: dict[str, str] = Field(default_factory=dict)
    """Each topic kind's heading in the topic list, in the order shown (``unit = "Unit types"``)."""
    how_to_play: tuple[SectionEntry, ...] = Field(min_length=1)
    rules: dict[str, RuleText] = Field(default_factory=dict)
    topics: tuple[TopicEntry, ...] = ()
    guides: tuple[GuideEntry, ...] = ()

    @model_validator(mode="after")
    def _references(self) -> HelpFile:
        """Every key is a clause id; every cited clause has its text; every topic named exists once."""
        for clause in self.rules:
            if not re.match(CLAUSE_ID, clause):
                raise ValueError(f"rules: {clause!r} is not a clause id (such as AB-CD-05)")
        keys: set[str] = set()
        for i, t in enumerate(self.topics):
            if t.key in keys:
                raise ValueError(f"topics.{i}: the topic {t.key} is written twice")
            keys.add(t.key)
            if self.kinds and t.kind not in self.kinds:
                known = ", ".join(self.kinds)
                raise ValueError(f"topics.{i}.kind: {t.kind!r} is not one of the kinds ({known})")
        for where, cited in self._citations():
            for clause in cited:
                if clause not in self.rules:
                    raise ValueError(f"{where}.clauses: {clause} has no text under [rules]")
        for i, t in enumerate(self.topics):
            for other in t.see:
                if other not in keys:
                    raise ValueError(f"topics.{i}.see: no topic {other}")
        for g, guide in enumerate(self.guides):
            for s, step in enumerate(guide.steps):
                if step.topic and step.topic not in keys:
                    raise ValueError(f"guides.{g}.steps.{s}.topic: no topic {step.topic}")
        return self

    def _citations(self) -> list[tuple[str, tuple[str, ...]]]:
        """Where each list of clauses is cited, with the list."""
        out = [(f"how_to_play.{i}", s.clauses) for i, s in enumerate(self.how_to_play)]
        out += [(f"topics.{i}", t.clauses) for i, t in enumerate(self.topics)]
        return out

    def cited(self) -> set[str]:
        """Every clause id the help cites (in sections, topics and rule texts)."""
        out = set(self.rules)
        for _, clauses in self._citations():
            out.update(clauses)
        return out


@dataclass(frozen=True)
class Profile:
    """What a thing is, from the game's own data: a title and labelled values, in the order shown."""

    title: str
    rows: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Cited:
    """A clause as shown: its id, the rulebook's words and the table's decision."""

    clause: str
    quote: str
    decision: str

    def to_json(self) -> JSON:
        """The clause as JSON."""
        return {"clause": self.clause, "quote": self.quote, "decision": self.decision}


@dataclass(frozen=True)
class Topic:
    """A topic as shown: heading, profile (from the game's data), sentences, the rules that apply."""

    key: str
    kind: str
    id: str
    title: str
    text: str
    profile: tuple[tuple[str, str], ...]
    rules: tuple[Cited, ...]
    see: tuple[str, ...]

    def to_json(self) -> JSON:
        """The topic as JSON."""
        return {
            "key": self.key,
            "kind": self.kind,
            "id": self.id,
            "title": self.title,
            "text": self.text,
            "profile": [{"label": k, "value": v} for k, v in self.profile],
            "rules": [r.to_json() for r in self.rules],
            "see": list(self.see),
        }


@dataclass(frozen=True)
class GameHelp:
    """A game's help, whole: what ``GET /api/games/{game}/help`` answers and the help panel shows."""

    game: str
    title: str
    how_to_play: tuple[tuple[SectionEntry, tuple[Cited, ...]], ...] = ()
    kinds: tuple[tuple[str, str], ...] = ()
    topics: tuple[Topic, ...] = ()
    guides: tuple[GuideEntry, ...] = ()
    source: HelpFile | None = field(default=None, compare=False)
    """The help file it was built from (tests read the clauses it cites)."""

    def topic(self, key: str) -> Topic | None:
        """The topic ``kind:id``, or None."""
        return next((t for t in self.topics if t.key == key), None)

    def guide(self, scenario: str) -> GuideEntry | None:
        """The first-game guide of a scenario, or None."""
        return next((g for g in self.guides if g.scenario == scenario), None)

    def to_json(self) -> JSON:
        """The help as JSON (an empty game help has empty lists)."""
        return {
            "game": self.game,
            "title": self.title,
            "how_to_play": [
                {"title": s.title, "text": s.text, "rules": [c.to_json() for c in cited]}
                for s, cited in self.how_to_play
            ],
            "kinds": [{"kind": k, "title": t} for k, t in self.kinds],
            "topics": [t.to_json() for t in self.topics],
            "guides": [
                {
                    "scenario": g.scenario,
                    "title": g.title,
                    "steps": [s.model_dump() for s in g.steps],
                }
                for g in self.guides
            ],
        }


def build_help(
    file: HelpFile, profiles: Mapping[str, Profile], game: str, title: str, origin: str
) -> GameHelp:
    """Join a help file with the profiles the game's data gives (keyed ``kind:id``).

    Every profiled thing must have a topic, and a topic of a profiled kind must name a thing of the data:
    a unit type, spell or kind of ground added to the data without help, or help left for one removed,
    is a ``DataFileError`` naming the key.
    """
    keys = {t.key for t in file.topics}
    for key in profiles:
        if key not in keys:
            said = f"{origin}: no help topic for {key} (add a [[topics]] for it)"
            raise DataFileError(origin, "topics", "", message=said)
    profiled = {key.split(":", 1)[0] for key in profiles}
    for i, t in enumerate(file.topics):
        if t.kind in profiled and t.key not in profiles:
            raise DataFileError(origin, f"topics.{i}", f"{t.key} is not in the game's data (a misspelling?)")

    def cite(clauses: tuple[str, ...]) -> tuple[Cited, ...]:
        return tuple(Cited(c, file.rules[c].quote, file.rules[c].decision) for c in clauses)

    topics = []
    for t in file.topics:
        profile = profiles.get(t.key)
        topics.append(
            Topic(
                key=t.key,
                kind=t.kind,
                id=t.id,
                title=t.title or (profile.title if profile else t.id),
                text=t.text,
                profile=profile.rows if profile else (),
                rules=cite(t.clauses),
                see=t.see,
            )
        )
    kinds = tuple(file.kinds.items()) or tuple((k, k) for k in dict.fromkeys(t.kind for t in file.topics))
    return GameHelp(
        game=game,
        title=title,
        how_to_play=tuple((s, cite(s.clauses)) for s in file.how_to_play),
        kinds=kinds,
        topics=tuple(topics),
        guides=file.guides,
        source=file,
    )


def load_help(path: Path, profiles: Mapping[str, Profile], game: str, title: str) -> GameHelp:
    """Read, validate and build a game's help file."""
    return build_help(load_model(HelpFile, path), profiles, game, title, str(path))


def no_help(game: str, title: str) -> GameHelp:
    """The help of a game that has none: empty lists (the browser says there is no help yet)."""
    return GameHelp(game=game, title=title)
