# expect: B102
# from json import load
from json import load

print(load("x"))
