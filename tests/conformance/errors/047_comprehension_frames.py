# Every comprehension has its own frame in CPython 3.11's tracebacks (`<listcomp>`, `<setcomp>`,
# `<dictcomp>`, `<genexpr>`), one deeper than the function's, also where Baton runs it inline
# and where a handler caught an exception that left one before.
def g(values):
    return sum(10 // x for x in values)
def f(table):
    try:
        print([1 // n for n in table["a"]])
    except ZeroDivisionError as e:
        print("caught", e)
    print(sorted({n for n in table["a"]}), {k: len(v) for k, v in table.items()})
    return {k: g(v) for k, v in table.items()}
print(f({"a": [1, 0], "b": [5, 2], "c": [3, 0]}))
