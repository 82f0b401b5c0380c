"""The host's parts fit together: every step one part asks of another is defined.

``RoomHost`` is assembled from parts (``net/host_base.py``); a step a part needs
from another is declared in ``HostBase`` with a body that raises. If no part
defined it, the room would fail only when that step first ran (a removal, a
reload); this test finds it at once.
"""

from __future__ import annotations

import inspect

from quandary.net.host import RoomHost
from quandary.net.host_base import HostBase


def test_every_step_the_parts_declare_is_defined_by_the_host_or_a_part() -> None:
    declared = [
        name
        for name, member in vars(HostBase).items()
        if inspect.isfunction(member) and not name.startswith("__")
    ]
    assert declared, "HostBase declares no steps: the test reads nothing"
    undefined = [name for name in declared if getattr(RoomHost, name) is vars(HostBase)[name]]
    assert not undefined, f"steps only declared, never defined: {undefined}"
