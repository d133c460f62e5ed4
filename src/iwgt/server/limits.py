"""Per-connection rate limit: a token bucket, so a burst of taps passes and a flood does not."""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimiter:
    """Allow ``rate`` messages a second on average, and bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        t = self._clock()
        self._tokens = min(self.burst, self._tokens + (t - self._last) * self.rate)
        self._last = t
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
