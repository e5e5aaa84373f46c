"""`passlint serve`: start the language server on stdio (default) or TCP.

Only the protocol goes to stdout: logging goes to the client (``client_log``) once it is
there and to stderr before, and ``sys.stdout`` is pointed at stderr while the server runs so
a stray ``print`` cannot corrupt the stream.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

DEFAULT_HOST = "127.0.0.1"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="passlint serve", description="Run the passlint language server."
    )
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    parser.add_argument(
        "--tcp",
        metavar="[HOST:]PORT",
        help=f"listen on a TCP port instead of stdio (host {DEFAULT_HOST} unless given)",
    )
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=["debug", "info", "warning", "error"],
        help="what to log on stderr (default: warning)",
    )
    parser.add_argument(
        "--debounce",
        type=float,
        default=0.15,
        metavar="SECONDS",
        help="wait this long after an edit before analysing (default: 0.15)",
    )
    parser.add_argument(
        "--threads-only",
        action="store_true",
        help="analyse large documents in a thread instead of a worker process",
    )
    return parser


def parse_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"invalid port in {text!r}")
    return host.strip("[]") or DEFAULT_HOST, int(port)


def run(argv: Sequence[str]) -> int:
    """Run the server with its own options; returns the exit status of a usage error, else
    ends the process when the client has gone."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exit_:
        return 0 if exit_.code in (0, None) else 2
    from passlint.server.allocator import map_large_blocks, restart_with_huge_pages

    restart_with_huge_pages()  # an edit of a 100 MB text costs 40 ms, not 100 (P11)
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, args.log_level.upper()),
        format="passlint %(levelname)s %(name)s: %(message)s",
    )
    from passlint.server.client_log import ClientLog, quiet_pygls
    from passlint.server.server import server

    quiet_pygls()
    root = logging.getLogger()
    server.client_log = ClientLog(server.window_log_message, root.level)
    for handler in root.handlers:  # stderr's: until the client is there
        handler.setLevel(root.level)  # (a pygls record quiet_pygls lowers stays below it)
        handler.addFilter(server.client_log.keeps_off_stderr)
    root.addHandler(server.client_log)
    map_large_blocks()  # texts of freed versions go back to the system (P9)
    server.scheduler.debounce = max(0.0, args.debounce)
    if args.threads_only:
        server.scheduler.heavy_factory = None
    if args.tcp:
        try:
            host, port = parse_address(args.tcp)
        except ValueError as error:
            print(f"passlint serve: {error}", file=sys.stderr)
            return 2
        print(f"passlint: language server listening on {host}:{port} (TCP)", file=sys.stderr)
        server.start_tcp(host, port)
        end(0)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        server.start_io(stdin, stdout)
    finally:
        sys.stdout = sys.__stdout__
    # `exit` without `shutdown` first (or a lost client) ends with status 1, as LSP says.
    end(0 if getattr(server.protocol, "_shutdown", False) else 1)


def end(status: int) -> NoReturn:
    """End the process now that the client has gone: an analysis thread still running (or
    stuck in a read) would keep it alive, as the interpreter waits for its thread pools'
    threads at exit. The analysis process ends with it (``lifetime``)."""
    logging.shutdown()
    sys.stderr.flush()
    os._exit(status)
