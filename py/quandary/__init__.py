"""Quandary: tabletop dilemma games, played in the browser.

The pure layers (engine, games, net) import only the standard library so they
run unchanged under CPython's pytest and in Pyodide. Only ``quandary.web``
touches the browser.
"""
