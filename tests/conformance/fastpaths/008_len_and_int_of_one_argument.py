# len(x) and int(x) with one positional argument call runtime/wat/fast.wat's helpers with the
# value itself; every type and every error must be what the generic builtins give.
for v in ["", "é", "abc", [], [1, 2], (), (1,), {}, {1: 2}, set(), {3}, range(5), range(2, 9, 3), {1: 2}.keys(),
          {1: 2}.values(), {1: 2}.items()]:
    print(len(v), end=" ")
print()
for v in [0, -5, 4611686018427387904, -4611686018427387905, True, False, 3.9, -3.9, 1e18, "42", " -17 ", "+8",
          "1_000", "٣", "0"]:
    print(int(v), end=" ")
print()
for bad in [lambda: len(5), lambda: len(None), lambda: len(x for x in [1]), lambda: int("4.5"), lambda: int(""),
            lambda: int("0x10"), lambda: int("1__0"), lambda: int(None), lambda: int([1]), lambda: int(float("inf")),
            lambda: int(float("nan")), lambda: int("x" * 300)]:
    try:
        print(bad())
    except TypeError as e:
        print("TypeError", e)
    except ValueError as e:
        print("ValueError", e)
    except OverflowError as e:
        print("OverflowError", e)
print(int("0x10", 16), int("0x10", 0), int("z", 36), len("abc") + int("1"))
