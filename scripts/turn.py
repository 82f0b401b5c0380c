"""A local TURN server (Debian's coturn) on loopback, for the relay-only room tests.

Some peers cannot reach each other directly; a TURN server relays their
traffic. The tests start this one, bound to 127.0.0.1 with one long-term
credential, force the browsers to relay-only ICE, and stop it afterwards; like
the Nostr relay it also stops by itself after ``lifetime`` seconds, so a test
that dies leaves nothing running for long.

coturn reads /etc/turnserver.conf unless told otherwise, and Debian's says
``syslog``: its log would then never reach the file we name, and a wait on
that log would never end. So it reads no config file (``-n``), and readiness
is an answered STUN request (with a deadline), not a line in a log.

    python scripts/turn.py [--port 3478]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

USER, PASSWORD, REALM = "quandary", "local-turn-only", "quandary"
MAGIC_COOKIE = 0x2112A442
START_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class TurnServer:
    """Where the running server listens, the credential it accepts, and its log."""

    url: str
    username: str
    credential: str
    log_path: Path

    def log(self) -> str:
        """What coturn wrote so far (allocations and relayed sessions show here)."""
        return self.log_path.read_text(errors="replace")


def free_udp_and_tcp_port() -> int:
    """A port on 127.0.0.1 free for both UDP and TCP right now (coturn listens on both)."""
    for _ in range(50):
        with socket.socket() as tcp:
            tcp.bind(("127.0.0.1", 0))
            port = int(tcp.getsockname()[1])
            with socket.socket(type=socket.SOCK_DGRAM) as udp:
                try:
                    udp.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
    raise RuntimeError("no port free for both UDP and TCP on 127.0.0.1")


def stun_answers(port: int, timeout: float = 0.3) -> bool:
    """Whether a STUN Binding request to 127.0.0.1:port gets its success response."""
    transaction = secrets.token_bytes(12)
    request = struct.pack("!HHI", 0x0001, 0, MAGIC_COOKIE) + transaction
    with socket.socket(type=socket.SOCK_DGRAM) as udp:
        udp.settimeout(timeout)
        try:
            udp.sendto(request, ("127.0.0.1", port))
            reply = udp.recv(2048)
        except OSError:  # refused (not bound yet) or timed out
            return False
    return len(reply) >= 20 and reply[:2] == b"\x01\x01" and reply[8:20] == transaction


def _tail(log: Path) -> str:
    """The end of coturn's log and of its own output, to say why it did not start."""
    out = log.with_name("stdout.log")
    texts = (p.read_text(errors="replace")[-1500:] for p in (log, out) if p.exists())
    return "\n".join(texts)


def _wait_until_ready(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"turnserver exited early:\n{_tail(log)}")
        if stun_answers(port):  # itself waits up to 0.3 s for the answer
            return
    raise RuntimeError(
        f"turnserver did not answer STUN within {START_TIMEOUT_S:.0f} s:\n{_tail(log)}"
    )


def command(binary: str, folder: Path, port: int, relay_ports: tuple[int, int]) -> list[str]:
    """The turnserver command line: loopback only, one static user, no TLS, no CLI."""
    low, high = relay_ports
    return [
        binary,
        "-n",  # no config file: not Debian's /etc/turnserver.conf (which says syslog)
        "--listening-ip=127.0.0.1",
        "--relay-ip=127.0.0.1",
        f"--listening-port={port}",
        f"--min-port={low}",
        f"--max-port={high}",
        # Every test device is on loopback: coturn refuses to relay to 127.x otherwise.
        "--allow-loopback-peers",
        "--lt-cred-mech",
        f"--user={USER}:{PASSWORD}",
        f"--realm={REALM}",
        "--fingerprint",
        "--verbose",  # one line per session and allocation: the test reads them
        "--no-cli",
        "--no-tls",
        "--no-dtls",
        "--no-rfc5780",
        "--max-allocate-lifetime=600",
        f"--log-file={folder / 'turn.log'}",
        "--simple-log",
        "--no-stdout-log",
        f"--pidfile={folder / 'turn.pid'}",
        f"--userdb={folder / 'turn.db'}",
    ]


@contextlib.contextmanager
def running_turn(port: int = 0, lifetime: int = 3600) -> Iterator[TurnServer]:
    """Run coturn on 127.0.0.1 for the duration of the block."""
    binary = shutil.which("turnserver")
    if binary is None:
        raise RuntimeError("Debian's coturn is not installed (make test installs it).")
    port = port or free_udp_and_tcp_port()
    folder = Path(tempfile.mkdtemp(prefix="quandary-turn-"))
    log = folder / "turn.log"
    log.touch()
    low = 49152 + secrets.randbelow(16000)  # relay ports: a random slice of the dynamic range
    with (folder / "stdout.log").open("wb") as out:
        process = subprocess.Popen(
            ["timeout", str(lifetime), *command(binary, folder, port, (low, low + 60))],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=folder,
            start_new_session=True,
        )
    try:
        _wait_until_ready(port, process, log)
        yield TurnServer(f"turn:127.0.0.1:{port}", USER, PASSWORD, log)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Command line entry point: run a TURN server until Ctrl-C."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=3478)
    args = parser.parse_args()
    with running_turn(args.port) as server, contextlib.suppress(KeyboardInterrupt):
        print(f"TURN at {server.url}, user {server.username}, password {server.credential}")
        signal.pause()


if __name__ == "__main__":
    main()
