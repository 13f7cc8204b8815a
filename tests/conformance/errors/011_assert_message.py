def check(x):
    assert x < 10, f"value too large: {x}"
    return x
print(check(3))
check(42)
