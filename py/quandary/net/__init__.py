"""The room protocol: host authority, per-seat views, versions, reconnection.

Pure standard library and transport-agnostic: a transport hands the host or a
guest ``(peer id, text)`` pairs and gives them a ``send(peer, text)`` function.
In the browser that transport is Trystero over WebRTC; in tests it is memory.
"""
