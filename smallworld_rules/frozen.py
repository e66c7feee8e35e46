"""Faster construction of the frozen attrs classes made in great numbers during play.

A frozen attrs class refuses every ``setattr``, so the ``__init__`` attrs writes for it sets
each field through ``object.__setattr__``. Setting a slot through its own descriptor does the
same about twice as fast, and a random game makes some 150 log events and many breakdown
parts. :func:`quick_init` gives such a class an ``__init__`` that does that; everything else
attrs made (``repr``, equality, hashing, ``attrs.fields``, ``attrs.evolve``) is untouched.

The new ``__init__`` is compiled from a few lines built from the class's own field names, the
way attrs, ``dataclasses`` and ``collections.namedtuple`` build theirs: nothing a user or a
rule file writes ever reaches it.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

C = TypeVar("C", bound=type[Any])


def quick_init(cls: C) -> C:
    """Replace the ``__init__`` of a frozen, slotted attrs class with an equivalent one that
    fills the slots directly (same parameters, order and defaults).

    Raises:
        TypeError: a field has a validator, a converter, a factory default, is keyword-only
            or not in ``__init__``: the fast version would not do the same.
    """
    fields = attrs.fields(cls)
    namespace: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for i, field in enumerate(fields):
        if (
            field.validator is not None
            or field.converter is not None
            or isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]
            or field.kw_only
            or not field.init
        ):
            raise TypeError(f"{cls.__name__}.{field.name}: quick_init cannot build this field")
        namespace[f"_set{i}"] = cls.__dict__[field.name].__set__  # the slot's descriptor
        if field.default is attrs.NOTHING:
            params.append(field.name)
        else:
            namespace[f"_default{i}"] = field.default
            params.append(f"{field.name}=_default{i}")
        body.append(f"    _set{i}(self, {field.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(compile(source, f"<quick_init {cls.__qualname__}>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls
