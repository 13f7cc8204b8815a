# A module's name is bound by its import when the import runs: using it before is a NameError
# (found by the mutation fuzzer: a line spliced above `import json`).
try:
    print(json.dumps([1]))
except NameError as e:
    print("NameError", e)
import json
print(json.dumps([2]))
def f():
    return json.loads("[3]")
print(f())
x = json.loads
print(x("4"))
