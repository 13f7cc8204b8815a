def check(x):
    assert x > 0, "x must be positive, got " + str(x)
    return x
print(check(5))
try:
    check(-1)
except AssertionError as e:
    print("AssertionError:", e)
try:
    assert 1 == 2
except AssertionError as e:
    print("bare:", repr(e), repr(str(e)))
assert True, "never"
print("done")
