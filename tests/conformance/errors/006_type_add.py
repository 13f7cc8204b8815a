print("before")
v = 1 + "a"
