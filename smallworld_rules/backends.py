"""Running many independent jobs (games) in worker processes or on a Ray cluster.

:func:`execute` maps a module-level function over jobs and yields ``(key, result)`` pairs as
they finish, in whatever order they finish: callers that need an order sort by key. Two
backends:

``"local"``
    processes on this machine (:class:`concurrent.futures.ProcessPoolExecutor`); one worker
    runs the jobs in this process. A job that raises is submitted again; a worker process that
    dies breaks the pool, which is rebuilt and every unfinished job submitted again.
``"ray"``
    Ray tasks, on the cluster at ``address`` or, without one, on a Ray started here for the
    run (and stopped after it). When Ray is already initialised (``ray.init`` called by the
    caller), its cluster is used as it is. Ray itself retries a task whose worker died
    (``max_retries``) or that raised (``retry_exceptions``).

The function and its jobs must be picklable, and the function importable by the workers
(on a cluster: ``smallworld_rules`` installed on every node). Results are what the function
returns, so a job's outcome never depends on the backend or the worker that ran it.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Final, TypeVar

from smallworld_rules.errors import RulesError

J = TypeVar("J")
R = TypeVar("R")

BACKENDS: Final = ("local", "ray")
#: jobs in flight per worker: enough to keep each busy, few enough that Ctrl-C stops soon
_WINDOW: Final = 4


class JobFailed(RulesError):
    """A job that failed on every attempt: ``key`` (``None`` when the worker processes kept
    dying), ``attempts`` and ``reason`` (its last error)."""

    def __init__(self, key: int | None, attempts: int, reason: str) -> None:
        self.key, self.attempts, self.reason = key, attempts, reason
        what = "the worker processes died" if key is None else f"job {key} failed"
        super().__init__(f"{what} {attempts} times: {reason}")


def default_workers() -> int:
    """The local backend's default: the machine's processors, at most 4."""
    return min(os.cpu_count() or 1, 4)


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent alone handles it (it
    # stops the pool), so the workers print no traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker forked from a process with Ray running inherits Ray's SIGTERM handler, which
    # prints a stack dump when the pool stops its workers.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Refused:
    """A job's :class:`RulesError` (bad input: trying again would fail the same way), sent
    back as a value so that no backend retries it; the parent raises it again."""

    def __init__(self, error: RulesError) -> None:
        self.message = str(error)  # the text alone: not every RulesError pickles whole


def _call(function: Callable[[J], R], job: J, exit_once: str | None) -> R | _Refused:
    """Run one job. ``exit_once`` (tests only) names a marker file: if it does not exist yet,
    the worker creates it and dies at once, as a lost worker would."""
    if exit_once is not None:
        try:
            with open(exit_once, "x"):
                pass
        except FileExistsError:
            pass
        else:
            os._exit(70)
    try:
        return function(job)
    except RulesError as error:
        return _Refused(error)


def _result(result: R | _Refused) -> R:
    if isinstance(result, _Refused):
        raise RulesError(result.message)
    return result


def execute(
    function: Callable[[J], R],
    jobs: Mapping[int, J],
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    retries: int = 3,
    exit_once: Mapping[int, str | Path] | None = None,
) -> Iterator[tuple[int, R]]:
    """Run ``function(job)`` for every job, yielding ``(key, result)`` as each finishes.

    Args:
        function: a module-level function (the workers import it by name).
        jobs: the jobs by key.
        backend: ``"local"`` or ``"ray"``.
        workers: local: processes (default :func:`default_workers`); Ray: tasks in flight are
            bounded by it (default: the cluster's CPUs).
        address: Ray only: the cluster to join (``ray.init(address=...)``); default: a Ray
            started here, unless one is already initialised.
        retries: attempts after the first for a job that fails or whose worker is lost.
        exit_once: tests only: keys whose first attempt kills its worker (see :func:`_call`).

    Raises:
        JobFailed: a job failed ``retries + 1`` times.
        RulesError: an unknown backend, or Ray missing.

    Closing the iterator early (or Ctrl-C while it waits) cancels the jobs not yet started.
    """
    if backend not in BACKENDS:
        raise RulesError(f"unknown backend {backend!r} (known backends: {', '.join(BACKENDS)})")
    if workers is not None and workers < 1:
        raise RulesError(f"workers must be at least 1, not {workers}")
    if address is not None and backend != "ray":
        raise RulesError("an address is the Ray cluster's: it needs the ray backend")
    if retries < 0:
        raise RulesError(f"retries must be 0 or more, not {retries}")
    markers = {k: str(v) for k, v in (exit_once or {}).items()}
    if backend == "ray":
        return _execute_ray(function, jobs, workers, address, retries, markers)
    workers = workers or default_workers()
    if workers == 1 and not markers:
        return _execute_here(function, jobs, retries)
    return _execute_local(function, jobs, workers, retries, markers)


def _execute_here(
    function: Callable[[J], R], jobs: Mapping[int, J], retries: int
) -> Iterator[tuple[int, R]]:
    for key, job in jobs.items():
        for attempt in range(retries + 1):
            try:
                result = _result(_call(function, job, None))
                break
            except RulesError:
                raise
            except Exception as exc:
                if attempt == retries:
                    raise JobFailed(key, retries + 1, repr(exc)) from exc
        yield key, result


def _execute_local(
    function: Callable[[J], R],
    jobs: Mapping[int, J],
    workers: int,
    retries: int,
    markers: Mapping[int, str],
) -> Iterator[tuple[int, R]]:
    todo = list(jobs)
    todo.reverse()  # popped from the end: the jobs start in key order
    failures: dict[int, int] = {}
    breaks = 0
    while todo:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
        running: dict[Future[R | _Refused], int] = {}
        broken = False
        try:
            while todo or running:
                while todo and len(running) < _WINDOW * workers:
                    key = todo.pop()
                    future = pool.submit(_call, function, jobs[key], markers.get(key))
                    running[future] = key
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=running.__getitem__):
                    key = running.pop(future)
                    try:
                        result = _result(future.result())
                    except BrokenProcessPool:
                        todo.append(key)
                        broken = True
                        continue
                    except RulesError:
                        raise
                    except Exception as exc:
                        failures[key] = failures.get(key, 0) + 1
                        if failures[key] > retries:
                            raise JobFailed(key, retries + 1, repr(exc)) from exc
                        todo.append(key)
                        continue
                    breaks = 0
                    yield key, result
                if broken:
                    break
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if broken:
            # A lost worker: every job in flight is lost with the pool; they start again on a
            # new one. A pool that keeps breaking without finishing anything is given up.
            todo.extend(running.values())
            todo.sort(reverse=True)
            breaks += 1
            if breaks > retries:
                raise JobFailed(None, breaks, "in a row, with no job finished in between")


def _execute_ray(
    function: Callable[[J], R],
    jobs: Mapping[int, J],
    workers: int | None,
    address: str | None,
    retries: int,
    markers: Mapping[int, str],
) -> Iterator[tuple[int, R]]:
    try:
        import ray
    except ImportError:
        raise RulesError(
            "the ray backend needs Ray: pip install 'smallworld-rules[ray]'"
        ) from None
    started = not ray.is_initialized()
    if started and address is not None:
        _check_reachable(address)
    if started:
        ray_options: dict[str, Any] = {
            "include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING,
        }
        if address is None:
            ray_options["num_cpus"] = workers or default_workers()
        # The Ray processes started here inherit Ctrl-C ignored: the terminal sends it to the
        # whole group, and a raylet or worker killed by it would fail the run instead of
        # letting this process stop it cleanly.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            ray.init(address=address, **ray_options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RulesError(f"cannot start or join Ray at {address or 'this machine'}: "
                             f"{' '.join(str(exc).split())[:200]}") from None
        finally:
            signal.signal(signal.SIGINT, previous)
    return _ray_jobs(ray, function, jobs, workers, retries, markers, started)


def _check_reachable(address: str) -> None:
    """Refuse at once a ``host:port`` nobody answers at (Ray itself would keep trying for
    minutes); ``auto`` and other forms are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or "/" in host:
        return
    try:
        number = int(port)
        with socket.create_connection((host.strip("[]"), number), timeout=5):
            pass
    except (OSError, ValueError, OverflowError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "no answer"
        if isinstance(exc, ValueError | OverflowError):
            reason = f"{port[:20]!r} is not a port"
        raise RulesError(f"cannot reach a Ray cluster at {address[:100]!r}: {reason}") from None


def _ray_jobs(
    ray: Any,
    function: Callable[[J], R],
    jobs: Mapping[int, J],
    workers: int | None,
    retries: int,
    markers: Mapping[int, str],
    started: bool,
) -> Iterator[tuple[int, R]]:
    try:
        task = ray.remote(max_retries=retries, retry_exceptions=True)(_call)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        window = _WINDOW * (workers or cpus)
        todo = list(jobs)
        todo.reverse()
        running: dict[Any, int] = {}
        try:
            while todo or running:
                while todo and len(running) < window:
                    key = todo.pop()
                    running[task.remote(function, jobs[key], markers.get(key))] = key
                ready, _ = ray.wait(list(running), num_returns=1)
                key = running.pop(ready[0])
                try:
                    result = _result(ray.get(ready[0]))
                except ray.exceptions.RayError as exc:
                    reason = " ".join(str(exc).split())[:300]
                    raise JobFailed(key, retries + 1, reason) from None
                yield key, result
        finally:
            # A Ray started for this run is shut down below, tasks and all. Cancelling first
            # (force=True) races the replies of tasks just finishing, and Ray 2.x aborts the
            # whole process on that race ("Tried to complete task that was not pending").
            # On a cluster we only joined, the tasks are cancelled, not their workers killed.
            if not started:
                for ref in running:
                    ray.cancel(ref)
    finally:
        if started:
            ray.shutdown()

