"""Rule packs: folders of rule files that third-party distributions register.

A rule pack is an installed distribution that names a folder of rule files (``*.swr``, searched
recursively) in the ``smallworld_rules.packs`` entry-point group. In the pack's
``pyproject.toml``::

    [project.entry-points."smallworld_rules.packs"]
    goblins = "goblin_pack:RULES"

The entry point's *name* (``goblins``) is the pack's name: ``load_rules(packs=["goblins"])``
loads every rule file of the pack next to the official ones. Its *value* is
``module:attribute`` (or just ``module``) and must lead to the folder, in one of three ways:

- an attribute holding the folder's path, as a ``str`` or an ``os.PathLike`` such as a
  :class:`pathlib.Path` (the recommended convention, used by ``examples/pack-template``)::

      # goblin_pack/__init__.py
      from pathlib import Path
      RULES = Path(__file__).parent / "rules"

- an attribute that is a callable taking no arguments and returning such a path
  (``goblins = "goblin_pack:rules_folder"``), for packs that compute it;
- a package (``goblins = "goblin_pack.rules"``): the package's own folder.

The folder must be on disk (a pack installed as a zip archive is refused with a clear error).
Its files follow the same rules as any others: the id is the file stem, and an id already
loaded (official, or from an earlier pack) is refused unless ``override=True``; two packs
declaring one id are reported with both distribution names.

Discovery is lazy. :func:`available_packs` reads the installed distributions' metadata and
imports nothing; a pack's module is imported only when :func:`~smallworld_rules.load_rules`
is asked for that pack. Importing it runs the pack's Python code, as installing any Python
package already trusts it to; the rule files themselves are data and run nothing.

>>> all(pack.name for pack in available_packs())
True
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import attrs

from smallworld_rules.dsl.parser import suggest
from smallworld_rules.errors import RulesError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["ENTRY_POINT_GROUP", "Pack", "available_packs", "find_pack"]

#: The entry-point group in which rule packs register their folders.
ENTRY_POINT_GROUP = "smallworld_rules.packs"


@attrs.frozen
class Pack:
    """An installed rule pack (one entry point of the ``smallworld_rules.packs`` group).

    Attributes:
        name: the entry point's name, as given to ``load_rules(packs=[...])``.
        distribution: the name of the distribution that registers it (``"unknown"`` if the
            metadata does not say).
        version: that distribution's version (``""`` if unknown).
        value: the entry point's value, e.g. ``"goblin_pack:RULES"``.
        entry_point: the entry point itself.
    """

    name: str
    distribution: str
    version: str
    value: str
    entry_point: EntryPoint = attrs.field(eq=False, repr=False)

    def describe(self) -> str:
        """Say which pack this is, for messages.

        Returns:
            e.g. ``pack 'goblins' from the distribution 'goblin-pack' 1.0``.
        """
        version = f" {self.version}" if self.version else ""
        return f"pack {self.name!r} from the distribution {self.distribution!r}{version}"

    def folder(self) -> Path:
        """Import the pack's module and return its folder of rule files.

        Returns:
            The folder, as an existing directory.

        Raises:
            RulesError: the module cannot be imported, the value leads to no path, or the path
                is not a folder on disk.
        """
        try:
            target = self.entry_point.load()
        except Exception as exc:  # the pack's own code failed: say which pack
            raise RulesError(
                f"cannot load the {self.describe()} ({self.value}): {type(exc).__name__}: {exc}"
            ) from exc
        if callable(target) and not isinstance(target, type):
            try:
                target = target()
            except Exception as exc:
                raise RulesError(
                    f"the {self.describe()}: calling {self.value} failed: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
        path = _as_path(target)
        if path is None:
            raise RulesError(
                f"the {self.describe()} names {self.value}, which is {type(target).__name__}, "
                "not a folder: it must be a path (str or os.PathLike), a callable returning one, "
                "or a package"
            )
        if not path.is_dir():
            raise RulesError(
                f"the {self.describe()} names the folder {str(path)!r}, which does not exist "
                "on disk (is the pack installed as a zip archive?)"
            )
        return path


def _as_path(target: object) -> Path | None:
    """The folder an entry point's object stands for, if it stands for one."""
    if isinstance(target, ModuleType):
        locations = list(getattr(target, "__path__", ()))  # a package's folder(s)
        return Path(locations[0]) if locations else None
    if isinstance(target, str | os.PathLike):
        return Path(target)
    return None


def _pack(entry_point: EntryPoint) -> Pack:
    dist = getattr(entry_point, "dist", None)
    name = dist.metadata["Name"] if dist is not None else None
    return Pack(
        name=entry_point.name,
        distribution=name or "unknown",
        version=(dist.version or "") if dist is not None else "",
        value=entry_point.value,
        entry_point=entry_point,
    )


def available_packs() -> tuple[Pack, ...]:
    """The rule packs installed in this environment, found without importing any of them.

    >>> isinstance(available_packs(), tuple)
    True

    Returns:
        One :class:`Pack` per entry point of the ``smallworld_rules.packs`` group, sorted by
        name then distribution (a name two distributions register appears twice).
    """
    from importlib.metadata import entry_points  # looked up when asked, not at import

    packs = {(p.name, p.distribution): p for p in map(_pack, entry_points(group=ENTRY_POINT_GROUP))}
    return tuple(packs[key] for key in sorted(packs))


def find_pack(name: str) -> Pack:
    """The installed rule pack called ``name``.

    Args:
        name: the pack's entry-point name.

    Returns:
        The pack.

    Raises:
        RulesError: no pack has that name (the message lists the installed ones and suggests
            the closest), or two distributions register it.
    """
    packs = available_packs()
    found = [p for p in packs if p.name == name]
    if len(found) == 1:
        return found[0]
    if found:
        listed = " and ".join(
            f"{p.distribution!r}" + (f" {p.version}" if p.version else "") for p in found
        )
        raise RulesError(
            f"the rule pack {name!r} is registered by {len(found)} distributions: {listed}; "
            "uninstall one of them"
        )
    names = sorted({p.name for p in packs})
    guess = suggest(name, names)
    hint = f"did you mean {guess!r}?" if guess else f"installed packs: {', '.join(names) or 'none'}"
    raise RulesError(
        f"no rule pack {name!r} is installed (none registers it in the {ENTRY_POINT_GROUP!r} "
        f"entry-point group); {hint}"
    )
