"""What the package takes as paths: one rule for :func:`sketchprep.read` and every command
wrapper that takes inputs, so each accepts a single path or many, in any of Python's path types."""
from __future__ import annotations

import os
from typing import Iterable, List, Union

#: One path: ``str``, ``bytes`` or an ``os.PathLike`` (e.g. ``pathlib.Path``).
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: One path or an iterable of paths.
PathsLike = Union[PathLike, Iterable[PathLike]]

_PATH_TYPES = (str, bytes, os.PathLike)


def path_list(value: PathsLike) -> List[str]:
    """The paths ``value`` names, as ``str``: a single path (a ``str`` is one path, never its
    characters; ``bytes`` is one path, never its byte values) gives a list of one, an iterable its
    paths in order. ``bytes`` and ``os.PathLike`` values are decoded with ``os.fsdecode`` (the file
    system's encoding). Anything else raises ``TypeError``; an empty iterable gives ``[]``."""
    if isinstance(value, _PATH_TYPES):
        return [os.fsdecode(value)]
    try:
        items = iter(value)
    except TypeError:
        raise TypeError(f"expected a path (str, bytes, os.PathLike) or an iterable of paths, "
                        f"not {type(value).__name__}") from None
    paths = []
    for item in items:
        if not isinstance(item, _PATH_TYPES):
            raise TypeError(f"expected a path (str, bytes, os.PathLike), not {type(item).__name__}")
        paths.append(os.fsdecode(item))
    return paths
