def forever(n):
    return forever(n + 1)
try:
    forever(0)
except RecursionError as e:
    print("RecursionError")
    print(str(e))
print("recovered")
def again(n):
    return again(n + 1) + 1
try:
    again(0)
except RuntimeError as e:
    print("caught as RuntimeError:", isinstance(e, RecursionError))
