"""The HLO front end's rules (E010, a syntax error in HLO text; E011, an HLO protocol
buffer that cannot be read), declared once; the module imports nothing of the parser or
the proto reader, so the catalog reads it without loading the front end."""

from __future__ import annotations

from passlint.analysis.findings import Severity
from passlint.analysis.rules import Rule, by_code

HLO_SYNTAX_ERROR = Rule(
    code="E010",
    name="hlo-syntax-error",
    severity=Severity.ERROR,
    summary="The HLO text does not parse: a malformed module header, computation, "
    "instruction, shape or attribute, an unclosed bracket, string or comment, an "
    "instruction defined twice, or an operand naming no instruction of its computation.",
    why="XLA's HLO parser rejects the module, and nothing after the error can be trusted by "
    "the passes; passlint goes on at the next line so every broken instruction is reported.",
    example="HloModule m\n\nENTRY main {\n  ROOT x = f32[2] parameter(0\n}",
)

HLO_PROTO_UNREADABLE = Rule(
    code="E011",
    name="hlo-proto-unreadable",
    severity=Severity.ERROR,
    summary="A `*.hlo.pb` (`HloProto`) or `*.hlo_module.pb` (`HloModuleProto`) file is not "
    "a readable HLO protocol buffer: it is cut short, a field is malformed (a varint of more "
    "than 10 bytes, a length past the end, a group, messages nested too deep), it holds no "
    "module or computation, or an operand id names no instruction of its computation.",
    why="Nothing of the module can be trusted, so no pass runs on it; the message gives the "
    "byte offset where reading stopped. A file XLA wrote whole reads; one cut short by a "
    "copy or a full disk does not, and neither does another message saved under the name.",
    no_fix="none in the file; write it again with XLA (`--xla_dump_hlo_as_proto`, or "
    "`as_serialized_hlo_module_proto()` for a `.hlo_module.pb`).",
)

HLO_SYNTAX_RULES = by_code(HLO_SYNTAX_ERROR, HLO_PROTO_UNREADABLE)
