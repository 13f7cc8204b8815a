vals = [1, 1.0, "s", True, None, [1], (1,), {"a": 1}, {1}]
for v in vals:
    print(repr(v), isinstance(v, int), isinstance(v, float), isinstance(v, str),
          isinstance(v, (list, tuple)), isinstance(v, (dict, set)), isinstance(v, bool))
print(isinstance(ValueError("x"), Exception), isinstance(1, (str, (float, int))))
