"""Running `shifu` commands as real processes against an isolated deployment.

Every command gets an environment with no inherited SHIFU_* variable except the ones a test
chooses, and runs in a scratch working directory, so a command that ignored SHIFU_DATA_DIR
would leave a `var/` folder where the test can see it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
EMBEDDING_CACHE = REPO / ".cache" / "embeddings"
COMMAND_TIMEOUT_S = 120.0
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0


def shifu_command() -> list[str]:
    """The installed `shifu` script of this interpreter's venv, or the module as a fallback."""
    script = Path(sys.executable).parent / "shifu"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "shifu.cli"]


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class Deployment:
    """One isolated data directory and the environment that selects it."""

    data_dir: Path
    laws_dir: Path
    workdir: Path

    @classmethod
    def create(cls, root: Path) -> Deployment:
        """Lay out empty directories under `root` (the data dir itself is left to the commands)."""
        laws = root / "laws"
        work = root / "work"
        laws.mkdir(parents=True)
        work.mkdir()
        return cls(data_dir=root / "var", laws_dir=laws, workdir=work)

    def env(self) -> dict[str, str]:
        """The process environment: inherited minus every SHIFU_* variable, plus this deployment's."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFU_")}
        env.update(
            SHIFU_DATA_DIR=str(self.data_dir),
            SHIFU_LAWS_DIR=str(self.laws_dir),
            SHIFU_EMBEDDING_CACHE=str(EMBEDDING_CACHE),
            SHIFU_ENV="demo",
            PYTHONUNBUFFERED="1",
        )
        return env

    def run(self, *args: str, timeout: float = COMMAND_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
        """Run one `shifu` command to completion."""
        return subprocess.run(
            [*shifu_command(), *args],
            env=self.env(),
            cwd=self.workdir,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def start(self, *args: str) -> subprocess.Popen[str]:
        """Start a `shifu` command in the background, output captured to files in the workdir."""
        name = "-".join(args[:1]) or "shifu"
        stdout = (self.workdir / f"{name}.out").open("w")
        stderr = (self.workdir / f"{name}.err").open("w")
        try:
            return subprocess.Popen(
                [*shifu_command(), *args],
                env=self.env(),
                cwd=self.workdir,
                stdout=stdout,
                stderr=stderr,
                text=True,
            )
        finally:
            stdout.close()
            stderr.close()

    def output(self, name: str) -> str:
        """What a background command wrote so far (stdout then stderr)."""
        return "".join(
            (self.workdir / f"{name}{suffix}").read_text(encoding="utf-8", errors="replace")
            for suffix in (".out", ".err")
            if (self.workdir / f"{name}{suffix}").exists()
        )


def wait_healthy(base_url: str, process: subprocess.Popen[str], timeout_s: float = START_TIMEOUT_S) -> None:
    """Poll `/healthz` until it answers, failing early if the process died."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited early with code {process.returncode}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"server not healthy after {timeout_s} s")


def stop(process: subprocess.Popen[str], sig_timeout_s: float = STOP_TIMEOUT_S) -> int:
    """SIGTERM the process and wait; kill it (and report -9) if it does not exit in time."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=sig_timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
    return process.returncode
