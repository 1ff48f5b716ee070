"""Codecs from declarations: a game declares its moves and params as frozen dataclasses,
and the JSON codec (and the JSON Schema the OpenAPI document publishes) comes from them.

A move type is one dataclass per move, each with ``type: Literal["..."]`` (a field with
that default, ``init=False``), or a union of them (discriminated by ``type``). Params are
one dataclass with a default for every field. Field types are strict: ``StrictInt``,
``StrictBool``, ``StrictStr`` or a ``Literal`` of choices (``Choice`` refuses ``true``
and ``1.0`` for an integer choice), so a string is not a number and a bool is not an int.
Keys a declaration does not name are ignored, as they always were.

A field declares the error code a bad or missing value gets with ``Code`` in its
``Annotated`` metadata (``Annotated[StrictInt, Code("bad_piece")]``); without one, the
code is ``bad_move`` (``bad_params``). A move whose ``type`` is missing or names no
declared move is ``unknown_move``; a value that is not a JSON object is ``bad_move``
(``bad_params``). A check across fields is a pydantic ``model_validator`` of the
dataclass that raises ``BadParams`` itself (pydantic passes an engine error through
unchanged); it runs on parsing, not when the engine makes a value itself.

``Codec.load`` runs on every move: one pydantic validation in Rust, about 1.5 µs.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError

from engines.core.errors import ErrorCode
from engines.core.protocol import BadMove, BadParams, EngineError

T = TypeVar("T")


@dataclass(frozen=True)
class Code:
    """The error code of a field whose value does not validate (in ``Annotated``)."""

    code: str


def _no_bool_or_float(value: object) -> object:
    if isinstance(value, bool | float):
        raise ValueError("a choice of integers takes an integer, not true, false or 1.0")
    return value


Choice = BeforeValidator(_no_bool_or_float)
"""Metadata for a ``Literal`` of integers: ``true`` is not 1, ``24.0`` is not 24."""


def members(declared: Any) -> tuple[type, ...]:
    """The dataclasses a declaration names: the union's members, or the one class."""
    if typing.get_origin(declared) is Annotated:
        return members(typing.get_args(declared)[0])
    if typing.get_origin(declared) in (typing.Union, types.UnionType):
        return tuple(m for arg in typing.get_args(declared) for m in members(arg))
    if not dataclasses.is_dataclass(declared) or not isinstance(declared, type):
        raise TypeError(f"a move or params declaration is a dataclass, not {declared!r:.60}")
    return (declared,)


def tag_of(cls: type) -> str:
    """A move class's ``type`` (its field's default)."""
    for spec in dataclasses.fields(cls):
        if spec.name == "type" and isinstance(spec.default, str):
            return spec.default
    raise TypeError(f"a move class has a field type = '<its name>', {cls.__name__} has none")


def _codes(cls: type) -> dict[str, str]:
    hints = typing.get_type_hints(cls, include_extras=True)
    codes: dict[str, str] = {}
    for name, hint in hints.items():
        if typing.get_origin(hint) is Annotated:
            for mark in hint.__metadata__:
                if isinstance(mark, Code):
                    codes[name] = mark.code
    return codes


class Codec(Generic[T]):
    """JSON ↔ a declared type: ``load`` (refusing with the engine's error and code) and
    ``dump`` (what ``load`` reads back to an equal value)."""

    def __init__(self, declared: Any, *, moves: bool) -> None:
        self.declared = declared
        self.moves = moves
        self.error: type[EngineError] = BadMove if moves else BadParams
        self.default_code = str(ErrorCode.BAD_MOVE if moves else ErrorCode.BAD_PARAMS)
        classes = members(declared)
        self.tags: dict[str, type] = {tag_of(cls): cls for cls in classes} if moves else {}
        self.tagged = moves and len(classes) > 1
        # The codes of the fields: by (move type, field) for a union, by field otherwise.
        self.codes: dict[tuple[str, str], str] = {
            (tag_of(cls) if self.tagged else "", name): code
            for cls in classes
            for name, code in _codes(cls).items()
        }
        form: Any = declared
        if self.tagged:
            form = Annotated[declared, Field(discriminator="type")]
        self.adapter: TypeAdapter[T] = TypeAdapter(form)
        self._validate = self.adapter.validate_python
        self._dump = self.adapter.dump_python

    def load(self, raw: object) -> T:
        """The value ``raw`` (decoded JSON) declares, or the engine's error."""
        if not isinstance(raw, Mapping):
            what = "a move" if self.moves else "params"
            raise self.error(self.default_code, f"{what} must be a JSON object")
        if self.moves and not self.tagged:
            kind = raw.get("type")
            if not isinstance(kind, str) or kind not in self.tags:
                raise self._unknown(kind)
        try:
            return self._validate(raw)
        except ValidationError as refused:
            raise self._refusal(refused, raw) from None

    def dump(self, value: T) -> dict[str, Any]:
        """JSON that ``load`` reads back to an equal value."""
        return self._dump(value, mode="json")  # type: ignore[no-any-return]

    def _unknown(self, kind: object) -> EngineError:
        return BadMove(
            ErrorCode.UNKNOWN_MOVE,
            f"type is one of {', '.join(self.tags)}, not {kind!r:.40}",
        )

    def _refusal(self, refused: ValidationError, raw: Mapping[str, Any]) -> EngineError:
        first = refused.errors(include_url=False, include_context=False)[0]
        if first["type"] in ("union_tag_not_found", "union_tag_invalid"):
            return self._unknown(raw.get("type"))
        loc = first["loc"]
        tag, path = (str(loc[0]), loc[1:]) if self.tagged and loc else ("", loc)
        name = str(path[0]) if path else ""
        code = self.codes.get((tag, name), self.default_code)
        where = f"{tag} " if tag else ""
        return self.error(code, f"{where}{name or 'value'}: {first['msg']}"[:200])

    def json_schema(self, prefix: str, suffix: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The declaration's JSON Schema and the schemas it refers to, each named with
        ``prefix`` and ``suffix`` (``PairsPairMove``: games share class names, and a
        game's events may be named like its moves), referred to as OpenAPI components; a
        move's ``type`` is required (it has a default only in Python)."""
        template = f"#/components/schemas/{prefix}{{model}}{suffix}"
        schema = self.adapter.json_schema(ref_template=template, mode="validation")
        defs = {
            f"{prefix}{name}{suffix}": body for name, body in schema.pop("$defs", {}).items()
        }
        for body in (schema, *defs.values()):
            kind = body.get("properties", {}).get("type")
            if self.moves and kind is not None and "const" in kind:
                kind.pop("default", None)
                body["required"] = ["type", *(n for n in body.get("required", []) if n != "type")]
        return schema, defs


@functools.cache
def move_codec(declared: Any) -> Codec[Any]:
    """The codec of a game's moves (BadMove ``bad_move``, ``unknown_move``, fields' codes)."""
    return Codec(declared, moves=True)


@functools.cache
def params_codec(declared: Any) -> Codec[Any]:
    """The codec of a game's params (BadParams ``bad_params``, fields' codes); one for a
    declaration (a state's codec reads its params with the engine's)."""
    return Codec(declared, moves=False)
