"""Where a runtime listens, and the CURVE keys to reach it (docs/PROTOCOL.md, "Endpoints"; docs/SECURITY.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional


def default_run_dir(environ: Mapping[str, str] = os.environ) -> str:
    """CONTAINMENT_RUN_DIR, else $TMPDIR/containment-$USER (/tmp when TMPDIR is unset or empty; $LOGNAME, then the
    numeric uid, when USER is unset)."""
    run = environ.get("CONTAINMENT_RUN_DIR")
    if run:
        return run
    tmp = environ.get("TMPDIR") or "/tmp"
    user = environ.get("USER") or environ.get("LOGNAME") or str(os.getuid())
    return f"{tmp.rstrip('/')}/containment-{user}"


def default_endpoints(run_dir: Optional[str] = None) -> tuple[str, str]:
    """(command, events): the built-in default endpoints of a run directory (default_run_dir() when None)."""
    run = run_dir or default_run_dir()
    return f"ipc://{run}/command.sock", f"ipc://{run}/events.sock"


def _read_key(path: Path) -> bytes:
    key = path.read_bytes().strip()
    if len(key) != 40:
        raise ValueError(f"{path}: not a Z85 CURVE key (40 characters)")
    return key


@dataclass(frozen=True)
class CurveKeys:
    """The three keys a CURVE peer sets before connecting: the server's public key and its own pair (Z85)."""

    server_public: bytes
    public: bytes
    secret: bytes

    @classmethod
    def from_files(cls, server: str | os.PathLike, client: str | os.PathLike) -> "CurveKeys":
        """Keys written by `containment keygen PREFIX`: server is the supervisor's PREFIX (its PREFIX.public is read),
        client this client's (PREFIX.public and PREFIX.secret)."""
        return cls(
            server_public=_read_key(Path(f"{os.fspath(server)}.public")),
            public=_read_key(Path(f"{os.fspath(client)}.public")),
            secret=_read_key(Path(f"{os.fspath(client)}.secret")),
        )

    @classmethod
    def from_run_dir(cls, run_dir: Optional[str] = None, client: str = "operator") -> "CurveKeys":
        """The keys Config/runtime-secure.yaml names: {run}/keys/server and {run}/keys/CLIENT (`operator` or
        `observer`, the roles it admits)."""
        keys = Path(run_dir or default_run_dir(), "keys")
        return cls.from_files(keys / "server", keys / client)
