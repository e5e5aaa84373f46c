"""What the client says of itself at ``initialize``: the features it supports that change
what the server sends, whether it pulls diagnostics, its workspace folders and its settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path

from passlint.server.convert import ClientFeatures

SECTION = "passlint"  # the client's settings section
_MARKUP_KINDS = (types.MarkupKind.Markdown, types.MarkupKind.PlainText)


@dataclass(frozen=True)
class Client:
    """The client as ``initialize`` describes it. ``section``: its ``passlint`` settings
    (``has_section``: whether its initialization options gave any)."""

    features: ClientFeatures
    pull: bool
    folders: list[str]
    has_section: bool
    section: Any
    name: str


def learn(params: types.InitializeParams) -> Client:
    caps = params.capabilities
    text = caps.text_document
    pull = text is not None and text.diagnostic is not None
    publish = text.publish_diagnostics if text is not None else None
    tag_support = publish.tag_support if publish is not None else None
    edit = caps.workspace.workspace_edit if caps.workspace is not None else None
    # codeDescription and relatedInformation are optional fields that clients without
    # support ignore, so every client gets them; tags are limited to what it knows.
    hover_caps = text.hover if text is not None else None
    formats = list(hover_caps.content_format or []) if hover_caps is not None else []
    markdown = next((f == types.MarkupKind.Markdown for f in formats if f in _MARKUP_KINDS), False)
    features = ClientFeatures(
        tags=frozenset(int(t) for t in tag_support.value_set) if tag_support else frozenset(),
        document_changes=bool(edit and edit.document_changes),
        markdown=markdown,
    )
    folders = [f.uri for f in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [params.root_uri]
    elif not folders and params.root_path:
        folders = [from_fs_path(params.root_path) or ""]
    options = params.initialization_options
    has_section = isinstance(options, Mapping)
    section = None
    if isinstance(options, Mapping):
        section = options.get(SECTION, options.get("settings", options))
    name = params.client_info.name if params.client_info else "?"
    return Client(features, pull, folders, has_section, section, name)


def supports(capabilities: types.ClientCapabilities, path: str) -> bool:
    """Whether ``capabilities`` hold a truthy value at the dotted ``path``."""
    value: Any = capabilities
    for part in path.split("."):
        value = getattr(value, part, None)
        if value is None:
            return False
    return bool(value)
