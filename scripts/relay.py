"""A local Nostr relay (PyPI nostr-relay) on loopback, for `make run` and the tests.

Rooms find each other through Nostr relays. On this machine there is no
internet, so the page served by `make run` (and every multiplayer test) uses
this one. It binds 127.0.0.1 only, keeps its data in a temporary folder, and
stops by itself after ``lifetime`` seconds even if whoever started it dies.

    python scripts/relay.py [--port 6969]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

CONFIG = """\
DEBUG: false
relay_name: quandary local relay
relay_description: local signalling for Quandary rooms
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{db}
  validators:
    - nostr_relay.validators.is_signed
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
  loglevel: warning
  reload: false
verification:
  nip05_verification: disabled
authentication:
  enabled: false
message_timeout: 1800
subscription_limit: 64
"""


def free_port() -> int:
    """A port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nostr-relay exited early:\n{log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)  # polling a port for readiness, not waiting for a result
    raise RuntimeError("nostr-relay did not start listening within 60 s")


@contextlib.contextmanager
def running_relay(port: int = 0, lifetime: int = 3 * 3600) -> Iterator[str]:
    """Run a relay for the duration of the block; yields its ws:// address."""
    port = port or free_port()
    folder = Path(tempfile.mkdtemp(prefix="quandary-relay-"))
    config = folder / "config.yaml"
    config.write_text(CONFIG.format(db=folder / "relay.sqlite3", port=port))
    log = folder / "relay.log"
    binary = Path(sys.executable).with_name("nostr-relay")
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["timeout", str(lifetime), str(binary), "-c", str(config), "serve"],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=folder,
            start_new_session=True,
        )
    try:
        _wait_until_listening(port, process, log)
        yield f"ws://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Command line entry point: run a relay until Ctrl-C."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=6969)
    args = parser.parse_args()
    with running_relay(args.port) as url, contextlib.suppress(KeyboardInterrupt):
        print(f"Nostr relay at {url}  (Ctrl-C stops)")
        signal.pause()


if __name__ == "__main__":
    main()
