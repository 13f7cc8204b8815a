# expect: B202
# globals taken inside a comprehension
fs = [g for g in (globals, len)]
print(fs[0]())
