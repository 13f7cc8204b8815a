# expect: B005
# continue outside a loop
def f():
    continue
