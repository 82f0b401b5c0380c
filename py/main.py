"""The engine in the browser: PyScript runs this file in its named worker "engine".

``index.html`` declares the worker (``<script type="py" worker name="engine">``,
with ``<py-config src="./pyscript.toml">``) and ``pyscript.toml`` gives it its
interpreter and the ``quandary`` package. Python runs off the page's main thread, so the page never
freezes while Pyodide boots or a bot thinks. The page reaches the engine through
the one function exported here (``static/js/engine.entry.js``); what it does is
``quandary.web.engine``, which is pure and tested under CPython.
"""

from __future__ import annotations

from quandary.web.engine import Engine

_engine = Engine()


def handle(batch: str) -> str:
    """The page's messages since its last call (JSON list); its work (JSON object)."""
    return _engine.handle(batch)


__export__ = ["handle"]
