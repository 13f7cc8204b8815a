# CPython's wording and order of argument errors: the comma before 'and' in a list of three
# missing names, keyword-only arguments counted in 'were given', an unexpected keyword before
# the count, int()'s base before its value, ',' after ',' in a format spec, a class's missing
# attribute.
def f(a, b, c):
    return a

def g(a, *, k):
    return a

def h(a, b=1):
    return a

cases = [
    lambda: f(),
    lambda: f(1),
    lambda: g(1, 2, k=3),
    lambda: h(1, 2, 3, z=4),
    lambda: "a\tb".expandtabs(4, 5),
    lambda: "a\nb".splitlines(True, False),
    lambda: int(5, 1),
    lambda: int("5", 1),
    lambda: "{:,,}".format(5),
    lambda: "{:_,}".format(5),
    lambda: dict.nothing,
    lambda: str.nothing,
]
for case in cases:
    try:
        print(case())
    except TypeError as e:
        print("TypeError:", e)
    except ValueError as e:
        print("ValueError:", e)
    except AttributeError as e:
        print("AttributeError:", e)
for spec in [',,', '__', ',_', '_,', ',,d', '_,d', ',d', '_x', ',.2f', '10,']:
    try:
        print(spec, ("{:" + spec + "}").format(1234567))
    except ValueError as e:
        print(spec, "ValueError:", e)
