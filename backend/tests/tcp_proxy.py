"""A TCP forwarder that can be switched off and on, to play a database outage and its recovery, and
the count of the database sessions an application still holds after it."""

from __future__ import annotations

import contextlib
import socket
import threading

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TcpProxy:
    """Forwards ``127.0.0.1:port`` to ``target``.

    ``stop()`` refuses new connections and cuts the open ones, as a database restart would;
    ``start()`` listens again on the same port. ``blackhole()`` plays a network that silently drops
    everything: connections stay open and new ones are accepted, but no byte goes through either
    way (``start()`` after ``stop()`` ends it).
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._stopping = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.dropping = threading.Event()

    def blackhole(self) -> None:
        self.dropping.set()

    def start(self) -> None:
        self.dropping = threading.Event()
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        listener.settimeout(0.05)
        self._listener = listener
        self._stopping = threading.Event()
        self._acceptor = threading.Thread(target=self._accept, args=(listener, self._stopping), daemon=True)
        self._acceptor.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
            self._acceptor.join()  # a listener closed during accept() listens until accept() returns
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket, stopping: threading.Event) -> None:
        while not stopping.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            if self.dropping.is_set():  # accepted, never answered
                with self._lock:
                    self._sockets.append(client)
                threading.Thread(target=_pump, args=(client, None, self.dropping), daemon=True).start()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink, self.dropping), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket | None, dropping: threading.Event) -> None:
    try:
        while data := source.recv(65536):
            if sink is not None and not dropping.is_set():
                sink.sendall(data)
    except OSError:
        pass
    finally:
        if sink is not None and not dropping.is_set():  # a blackhole lets no end of stream through
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)


def sessions_held(url: str, application: str) -> tuple[int, int]:
    """(sessions, sessions idle in a transaction) the server named ``application`` holds in the
    PostgreSQL server at ``url`` (``pg_stat_activity``)."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text(
                    "SELECT count(*), count(*) FILTER (WHERE state LIKE 'idle in transaction%') "
                    "FROM pg_stat_activity WHERE application_name = :name"
                ),
                {"name": application},
            ).one()
    finally:
        engine.dispose()
    return int(row[0]), int(row[1])
