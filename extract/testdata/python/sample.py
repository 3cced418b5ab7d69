"""Sample module exercising every Python construct the extractor knows."""

import os
import os.path as osp
from typing import List, Optional as Opt
from . import sibling
from .models import *

# MAX_SIZE is the largest size.
MAX_SIZE: int = 10
_cache = {}
größe = 3
Alias = List[str]
type Vector = list[float]


def helper(x: int, y: "str" = "a") -> Opt[int]:
    """Return x plus one."""
    total = x + 1
    print(total)
    return os.path.join(x, y)


def _private_helper(*args, **kwargs):
    # not a docstring
    return helper(args)


async def fetch(url: str) -> bytes:
    '''Fetch a URL.'''
    data = await client.get(url)
    return data


class Base:
    """A base class."""


class Shape(Base, metaclass=abc.ABCMeta):
    """A shape.

    It has an area.
    """

    sides: int = 0
    DEFAULT_NAME = "shape"
    _registry: "dict[str, Shape]" = {}

    def __init__(self, name: str) -> None:
        """Make a shape."""
        self.name = name
        self._area: float = 0.0
        super().__init__()

    def __del__(self):
        pass

    def __add__(self, other: "Shape") -> "Shape":
        return Shape(self.name + other.name)

    @property
    def area(self) -> float:
        """The area."""
        return self._area

    @area.setter
    def area(self, value: float) -> None:
        self._area = value

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def create(kind: str) -> "Shape":
        return Shape(kind)

    @classmethod
    def _from_dict(cls, d: dict) -> "Shape":
        return cls(d["name"])

    def __private(self):
        return 1

    class Meta:
        """Nested options."""
        ordering = ["name"]


class Color(enum.Enum):
    """Colors."""
    RED = 1
    GREEN = 2


class Drawable(Protocol):
    """Something drawable."""

    def draw(self, canvas: "Canvas") -> None: ...


@dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0


def outer():
    local_var = 1

    def inner():
        return local_var

    return inner()


if __name__ == "__main__":
    import sys
    helper(int(sys.argv[1]))
