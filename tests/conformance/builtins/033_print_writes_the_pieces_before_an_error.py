# print writes each piece as it goes: when str() of a later argument raises, or a piece cannot
# be encoded (a lone surrogate in an argument, in sep or in end), what came before it has been
# written. One argument and several, caught each time; and many pieces at once.
deep = []
for _ in range(5000):
    deep = [deep]

try:
    print("before", deep, "after")
except RecursionError:
    print("| str() raised")

try:
    print(deep)
except RecursionError:
    print("| str() of the one argument raised")

try:
    print("a", "b\ud800c", "d")
except UnicodeEncodeError as e:
    print("| encode:", e.start, e.end)

try:
    print(1, 2, 3, sep="\ud800")
except UnicodeEncodeError:
    print("| sep")

try:
    print(1, 2, end="\udfff")
except UnicodeEncodeError:
    print("| end")

try:
    print("\ud800")
except UnicodeEncodeError:
    print("| the one argument")

print("x", 1, [2, (3, None)], {"k": 4.5}, sep=", ", end=".\n")
print(*([""] * 50000), sep="", end="| fifty thousand pieces\n")
print(*range(3000), sep="")
print()
print(end="")
print("done")
