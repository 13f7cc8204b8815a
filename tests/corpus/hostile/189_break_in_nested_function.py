# expect: B005
# break inside a function nested in a loop is outside any loop
for x in [1]:
    def f():
        break
