"""Run an engine in a forked worker process, so a run that never returns can be stopped.

Some random trees livelock inside BT.CPP's C++ without calling any Python leaf (for
example a ReactiveSequence over two subtrees whose Repeat nodes yield with wake-up:
each halts the other, and tick_once re-ticks forever). Python cannot interrupt that
loop, so the oracle runs in a worker process; when the worker does not answer within
the time limit it is killed and replaced, and the run is recorded as TIMEOUT.
"""

import multiprocessing

from .runner import Step, run_case

WORKER_TIME_LIMIT = 2.0  # seconds per run; a normal case needs milliseconds


def _serve(connection, engine_factory):
    engine = engine_factory()
    while True:
        request = connection.recv()
        if request is None:
            return
        case, plan = request
        connection.send(run_case(engine, case, plan, time_limit=None))


class LocalRunner:
    """Runs an engine in this process (a pure-Python loop is stopped by SIGALRM)."""

    def __init__(self, engine, time_limit=WORKER_TIME_LIMIT):
        self.engine = engine
        self.name = engine.name
        self.time_limit = time_limit

    def run(self, case, plan):
        return run_case(self.engine, case, plan, time_limit=self.time_limit)

    def close(self):
        pass


class IsolatedRunner:
    """Runs an engine in a forked worker; ``run`` returns the steps, or one TIMEOUT step."""

    def __init__(self, engine_factory, name, time_limit=WORKER_TIME_LIMIT):
        self.engine_factory = engine_factory
        self.name = name
        self.time_limit = time_limit
        self._context = multiprocessing.get_context("fork")
        self._process = None
        self._connection = None

    def _start(self):
        parent_end, child_end = self._context.Pipe()
        self._process = self._context.Process(
            target=_serve, args=(child_end, self.engine_factory), daemon=True)
        self._process.start()
        child_end.close()
        self._connection = parent_end

    def run(self, case, plan):
        if self._process is None:
            self._start()
        self._connection.send((case, plan))
        if self._connection.poll(self.time_limit):
            return self._connection.recv()
        self._stop()
        return [Step("timeout", "TIMEOUT", [], {}, f"no answer within {self.time_limit} s")]

    def _stop(self):
        self._process.kill()
        self._process.join()
        self._connection.close()
        self._process = self._connection = None

    def close(self):
        if self._process is not None:
            try:
                self._connection.send(None)
                self._process.join(timeout=2)
            finally:
                if self._process.is_alive():
                    self._process.kill()
                self._process = self._connection = None
