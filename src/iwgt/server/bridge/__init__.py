"""The referee's bridge to physical tables over MQTT: devices, bindings, sensors in, lights out, the gate.

One ``TableBridge`` per server (``iwgt serve --table-bridge`` or ``--mqtt URL``). It logs in as the
``referee`` user, keeps its retained status (its last will says it is offline), and follows every table under
``iwgt/v1/tables/+/#`` (docs/hardware.md):

- a table's retained birth makes it known (its cells, LEDs and session); its last will marks it offline;
- a device bound to a game table (``bind``, kept in the journal's ``hardware`` table) has its sensor events
  put in order (``Sequencer``) and turned into orders (``Tracker``): a piece lifted lights its moves, a piece
  put down elsewhere is the selection's move to that cell, acted as the seat with origin ``"sensor"`` and the
  client id ``hw:<device>:<session>:<seq>`` (a redelivered event is the same step); a move the rules refuse
  lights the cell red and says why;
- a new session or a gap asks a snapshot (``cmd``, retried every ``RETRY_S`` until acknowledged);
- after every broadcast and every change of the overlay the table's lights are published as a whole
  ``Frame`` (retained), only when they changed;
- while the table and the game differ (or the table is offline or not yet read), every act of that game is
  refused with ``table_diverged`` and the cells named in words, until the pieces agree or the players carry
  on past the cells read wrongly (a stuck sensor must not stop a game);
- a malformed message is answered on the device's ``error`` topic and changes nothing.

The pieces: ``state.py`` (a device as the bridge knows it, the timings), ``gate.py`` (the game's link to its
table and the words of the gate), ``table.py`` (``TableBridge``, made of the parts ``pump.py``: the connection
and what it sends, ``messages.py``: what the tables publish, ``orders.py``: sensors to the game's acts,
``game_side.py``: what the game expects and what blocks it, with ``base.py`` declaring what they share),
``start.py`` (``start_bridge``); this package re-exports the names used elsewhere, so ``iwgt.server.bridge``
stays the place to import them from.
"""

from __future__ import annotations

from iwgt.server.bridge.gate import _back as _back
from iwgt.server.bridge.gate import _Link as _Link
from iwgt.server.bridge.gate import _why_not as _why_not
from iwgt.server.bridge.gate import _words as _words
from iwgt.server.bridge.start import _Bridge as _Bridge
from iwgt.server.bridge.start import start_bridge as start_bridge
from iwgt.server.bridge.state import _ABSENT as _ABSENT
from iwgt.server.bridge.state import DIVERGED as DIVERGED
from iwgt.server.bridge.state import HEARTBEAT_S as HEARTBEAT_S
from iwgt.server.bridge.state import HELD_CHECK_S as HELD_CHECK_S
from iwgt.server.bridge.state import RETRY_S as RETRY_S
from iwgt.server.bridge.state import SENSOR as SENSOR
from iwgt.server.bridge.state import STOP_S as STOP_S
from iwgt.server.bridge.state import TICK_S as TICK_S
from iwgt.server.bridge.state import _Device as _Device
from iwgt.server.bridge.state import _Held as _Held
from iwgt.server.bridge.state import _Pending as _Pending
from iwgt.server.bridge.table import TableBridge as TableBridge
