"""The ``mlir/convertFromBytecode`` request, answered as mlir-lsp-server answers it: params
``{"uri": ...}`` naming a bytecode file (``.mlirbc``, a StableHLO portable artifact), result
``{"output": ...}``, its MLIR text (``analysis.mlir.bytecode``, read by jaxlib).

The file is read from disk only when it is a regular file inside the workspace folders the
client named, and at most ``max-file-size`` bytes of it. The URI is the file's (``file:``)
or the view's that shows its text (``uris.BYTECODE_SCHEME``, the same path). Without jaxlib,
or for bytes jaxlib cannot read, the answer is an error saying so, in one line.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcInvalidParams

from passlint.analysis.mlir.bytecode import BytecodeError, BytecodeUnavailable, bytecode_to_text
from passlint.filesystem import Boundary
from passlint.server.convert import JsonData
from passlint.server.lsp_objects import JsonRpcRequestFailed
from passlint.server.quoting import shown
from passlint.server.uris import document_path, file_uri_of, on_disk

if TYPE_CHECKING:
    from passlint.server.session import Session

CONVERT_FROM_BYTECODE = "mlir/convertFromBytecode"


def requested_uri(params: Any) -> str:
    """The ``uri`` of the request's params; InvalidParams without one."""
    uri = params.get("uri") if isinstance(params, Mapping) else getattr(params, "uri", None)
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams(message="expected params {uri: string}")
    return uri


def bytecode_path(uri: str) -> str:
    """The real path of the file ``uri`` names; InvalidParams for a URI naming no file."""
    path = document_path(file_uri_of(uri))
    if not on_disk(path):
        raise JsonRpcInvalidParams(message=f"{shown(uri)} names no file of this machine")
    return path


def size_limit(session: Session, path: str) -> int:
    """The most bytes of the file at ``path`` read (``max-file-size``)."""
    return session.settings.settings_for(path).size_limit(path)


def converted(boundary: Boundary, path: str, limit: int) -> str:
    """The MLIR text of the bytecode file at ``path``, a regular file inside ``boundary``
    of at most ``limit`` bytes (read and converted here: run in an executor);
    RequestFailed when it is not read, or is no bytecode jaxlib reads."""
    try:
        data = boundary.read(path, limit)
    except OSError as error:  # (Refused: outside the workspace, not a regular file, too large)
        raise JsonRpcRequestFailed(message=f"not read: {error}") from None
    try:
        return bytecode_to_text(data, limit)
    except BytecodeUnavailable as error:
        raise JsonRpcRequestFailed(message=str(error)) from None
    except BytecodeError as error:
        raise JsonRpcRequestFailed(message=f"{shown(os.path.basename(path))}: {error}") from None


async def convert_from_bytecode(session: Session, executor: Executor, params: Any) -> JsonData:
    """``{"output": text}`` for the request's file (see the module's docstring)."""
    path = bytecode_path(requested_uri(params))
    boundary = Boundary(session.roots.roots)
    limit = size_limit(session, path)
    loop = asyncio.get_running_loop()
    text = await loop.run_in_executor(executor, converted, boundary, path, limit)
    return JsonData({"output": text})
