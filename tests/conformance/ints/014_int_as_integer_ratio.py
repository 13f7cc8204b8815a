# int.as_integer_ratio() is (the int, 1); a bool's is two ints (found by the mutation fuzzer,
# seed 73, where it was an AttributeError).
print((255).as_integer_ratio(), (9999999).as_integer_ratio(), (-3).as_integer_ratio())
print(True.as_integer_ratio(), False.as_integer_ratio(), (0).as_integer_ratio())
n, d = (2**62).as_integer_ratio()
print(n, d, n / d)
print((0.5).as_integer_ratio(), (7).as_integer_ratio() == (7.0).as_integer_ratio())
try:
    (1).as_integer_ratio(2)
except TypeError as e:
    print(e)
