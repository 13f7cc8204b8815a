# A comprehension's first iterable is evaluated, and its iterator made, in the enclosing frame:
# "not iterable" has no comprehension frame in its traceback.
def f(n):
    return [x * 2 for x in n]
print(f([1, 2]))
print(f(5))
