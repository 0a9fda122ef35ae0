"""`Frozen`: the base of the engine's immutable value classes (records, `Config`).

They were frozen dataclasses with slots. `dataclasses` compiles every generated method of
every class with `exec` when the module is imported, and itself imports `inspect` (and
with it `ast`, `dis`, `tokenize`): a process that only replays hands paid about 30 ms of
its start for that. A subclass here lists its fields in `__slots__`, annotates them and
writes its `__init__` (setting each field with `object.__setattr__`); the rest is shared
and behaves as the dataclass did:

- equality and hashing by class and field values (`==` between two classes is False);
- `repr` as `Name(field=value, ...)`;
- assignment and deletion raise `dataclasses.FrozenInstanceError`;
- `copy`, `deepcopy` and `pickle` (the same state as a frozen slots dataclass pickles);
- `__match_args__` in field order;
- `dataclasses.fields`, `replace`, `asdict` and `is_dataclass`: `__dataclass_fields__` is
  built (importing `dataclasses`) the first time something asks for it.

>>> class Point(Frozen):
...     __slots__ = ("x", "y")
...     x: int
...     y: int
...
...     def __init__(self, x: int, y: int = 0) -> None:
...         _set(self, "x", x)
...         _set(self, "y", y)
>>> Point(1, 2), Point(1, 2) == Point(1, 2), Point(1) == Point(1, 1)
(Point(x=1, y=2), True, False)
>>> import dataclasses
>>> dataclasses.replace(Point(1, 2), y=5), [f.name for f in dataclasses.fields(Point)]
(Point(x=1, y=5), ['x', 'y'])
>>> Point(1, 2).x = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False
"""`typing.TYPE_CHECKING` (mypy takes any `TYPE_CHECKING` for true), for the engine's modules
to import their typing-only names without importing `typing` at run time (3 ms)."""
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import Field
    from typing import Any, ClassVar, TypeVar

    F = TypeVar("F", bound="Frozen")

_set = object.__setattr__
"""How a subclass's `__init__` sets a field (plain assignment raises)."""


class _LazyDataclassFields:
    """`__dataclass_fields__`, built on first access: what `dataclasses.fields`,
    `replace`, `asdict` and `is_dataclass` read, without importing `dataclasses` (and
    `inspect`) at the engine's import."""

    def __get__(self, instance: object, owner: type[Frozen]) -> dict[str, Field[Any]]:
        built = owner.__dict__.get("_dataclass_fields")
        if built is None:
            built = _dataclass_fields(owner)
            type.__setattr__(owner, "_dataclass_fields", built)
        return built


def _dataclass_fields(cls: type[Frozen]) -> dict[str, Field[Any]]:
    import dataclasses  # noqa: PLC0415 - only for callers of dataclasses' functions

    init = cls.__init__
    names = init.__code__.co_varnames[1 : 1 + len(cls.__slots__)]
    assert names == cls.__slots__, f"{cls.__name__}.__init__ takes its fields in order"
    defaults = init.__defaults__ or ()
    first_default = len(names) - len(defaults)
    annotations = {}
    for klass in reversed(cls.__mro__):
        annotations.update(klass.__dict__.get("__annotations__", {}))
    spec = [
        (
            name,
            annotations.get(name, "Any"),
            dataclasses.field(default=defaults[k - first_default])
            if k >= first_default
            else dataclasses.field(),
        )
        for k, name in enumerate(names)
    ]
    # A dataclass of the same fields, made only to take its Field objects.
    shadow = dataclasses.make_dataclass(cls.__name__, spec, frozen=True)
    fields: dict[str, Field[Any]] = getattr(shadow, "__dataclass_fields__")  # noqa: B009
    return fields


class Frozen:
    """An immutable value: see the module's docstring."""

    __slots__: tuple[str, ...] = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _values: ClassVar[attrgetter[Any]]
    """The fields' values, in a form only compared and hashed (`attrgetter`)."""

    if TYPE_CHECKING:
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    else:
        __dataclass_fields__ = _LazyDataclassFields()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__dict__["__slots__"]
        assert isinstance(names, tuple) and names, f"{cls.__name__}.__slots__ names its fields"
        setattr(cls, "__match_args__", names)  # noqa: B010 - a ClassVar mypy thinks final
        cls._values = attrgetter(*names)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            values = self._values
            same: bool = values(self) == values(other)
            return same
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({fields})"

    if not TYPE_CHECKING:  # mypy would then let any attribute be assigned

        def __setattr__(self, name: str, value: object) -> None:
            from dataclasses import FrozenInstanceError  # noqa: PLC0415 - an error's path

            raise FrozenInstanceError(f"cannot assign to field {name!r}")

        def __delattr__(self, name: str) -> None:
            from dataclasses import FrozenInstanceError  # noqa: PLC0415 - an error's path

            raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[Any]:
        return [getattr(self, name) for name in self.__slots__]

    def __setstate__(self, state: list[Any]) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            _set(self, name, value)


def maker(cls: type[F]) -> Callable[..., F]:
    """A function making an instance of `cls` from every field's value, in field order:
    what `cls(*values)` makes, in two thirds of the time (no call through the class and its
    `__init__`, each slot set by its own descriptor). For the engine's hot paths, which
    make a record per move; `cls(...)` stays the public way.

    >>> class Pair(Frozen):
    ...     __slots__ = ("a", "b")
    ...     def __init__(self, a: int, b: int = 0) -> None:
    ...         _set(self, "a", a)
    ...         _set(self, "b", b)
    >>> maker(Pair)(1, 2) == Pair(1, 2)
    True
    """
    new = object.__new__
    setters = [cls.__dict__[name].__set__ for name in cls.__slots__]
    if len(setters) == 1:
        (set_a,) = setters

        def make1(a: Any) -> F:
            made = new(cls)
            set_a(made, a)
            return made

        return make1
    if len(setters) == 2:
        set_a, set_b = setters

        def make2(a: Any, b: Any) -> F:
            made = new(cls)
            set_a(made, a)
            set_b(made, b)
            return made

        return make2
    if len(setters) == 3:
        set_a, set_b, set_c = setters

        def make3(a: Any, b: Any, c: Any) -> F:
            made = new(cls)
            set_a(made, a)
            set_b(made, b)
            set_c(made, c)
            return made

        return make3

    def make(*values: Any) -> F:
        made = new(cls)
        for set_value, value in zip(setters, values, strict=True):
            set_value(made, value)
        return made

    return make


class _NamedTupleMeta(type):
    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]
    ) -> _NamedTupleMeta:
        if not bases:  # NamedTuple itself
            return super().__new__(mcs, name, bases, namespace)
        assert "__classcell__" not in namespace, "NamedTuple's methods cannot use super()"
        from collections import namedtuple  # noqa: PLC0415 - collections is loaded by now

        fields = namespace.get("__annotations__", {})
        defaults = [namespace[field] for field in fields if field in namespace]
        module = namespace["__module__"]
        cls = namedtuple(name, fields, defaults=defaults, module=module)  # type: ignore[misc]
        for key, value in namespace.items():
            if key not in fields and key not in ("__annotations__", "__module__", "__qualname__"):
                setattr(cls, key, value)
        cls.__qualname__ = namespace["__qualname__"]
        cls.__annotations__ = dict(fields)
        return cls  # type: ignore[return-value]


class NamedTuple(metaclass=_NamedTupleMeta):
    """`typing.NamedTuple` at run time without importing `typing` (3 ms): a class body of
    annotated fields (with defaults) and methods becomes the `collections.namedtuple` of
    those fields with the methods, as `typing.NamedTuple` makes it. Modules import it in
    place of `typing.NamedTuple` outside `TYPE_CHECKING`, where mypy sees the real one."""
