# range.index names the range in its ValueError, as CPython words it; equal values of other
# types are found as in the list of the range's values. Found by the mutation fuzzer (seed 61).
for r, x in [(range(3), 6), (range(0, 10, 3), 4), (range(5), "a"), (range(3), 2.0), (range(3), True)]:
    try:
        print(r.index(x))
    except ValueError as e:
        print("ValueError:", e)
print(range(10).count(3), range(3).count(5))

# math.dist takes exactly two positional arguments, counted as CPython counts them; str()
# reports an unknown keyword before it converts any argument (both found by the same run).
import math

for f in [
    lambda: math.dist([1]),
    lambda: math.dist([1], [2], [3]),
    lambda: math.dist(p=[1], q=[2]),
    lambda: math.dist([0, 0], [3, 4]),
    lambda: str([1], 5, start=2),
    lambda: str(object=1, encoding=2, x=3),
]:
    try:
        print(f())
    except TypeError as e:
        print("TypeError:", e)
