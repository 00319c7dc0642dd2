"""rnsim.schema: a document's first problem against a declared schema, as
the path, the value, the keys allowed and what is allowed in words."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from msgspec import Meta

from rnsim.schema import Problem, SchemaError, Table, convert


class Item(Table):
    ref: Annotated[str, Meta(min_length=1, description="a name")]
    params: dict[str, Any] = {}


class Doc(Table):
    count: Annotated[int, Meta(ge=1, le=10)] = 1
    mode: Literal["auto"] | Annotated[int, Meta(ge=1, le=4)] = "auto"
    items: list[str | Item] = []
    table: dict[str, list[int]] = {}
    flag: bool = False


def problem(raw: Any) -> Problem:
    with pytest.raises(SchemaError) as e:
        convert(raw, Doc)
    return e.value.problem


def test_a_valid_document_reads_as_typed_values() -> None:
    doc = convert({"count": 3, "items": ["a", {"ref": "b"}], "table": {"x": [1]}}, Doc)
    assert doc.count == 3 and doc.items == ["a", Item("b")] and doc.mode == "auto"


def test_an_unknown_key_names_its_table_and_the_keys_in_declared_order() -> None:
    p = problem({"items": [{"ref": "a", "prams": {}}]})
    assert (p.kind, p.at(), p.allowed) == ("unknown", "items[0].prams", ("ref", "params"))


def test_a_missing_key_says_what_it_holds() -> None:
    p = problem({"items": [{}]})
    assert (p.kind, p.at(), p.expected) == ("missing", "items[0].ref", "a name")


def test_a_wrong_type_and_a_number_out_of_range_are_told_apart() -> None:
    p = problem({"count": "many"})
    assert (p.kind, p.where(), p.value, p.expected) == ("type", "count", "many", "a whole number 1..10")
    p = problem({"count": 0})
    assert (p.kind, p.bounds, p.value) == ("range", "1..10", 0)


def test_a_union_is_said_member_by_member() -> None:
    assert problem({"mode": "x"}).expected == '"auto" or a whole number 1..4'
    assert problem({"mode": 9}).kind == "range"


def test_a_bool_is_not_a_whole_number() -> None:
    assert problem({"count": True}).kind == "type"


def test_a_table_key_is_named_where_msgspec_says_only_that_it_is_a_key() -> None:
    p = problem({"table": {"a": [1], "b": [2, "x"]}})
    assert (p.where(), p.value) == ("table.b[1]", "x")
