# A module global read before it is bound falls back to Python's builtins only: a name that is
# one of the runtime's own types (`cell`, `function`, `NoneType`, re's `error`) is a NameError,
# as in CPython, while a builtin's name is still the builtin (fuzz finding, seed 271:
# `cell["k"] = 50` before `cell = {...}` raised TypeError about the type object).
def read(name):
    try:
        if name == "cell":
            return cell
        if name == "function":
            return function
        if name == "generator":
            return generator
        if name == "NoneType":
            return NoneType
        if name == "dict_keys":
            return dict_keys
        if name == "error":
            return error
        if name == "len":
            return len
        if name == "int":
            return int
        return KeyError
    except NameError as e:
        return "NameError: " + str(e)


for name in ["cell", "function", "generator", "NoneType", "dict_keys", "error", "len", "int", "x"]:
    print(name, read(name))

cell = {"k": 1}
function = 1
generator = 2
NoneType = 3
dict_keys = 4
error = 5
len = 6
int = 7
print(read("cell"), read("function"), read("error"), read("len"), read("int"))
try:
    later["k"] = 50
except NameError as e:
    print("NameError:", e)
later = {}
cell["k"] = 50
print(cell)
