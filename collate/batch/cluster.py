"""Dask behind one adapter: the cluster a batch runs on, typed to what the batch asks of it.

``distributed`` ships types for few of its functions; this module is the only one that imports
it, and hands the rest of the batch a :class:`Pool` (submit a job, wait for some to end, count
threads and running tasks) and a :class:`Ended` per finished task. It is imported lazily, so that
``collate --help`` does not pay for Dask.

By default an embedded ``LocalCluster`` sized to the machine: one worker process per CPU, one
thread each (a job is pure Python: threads would share one interpreter lock). With a scheduler
address the cluster there is used as it is; its workers must see the same files at the same paths.
"""

from __future__ import annotations

import logging
import socket
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from collate.errors import CollateError

# How long to wait for an external scheduler to answer, and for it to have a worker.
CONNECT_TIMEOUT = 10.0


class BatchError(CollateError):
    """A batch cannot run (no scheduler to reach), or some of its jobs failed."""

    code = "batch"


@dataclass(frozen=True, slots=True)
class Ended:
    """A task that ended: its value, or how it failed (``crashed``: its worker died under it, twice)."""

    value: object = None
    error: str = ""
    detail: str = ""
    crashed: bool = False


class Pool:
    """A Dask client, as the batch uses it."""

    def __init__(self, client: Any) -> None:
        self._client = client

    @property
    def address(self) -> str:
        """The scheduler's address."""
        return str(self._client.scheduler.address)

    def threads(self) -> int:
        """Threads over all workers: how many jobs run at once."""
        return int(sum(self._client.nthreads().values()))

    def running(self) -> int:
        """Tasks the scheduler has given to workers (a worker may hold one queued beside the one it runs)."""
        return int(sum(len(keys) for keys in self._client.processing().values()))

    def submit(self, task: Callable[..., object], *args: str) -> object:
        """Start ``task(*args)`` on some worker; an exception in it is tried once more (``retries=1``)."""
        return self._client.submit(task, *args, pure=False, retries=1)

    def wait(self, pending: Iterable[object], timeout: float) -> tuple[set[object], set[object]]:
        """The tasks of ``pending`` that end within ``timeout`` seconds (at least one, if any does), and the rest."""
        import distributed

        wait: Any = distributed.wait
        pending = set(pending)
        try:
            done, rest = wait(pending, timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set(), pending
        return set(done), set(rest)

    def ended(self, future: object) -> Ended:
        """What a task that ended gave: its value, or its failure."""
        from distributed import KilledWorker

        handle: Any = future
        if handle.status == "finished":
            return Ended(handle.result())
        exc = handle.exception()
        if isinstance(exc, KilledWorker):
            return Ended(error="KilledWorker", crashed=True)
        detail = "".join(traceback.format_exception(type(exc), exc, handle.traceback())) if exc is not None else ""
        return Ended(error=f"{type(exc).__name__}: {exc}", detail=detail)


def _unreachable(address: str, where: str, why: str) -> BatchError:
    return BatchError(
        f"cannot reach the Dask scheduler at {address}: {why}",
        where=where,
        hint="start one (`dask scheduler`, then `dask worker ADDRESS`), or leave the address out "
        "to run on an embedded cluster",
    )


def _check_reachable(address: str, where: str) -> None:
    """Refuse at once an address nothing listens on (the client would retry it for its whole timeout)."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return  # tls, ucx, inproc: the client says
    host, _, port = rest.rpartition(":")
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=CONNECT_TIMEOUT).close()
    except ValueError:
        raise _unreachable(address, where, "it is not host:port") from None
    except OSError as exc:
        raise _unreachable(address, where, exc.strerror or str(exc)) from None


@contextmanager
def quiet() -> Iterator[None]:
    """Dask's warnings and logs kept off the terminal while the block runs; as they were after it.

    The batch reports its jobs itself, on stderr: a warning of Dask's there (a port in use, a
    version that differs) or a log line of the scheduler's would break its progress lines and say
    nothing the editor can act on. ``silence_logs`` silences the cluster only while it starts, and
    not at all a cluster given by its address: these hold from connecting to closing.
    """
    from distributed.utils import silence_logging_cmgr

    with warnings.catch_warnings(), silence_logging_cmgr(logging.CRITICAL):
        warnings.filterwarnings("ignore", module=r"(dask|distributed|tornado)(\.|$)")
        yield


@contextmanager
def connect(scheduler: str | None, workers: int, where: str = "--scheduler") -> Iterator[Pool]:
    """A pool on the scheduler at ``scheduler``, or on an embedded cluster of ``workers`` processes."""
    with quiet(), _connect(scheduler, workers, where) as pool:
        yield pool


@contextmanager
def _connect(scheduler: str | None, workers: int, where: str) -> Iterator[Pool]:
    import dask
    from distributed import Client, LocalCluster

    make: Any = Client
    if scheduler is not None:
        _check_reachable(scheduler, where)
        try:
            client = make(scheduler, timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            raise _unreachable(scheduler, where, str(exc)) from None
        with client:
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                raise BatchError(
                    f"the Dask scheduler at {scheduler} has no worker",
                    where=where,
                    hint=f"start one: `dask worker {scheduler}`",
                ) from None
            yield Pool(client)
        return
    local: Any = LocalCluster
    # One crash of a worker per job is tried again; a second is reported (the default, 3, would
    # let a job that runs out of memory take down three workers before it is). The workers'
    # statistical profiler, there for the dashboard (not started here), costs a tenth of a job.
    # A worker is given one job at a time (worker-saturation 1.0; Dask's default queues a second
    # beside it): a job that takes its worker down never takes down another queued there with it.
    settings = {
        "distributed.scheduler.allowed-failures": 1,
        "distributed.worker.profile.enabled": False,
        "distributed.scheduler.worker-saturation": 1.0,
    }
    with dask.config.set(settings):
        cluster = local(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # The batch reports its jobs itself; the cluster's own logs would break its progress lines.
            silence_logs=logging.CRITICAL,
            # The scheduler's HTTP server (no dashboard) on a free port of this machine alone: Dask's
            # default, 8787, is another cluster's or a notebook's, and taking the next one is warned of.
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        )
    with cluster, make(cluster) as client:
        yield Pool(client)


__all__ = ["CONNECT_TIMEOUT", "BatchError", "Ended", "Pool", "connect", "quiet"]
