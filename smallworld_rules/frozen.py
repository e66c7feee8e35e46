"""Faster construction of the frozen attrs classes made in great numbers during play.

A frozen attrs class refuses every ``setattr``, so the ``__init__`` attrs writes for it sets
each field through ``object.__setattr__``. Setting a slot through its own descriptor does the
same about twice as fast, and a random game makes some 150 log events and many breakdown
parts. :func:`quick_init` gives such a class an ``__init__`` that does that; everything else
attrs made (``repr``, equality, hashing, ``attrs.fields``, ``attrs.evolve``) is untouched.

The new ``__init__`` is compiled from a few lines built from the class's own field names, the
way attrs, ``dataclasses`` and ``collections.namedtuple`` build theirs: nothing a user or a
rule file writes ever reaches it.

:func:`quick_new` goes further for the log events (a random game makes some 150): each
descriptor call above still builds an argument tuple (~700 instructions a field), so the
instance is made as one of a plain twin class with the same slots, filled by ordinary
attribute stores, then given its class (one check that the layouts agree).
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
    params, namespace = _plain_fields(cls, "quick_init")
    body: list[str] = []
    for i, field in enumerate(attrs.fields(cls)):
        namespace[f"_set{i}"] = cls.__dict__[field.name].__set__  # the slot's descriptor
        body.append(f"    _set{i}(self, {field.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(compile(source, f"<quick_init {cls.__qualname__}>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls


def _plain_fields(cls: type[Any], who: str) -> tuple[list[str], dict[str, Any]]:
    """The parameters of the fast constructors of ``cls`` (name, or name with its default
    held in the namespace returned)."""
    namespace: dict[str, Any] = {}
    params: list[str] = []
    for i, field in enumerate(attrs.fields(cls)):
        if (
            field.validator is not None
            or field.converter is not None
            or isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]
            or field.kw_only
            or not field.init
        ):
            raise TypeError(f"{cls.__name__}.{field.name}: {who} cannot build this field")
        if field.default is attrs.NOTHING:
            params.append(field.name)
        else:
            namespace[f"_default{i}"] = field.default
            params.append(f"{field.name}=_default{i}")
    return params, namespace


def quick_new(cls: C) -> C:
    """Make a frozen, slotted attrs class without a ``__weakref__`` slot build its instances
    in ``__new__`` (same parameters, order and defaults; ``__init__`` does nothing more):
    as an instance of a twin class with the same slots, whose attributes are plain slot
    stores, which then becomes an instance of ``cls``. Copies and pickles get the fields as
    ``__new__``'s arguments (``__getnewargs__``). ``cls._make(...)`` builds the same
    instance as ``cls(...)``, about a third cheaper (the engine's busiest events use it).

    Raises:
        TypeError: a field :func:`quick_init` cannot build, or a ``__weakref__`` slot (the
            class of an instance with one cannot be changed on CPython 3.11).
    """
    if "__weakref__" in cls.__slots__:
        raise TypeError(f"{cls.__name__} has a __weakref__ slot (attrs weakref_slot=False)")
    params, namespace = _plain_fields(cls, "quick_new")
    names = [f.name for f in attrs.fields(cls)]
    twin = type(f"_{cls.__name__}Fields", cls.__bases__, {"__slots__": cls.__slots__})
    if any("__new__" in vars(base) or "__init__" in vars(base) for base in twin.__mro__[1:-1]):
        raise TypeError(f"a base of {cls.__name__} has its own __new__ or __init__")
    namespace.update(_twin=twin, _cls=cls)
    body = [f"    self.{name} = {name}" for name in names]
    source = (
        # _twin() rather than object.__new__(_twin): no argument tuples, no subtype check
        f"def __new__(cls, {', '.join(params)}):\n    self = _twin()\n"
        + "".join(line + "\n" for line in body)
        # a plain store on the twin (generic setattr, no argument tuple), which checks
        # that the layouts agree
        + "    self.__class__ = _cls\n    return self\n"
    )
    # the same without ``cls``, called directly: ``cls(...)`` reaches a Python ``__new__``
    # through type.__call__, which builds an argument tuple with the class in front
    make = source.replace("def __new__(cls, ", "def _make(", 1)
    exec(compile(source + make, f"<quick_new {cls.__qualname__}>", "exec"), namespace)
    new = namespace["__new__"]
    new.__qualname__ = f"{cls.__qualname__}.__new__"
    new.__doc__ = cls.__init__.__doc__
    cls.__new__ = staticmethod(new)
    namespace["_make"].__qualname__ = f"{cls.__qualname__}._make"
    cls._make = staticmethod(namespace["_make"])
    cls.__init__ = object.__init__
    fields = tuple(names)
    cls.__getnewargs__ = lambda self: tuple(getattr(self, n) for n in fields)
    return cls
