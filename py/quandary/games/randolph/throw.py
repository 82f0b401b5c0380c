"""The throw model: how a gesture plus seeded noise becomes a landing.

A thrower sends only a gesture: ``aim`` (degrees off the line to the arena's
centre, positive to the thrower's right), ``power`` (0-100) and ``spin``
(-100..100). The authority turns it into a landing with ``land``, drawing its
noise from the game's own generator, so every replica computes the same landing
and no client can claim one.

Geometry, in units of the arena's radius (the arena is the unit circle at the
origin, x to the right and y down the screen): each seat stands at distance
``THROWER_DISTANCE`` from the centre, seat 0 at the bottom and the others
clockwise round the table at equal angles. A card travels in a straight line
along the aimed direction, ``REACH_PER_POWER * power`` far, so power 50 reaches
the centre. It then rests as

- "outside" when its centre is more than ``CARD_HALF`` beyond the rim,
- "edge" when it lies across the rim (within ``CARD_HALF`` of it),
- otherwise in the arena, "diagonal" (tilted, propped on another card) with a
  probability that grows with spin, with throws far off power 50 and near the
  rim, else "flat".

The noise is bounded (a sum of four uniforms), so a perfect gesture always
lands in the arena; only its chance of tilting remains. Flight time falls from
``SLOWEST`` ms at power 0 to ``FASTEST`` ms at power 100: a hard throw lands
sooner, which matters because landing order decides which card duels.

Only + - * / and square roots are used (sine and cosine are our own series),
because IEEE 754 rounds those exactly alike everywhere: CPython and Pyodide
compute the very same landing, bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from quandary.engine import Rng

from .state import Landing

AIM_LIMIT = 45
POWER_MAX = 100
SPIN_LIMIT = 100
THROWER_DISTANCE = 2.0
REACH_PER_POWER = 0.04
CARD_HALF = 0.1
FASTEST = 300
SLOWEST = 700

AIM_NOISE = 2.5
"""Degrees of spread (standard deviation) of a throw without spin."""
AIM_NOISE_SPIN = 3.0
"""Extra degrees of spread at full spin: a spinning card curves unpredictably."""
REACH_NOISE = 0.08
"""Spread of the distance travelled, in arena radii."""
FLIGHT_NOISE = 12.0
"""Spread of the flight time, in ms."""
TILT_BASE = 0.04
"""Chance that even a perfect throw comes to rest tilted."""
DEGREES_PER_SPIN_MS = 0.03
"""How far a card turns in the air per unit of spin and ms of flight."""

_PI = 3.141592653589793


@dataclass(frozen=True)
class Flight:
    """Where a thrown card came to rest and how long it flew."""

    landing: Landing
    x: int
    y: int
    rotation: int
    flight: int


def flight_time(power: int) -> int:
    """The flight time in ms of a throw of ``power`` before noise."""
    return round(SLOWEST - (SLOWEST - FASTEST) * power / POWER_MAX)


def bearing(seat: int, players: int) -> float:
    """Degrees round the table from seat 0 (at the bottom) to ``seat``, clockwise."""
    return 360.0 * seat / players


def land(aim: int, power: int, spin: int, seat: int, players: int, rng: Rng) -> Flight:
    """The landing of one throw; draws a fixed number of values from ``rng``."""
    spin_share = abs(spin) / SPIN_LIMIT
    aim_noise = _noise(rng) * (AIM_NOISE + AIM_NOISE_SPIN * spin_share)
    reach_noise = _noise(rng) * REACH_NOISE * (1.0 + spin_share)
    flight_noise = _noise(rng) * FLIGHT_NOISE
    turn_noise = _noise(rng) * 10.0
    tilt_draw = rng.random()

    beta = bearing(seat, players)
    heading = beta + aim + aim_noise
    reach = max(0.0, REACH_PER_POWER * power + reach_noise)
    # The thrower stands at (-2 sin b, 2 cos b) and throws along (sin h, -cos h).
    x = -THROWER_DISTANCE * _sin(beta) + reach * _sin(heading)
    y = THROWER_DISTANCE * _cos(beta) - reach * _cos(heading)
    radius = math.sqrt(x * x + y * y)

    flight = min(SLOWEST, max(FASTEST, round(flight_time(power) + flight_noise)))
    rotation = round(heading + spin * DEGREES_PER_SPIN_MS * flight + turn_noise) % 360
    return Flight(
        _rest(radius, power, spin_share, tilt_draw), _milli(x), _milli(y), rotation, flight
    )


def tilt_chance(radius: float, power: int, spin_share: float) -> float:
    """The chance that a card inside the arena comes to rest tilted, not flat."""
    hard = max(0.0, power - 60) / 40
    soft = max(0.0, 40 - power) / 40
    rim = max(0.0, radius - 0.6) / (1.0 - CARD_HALF - 0.6)
    chance = TILT_BASE + 0.45 * spin_share * spin_share + 0.5 * hard * hard
    return min(0.95, chance + 0.3 * soft * soft + 0.25 * rim)


def _rest(radius: float, power: int, spin_share: float, draw: float) -> Landing:
    if radius > 1.0 + CARD_HALF:
        return "outside"
    if radius >= 1.0 - CARD_HALF:
        return "edge"
    return "diagonal" if draw < tilt_chance(radius, power, spin_share) else "flat"


def _noise(rng: Rng) -> float:
    """Roughly normal noise with mean 0 and spread 1, bounded by +-3.46."""
    total = rng.random() + rng.random() + rng.random() + rng.random()
    return (total - 2.0) * 1.7320508075688772


def _milli(value: float) -> int:
    return round(value * 1000)


def _sin(degrees: float) -> float:
    """Sine of an angle in degrees, by a series that rounds the same on every platform."""
    d = degrees % 360.0
    if d > 180.0:
        d -= 360.0
    if d > 90.0:
        d = 180.0 - d
    elif d < -90.0:
        d = -180.0 - d
    x = d * _PI / 180.0
    x2 = x * x
    term = x
    total = x
    for n in range(1, 10):
        term = -term * x2 / ((2 * n) * (2 * n + 1))
        total += term
    return total


def _cos(degrees: float) -> float:
    """Cosine of an angle in degrees (the sine of its complement)."""
    return _sin(90.0 - degrees)
