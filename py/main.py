"""Browser entry point: PyScript runs this file once Pyodide has started."""

from quandary.web.app import start

start()
