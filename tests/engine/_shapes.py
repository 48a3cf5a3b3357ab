"""Whether a value keeps to the engine's declared shapes (its TypedDicts), read with ``typing``:
what the engine's tests check every view, action and event of random games against."""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict

import durak


def mismatch(value: Any, hint: Any, where: str = "") -> str | None:
    """Why ``value`` is not of the declared type ``hint`` (a short description with its path), or
    None if it is. ``where`` names the value in the description."""
    plain, metadata = durak.unwrap(hint)
    if get_origin(plain) in (Union, types.UnionType):
        options = get_args(plain)
        if value is None:
            return None if type(None) in options else f"{where or 'the value'} is null"
        (plain,) = [option for option in options if option is not type(None)]
        plain, more = durak.unwrap(plain)
        metadata += more
    elif value is None:
        return f"{where or 'the value'} is null"
    kind = next((item for item in metadata if isinstance(item, durak.JsonKind)), None)
    if kind is not None and kind.name in ("action", "event"):
        shapes = durak.ACTION_SHAPES if kind.name == "action" else durak.EVENT_SHAPES
        name = _type_of(value)
        return _fields_mismatch(value, shapes.get(name), where or name)
    if is_typeddict(plain):
        return _fields_mismatch(value, plain, where or plain.__name__)
    origin = get_origin(plain)
    if origin is list:
        if not isinstance(value, list):
            return f"{where} is not a list"
        length = next((item for item in metadata if isinstance(item, durak.Length)), durak.Length())
        if length.min is not None and len(value) < length.min:
            return f"{where} has fewer than {length.min} items"
        if length.max is not None and len(value) > length.max:
            return f"{where} has more than {length.max} items"
        (item,) = get_args(plain)
        return next((m for i, v in enumerate(value) if (m := mismatch(v, item, f"{where}[{i}]"))), None)
    if origin is dict:
        if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
            return f"{where} is not an object"
        key_type, item = get_args(plain)
        if kind is not None:  # rules: any object
            return None
        for key, v in value.items():
            if m := mismatch(key, key_type, f"{where} key {key}") or mismatch(v, item, f"{where}[{key}]"):
                return m
        return None
    if kind is not None:
        fits = isinstance(value, str) and value in kind.values
        return None if fits else f"{where} is not of type {kind.name}: {value!r}"
    if origin is Literal:
        # 1 == True in Python, so the type must match as well as the value
        fits = any(type(value) is type(option) and value == option for option in get_args(plain))
        return None if fits else f"{where} is not one of {get_args(plain)}: {value!r}"
    names = {int: "integer", bool: "boolean", str: "string"}
    assert plain in names, hint
    fits = isinstance(value, str) if plain is str else type(value) is plain
    return None if fits else f"{where} is not of type {names[plain]}: {value!r}"


def _type_of(value: Any) -> str:
    return str(value.get("type")) if isinstance(value, dict) else "the value"


def _fields_mismatch(value: Any, shape: Any, where: str) -> str | None:
    if not isinstance(value, dict):
        return f"{where} is not an object"
    if shape is None:
        return f"{where}: no such type"
    declared = shape.__annotations__
    extra = sorted(set(value) - set(declared))
    if extra:
        return f"{where}: {', '.join(extra)} not declared"
    for name, hint in declared.items():
        if name not in value:
            if name in shape.__required_keys__:
                return f"{where}: {name} is missing"
            continue
        found = mismatch(value[name], hint, f"{where}.{name}")
        if found:
            return found
    return None
