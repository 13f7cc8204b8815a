# repr/str of every value type: str quote choice and escapes, float shortest round-trip layout, containers, exceptions.
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print("ERR", repr(e), str(e))
t(lambda: int("x"))
t(lambda: {}["a"])
print(repr("a'b"), repr('a"b'), repr("a'b\"c"), repr("\x00\x01\x1f\x7f\x80\x9f\xa0\xad"))
print(repr("é€😀"), repr("\u2028\u200b\ufeff\U000e0001"), repr("\ud800" if False else "x"))
print(repr("\\"), repr("\t\n\r"), repr("\x0b\x0c"))
print([1.0, 2.5, "x", None, True, (1,), (), {1: 'a'}, set(), {1,2}, [[]]])
print(str([1.0, "x"]), str((1, "a")), str({"k": "v"}))
for x in [1e16, 1e15, 123456789012345678.0, 1e-5, 0.0001, 0.1, 2.0, float("inf"), float("-inf"), float("nan"), -0.0, 1e22, 1.5e300, 5e-324, 2.5e-5, 1/3, 100.0, 1e100, 123.456, 0.30000000000000004, 9007199254740993.0]:
    print(repr(x), str(x), x)
print(repr(1e16), 1e16)
print(repr(None), repr(True), repr(False), str(None))
print(repr(range(5)), repr(range(1, 5)), repr(range(1, 5, 2)))
print(repr(len), repr(print))
d = {"a": [1, {"b": (2,)}]}
print(d, repr(d))
print({1: 2}.keys(), {1: 2}.values(), {1: 2}.items())
print((1,), (1, 2), ((),))
print(repr(ValueError("x")), repr(ValueError()), repr(ValueError("a", 1)), str(ValueError("a", 1)), str(KeyError("a")), str(KeyError()))
print(str(1.0), str(-1.5), str(1e-7), 1e-7, 0.00001234)
print(-1e16, 1.7976931348623157e308, 2.2250738585072014e-308)
print(float(10**15), float(10**16), 1e16 + 1)
