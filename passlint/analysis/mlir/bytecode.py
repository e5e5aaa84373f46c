"""MLIR bytecode (``.mlirbc``) as MLIR text, read by jaxlib's MLIR bindings.

Bytecode is read by MLIR's own reader, never by one of passlint's: a module MLIR cannot read
is refused with MLIR's diagnostics, not read in part. jaxlib is an optional extra
(``bytecode``: ``pip install -e '.[bytecode]'`` in a checkout, or jax and jaxlib 0.10.2
themselves), imported when bytecode is first converted; without it, ``BytecodeUnavailable``
says what to install.

Two kinds of bytecode are read: a module as MLIR wrote it (``write_bytecode``: the dialects
it uses) and a StableHLO portable artifact (what ``jax.export`` serializes: the module in the
versioned VHLO dialect), which is converted back to StableHLO. Both start with ``ML\\xefR``.
The text is as MLIR prints a module, with every location (``loc(...)``, which passlint's
MLIR parser reads); nothing of it is elided. MLIR's diagnostics are
captured, never printed.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

MAGIC = b"ML\xefR"
EXTRA = "bytecode"
INSTALL = "pip install jax==0.10.2 jaxlib==0.10.2"  # (what the extra pins)
_VHLO = "vhlo."  # the ops of a StableHLO portable artifact


class BytecodeError(Exception):
    """Bytecode passlint cannot turn into text, and why (one line, for people)."""


class BytecodeUnavailable(BytecodeError):
    """jaxlib's MLIR bindings, which read bytecode, are not installed (or not usable)."""

    def __init__(self, problem: str) -> None:
        super().__init__(
            f"reading MLIR bytecode needs jaxlib's MLIR bindings ({problem}): install them "
            f"with `{INSTALL}` (passlint's optional extra `{EXTRA}`)"
        )


class BytecodeTooLarge(BytecodeError):
    """Bytecode above the size limit the caller gave; not read."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes of MLIR bytecode is more than the limit of {limit} bytes")
        self.size = size
        self.limit = limit


class BytecodeUnreadable(BytecodeError):
    """Bytes that are no bytecode jaxlib can read; ``diagnostics`` holds MLIR's words."""

    def __init__(self, reason: str, diagnostics: tuple[str, ...] = ()) -> None:
        details = f": {'; '.join(diagnostics)}" if diagnostics else ""
        super().__init__(f"{reason}{details}")
        self.diagnostics = diagnostics


def is_bytecode(data: bytes) -> bool:
    """Whether ``data`` starts as MLIR bytecode does (``MAGIC``)."""
    return bytes(data[: len(MAGIC)]) == MAGIC


def bytecode_to_text(data: bytes, limit: int) -> str:
    """The MLIR text of the bytecode ``data`` (a module, or a StableHLO portable artifact as
    StableHLO). Raises ``BytecodeTooLarge`` above ``limit`` bytes, ``BytecodeUnavailable``
    without jaxlib and ``BytecodeUnreadable`` for what jaxlib cannot read."""
    if len(data) > limit:
        raise BytecodeTooLarge(len(data), limit)
    if not is_bytecode(data):
        raise BytecodeUnreadable("not MLIR bytecode (it does not start with ML\\xefR)")
    mlir = _bindings()
    context = mlir.new_context()
    with _captured(context) as diagnostics:
        try:
            return _text(mlir, context, bytes(data))
        except Exception as error:  # (jaxlib raises MLIRError, ValueError, RuntimeError)
            words = tuple(_error_diagnostics(error)) + tuple(diagnostics)
            raise BytecodeUnreadable("jaxlib cannot read it", words or (str(error),)) from None


@dataclass(frozen=True)
class _Bindings:
    """What of jaxlib converts bytecode: its ``ir`` module, a context maker, the StableHLO
    dialect's portable artifact reader."""

    ir: Any
    make_context: Any
    deserialize_portable: Any

    def new_context(self) -> Any:
        context = self.make_context()
        context.allow_unregistered_dialects = True  # (an op of another dialect stays generic)
        return context


def _bindings() -> _Bindings:
    """jaxlib's MLIR bindings, imported now; ``BytecodeUnavailable`` without them."""
    try:
        ir = importlib.import_module("jaxlib.mlir.ir")
        interpreters = importlib.import_module("jax._src.interpreters.mlir")
        hlo = importlib.import_module("jaxlib.mlir.dialects.stablehlo")
        return _Bindings(ir, interpreters.make_ir_context, hlo.deserialize_portable_artifact)
    except ImportError as error:
        raise BytecodeUnavailable(_missing(error)) from None
    except (AttributeError, RuntimeError) as error:  # (other versions of jax and jaxlib)
        raise BytecodeUnavailable(f"the installed jax cannot: {error}") from None


def _missing(error: ImportError) -> str:
    """What of jax is missing, as ``error`` (of an import of its modules) says."""
    name = error.name or "jaxlib"
    top = name.split(".")[0]
    try:
        installed = name != top and importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        installed = False
    return f"the installed {top} has no {name}" if installed else f"{top} is not installed"


@contextlib.contextmanager
def _captured(context: Any) -> Iterator[list[str]]:
    """MLIR's diagnostics in ``context`` while the block runs, kept (never printed)."""
    found: list[str] = []

    def keep(diagnostic: Any) -> bool:
        found.extend(_described(diagnostic))
        return True  # (handled: MLIR prints nothing)

    handler = context.attach_diagnostic_handler(keep)
    try:
        yield found
    finally:
        handler.detach()


def _text(mlir: _Bindings, context: Any, data: bytes) -> str:
    """The text of the bytecode ``data``: read, and converted from VHLO when it is a
    portable artifact."""
    module = mlir.ir.Module.parse(data, context=context)
    if _is_portable(module):
        module = mlir.deserialize_portable(context, data)
    text: str = module.operation.get_asm(enable_debug_info=True)
    return text


def _is_portable(module: Any) -> bool:
    """Whether the module holds VHLO ops (a StableHLO portable artifact)."""
    return any(op.operation.name.startswith(_VHLO) for op in module.body.operations)


def _error_diagnostics(error: Exception) -> Iterator[str]:
    """The diagnostics an ``MLIRError`` carries (none for other errors)."""
    for diagnostic in getattr(error, "error_diagnostics", None) or ():
        yield from _described(diagnostic)


def _described(diagnostic: Any) -> Iterator[str]:
    """A diagnostic and its notes, each in a line of words (where it is, unless it is only
    the bytecode stream's ``-``)."""
    where = str(diagnostic.location)
    shown = "" if where in ('loc("-":0:0)', "loc(unknown)") else f" at {where}"
    yield f"{diagnostic.message}{shown}"
    for note in diagnostic.notes:
        yield from _described(note)
