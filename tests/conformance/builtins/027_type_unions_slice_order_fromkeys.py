# `X | Y` of types is a union (what annotations and aliases write; isinstance takes it);
# slices order as tuples; dict.fromkeys takes no keyword arguments.
import re
from typing import Optional
U = int | None
print(U, int | str | None, int | int, (int | str) | (str | float), repr(dict | list))
print(isinstance(3, int | str), isinstance(None, int | None), isinstance(2.5, int | str))
print(isinstance("a", (int | str, float)), re.Match | None)
print(slice(1, 2) <= slice(1, 2), slice(1, 2) < slice(1, 3), slice(0, 5, 2) > slice(0, 5, 1))
try:
    print(int | 3)
except TypeError as e:
    print(e)
try:
    print({}.fromkeys([1], iterable=2))
except TypeError as e:
    print(e)
def f(x: int | None = None) -> list[int] | None:
    return x
print(f(3))
print(None | int)
try:
    None | None
except TypeError as e:
    print(e)
