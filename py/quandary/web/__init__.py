"""The only layer that touches the browser (``js``, ``pyodide``, ``pyscript``).

``render`` and ``controller`` are pure and tested under CPython; ``app`` and
``dom`` bind them to the page.
"""
