"""Typed schemas for what a user writes: a file's tables declared as
:class:`Table` classes (msgspec structs), their checks derived from them.

:func:`convert` validates parsed TOML or JSON against a schema: which keys a
table may hold (in the order declared), which are required, each value's type
and range (``Annotated[int, Meta(ge=1, le=10)]``). Its first complaint comes
back as a :class:`Problem`: the path of the key, the value refused, the keys
allowed and what the schema allows there, in words (a field's
``Meta(description=...)``, else said of its type: "a whole number 1..10").
Each loader words the problem as its one-line message (file, key, what is
allowed, "did you mean"); checks across fields stay in the loader's code.
"""

from __future__ import annotations

import json
import re
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import msgspec

T = TypeVar("T")
Step = str | int


class Table(msgspec.Struct, forbid_unknown_fields=True):
    """A table of a file: unknown keys are refused."""


@dataclass(frozen=True)
class Problem:
    """The first thing a schema refuses in a document.

    ``kind``: "unknown" (a key not in the table), "missing" (a required key
    left out), "type" (a value of the wrong kind) or "range" (a number or
    length outside its bounds). ``path`` leads to the table (unknown,
    missing) or to the value (type, range)."""

    kind: Literal["unknown", "missing", "type", "range"]
    path: tuple[Step, ...]
    key: str = ""  # the key unknown or missing
    allowed: tuple[str, ...] = ()  # the table's keys, in declared order
    value: Any = None  # the value refused
    expected: str = ""  # what the schema allows there, in words
    bounds: str = ""  # "1..10", ">= 0" (range)
    described: bool = False  # ``expected`` is the field's own description

    def where(self, prefix: str = "") -> str:
        """The dotted path: ``continents[0].id``."""
        return dotted(self.path, prefix)

    def at(self, prefix: str = "") -> str:
        """The path of the key itself (unknown, missing): its table's path and the key."""
        return dotted((*self.path, self.key), prefix)


class SchemaError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem


def dotted(path: tuple[Step, ...] | list[Step], prefix: str = "") -> str:
    out = prefix
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def convert(raw: Any, schema: type[T]) -> T:
    """``raw`` as the schema's typed object; :class:`SchemaError` at the first problem."""
    try:
        return msgspec.convert(raw, schema)
    except msgspec.ValidationError as e:
        raise SchemaError(problem(raw, schema, str(e))) from None


def fields(schema: type[Any]) -> tuple[str, ...]:
    """A table's keys, in declared order."""
    return tuple(f.encode_name for f in msgspec.structs.fields(schema))


def field_type(schema: type[Any], name: str) -> Any:
    for f in msgspec.structs.fields(schema):
        if f.encode_name == name:
            return f.type
    raise KeyError(name)


# -------------------------------------------------------- msgspec's messages

_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<key>.*)`$", re.S)
_MISSING = re.compile(r"^Object missing required field `(?P<key>.*)`$", re.S)
_RANGE = re.compile(r"^Expected `[^`]*` (?:of length )?[<>]=? ")


def problem(raw: Any, schema: Any, message: str) -> Problem:
    """msgspec's message for ``raw`` against ``schema`` as a Problem: its path
    resolved against the document (a table's key where msgspec says ``[...]``)."""
    m = _AT.match(message)
    assert m is not None
    what, text = m["what"], m["path"] or ""
    path: list[Step] = []
    node, value = schema, raw
    for step in _STEP.finditer(text):
        name, index = step.groups()
        key: Step = name if name is not None else (int(index) if index != "..." else _failing_key(node, value))
        node, value = _child(node, key, value), _get(value, key)
        path.append(key)
    base, _ = _strip(_member(node, value))
    if (u := _UNKNOWN.match(what)) is not None:
        return Problem("unknown", tuple(path), key=u["key"], allowed=fields(base), value=_get(value, u["key"]))
    if (g := _MISSING.match(what)) is not None:
        return Problem("missing", tuple(path), key=g["key"], allowed=fields(base),
                       expected=describe(field_type(base, g["key"])))
    kind: Literal["type", "range"] = "range" if _RANGE.match(what) and _fits(node, value) else "type"
    said = _said(node)
    return Problem(kind, tuple(path), value=value, expected=describe(node), bounds=_bounds(node), described=said)


def _get(value: Any, key: Step) -> Any:
    if isinstance(value, dict) and isinstance(key, str):
        return value.get(key)
    if isinstance(value, list) and isinstance(key, int) and key < len(value):
        return value[key]
    return None


def _failing_key(node: Any, value: Any) -> str:
    """The first key of a table whose value the schema refuses (msgspec names none)."""
    base, _ = _strip(_member(node, value))
    item = get_args(base)[1] if len(get_args(base)) == 2 else Any
    for k, v in value.items() if isinstance(value, dict) else ():
        try:
            msgspec.convert(v, item)
        except msgspec.ValidationError:
            return str(k)
    return "..."


# ---------------------------------------------------------- the annotations


def _strip(t: Any) -> tuple[Any, list[msgspec.Meta]]:
    """A type without its Annotated layers, and their Meta."""
    metas: list[msgspec.Meta] = []
    while get_origin(t) is Annotated:
        t, *extra = get_args(t)
        metas += [x for x in extra if isinstance(x, msgspec.Meta)]
    return t, metas


def _members(t: Any) -> tuple[Any, ...]:
    """A union's members, nested unions flattened (the type itself otherwise)."""
    base, _ = _strip(t)
    if get_origin(base) not in (Union, types.UnionType):
        return (t,)
    return tuple(m for arg in get_args(base) for m in _members(arg))


def _is_struct(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, msgspec.Struct)


def _shape(t: Any) -> type:
    """The kind of raw value a type reads: dict, list, or its own type."""
    base, _ = _strip(t)
    origin = get_origin(base) or base
    if _is_struct(base) or origin is dict:
        return dict
    if origin in (list, tuple):
        return list
    if origin is Literal:
        return type(get_args(base)[0])
    return origin if isinstance(origin, type) else object


def _fits(t: Any, value: Any) -> bool:
    shape = _shape(t)
    if shape is object:
        return True
    if shape is int and isinstance(value, bool):
        return False
    return isinstance(value, shape)


def _member(t: Any, value: Any) -> Any:
    """The member of a union that reads ``value`` (the type itself otherwise)."""
    members = _members(t)
    if len(members) == 1:
        return t
    return next((m for m in members if _fits(m, value)), t)


def _child(t: Any, key: Step, value: Any) -> Any:
    base, _ = _strip(_member(t, value))
    if _is_struct(base):
        return field_type(base, str(key)) if isinstance(key, str) else Any
    args = get_args(base)
    if get_origin(base) is dict and len(args) == 2:
        return args[1]
    if get_origin(base) in (list, tuple) and args:
        return args[min(key, len(args) - 1)] if get_origin(base) is tuple and isinstance(key, int) else args[0]
    return Any


def _bounds(t: Any) -> str:
    for m in _strip(_member(t, None))[1] + [x for mem in _members(t) for x in _strip(mem)[1]]:
        lo = m.ge if m.ge is not None else m.min_length
        hi = m.le if m.le is not None else m.max_length
        if lo is not None and hi is not None:
            return f"{lo}..{hi}"
        if lo is not None:
            return f">= {lo}"
        if hi is not None:
            return f"<= {hi}"
    return ""


def _options(base: Any) -> list[Any]:
    """A union's members that hold a value (not null, not left out)."""
    return [m for m in get_args(base) if m is not type(None) and m is not msgspec.UnsetType]


def _said(t: Any) -> bool:
    """Whether the type carries its own description."""
    base, metas = _strip(t)
    if any(m.description for m in metas):
        return True
    options = _options(base) if get_origin(base) in (Union, types.UnionType) else []
    return len(options) == 1 and _said(options[0])


_WORDS = {str: "a string", int: "a whole number", bool: "true or false", float: "a number", dict: "a table",
          list: "a list", type(None): "null"}


def describe(t: Any) -> str:
    """What a type allows, in words: its Meta(description) if it has one."""
    base, metas = _strip(t)
    for m in metas:
        if m.description:
            return m.description
    if get_origin(base) in (Union, types.UnionType):
        return " or ".join(describe(m) for m in _options(base))
    if get_origin(base) is Literal:
        return " or ".join(json.dumps(x) for x in get_args(base))
    if base is typing.Any:
        return "a value"
    word = _WORDS.get(_shape(base), "a value")
    bounds = _bounds(t)
    return f"{word} {bounds}" if bounds and _shape(base) is int else word
