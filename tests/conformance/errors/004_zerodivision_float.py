print("start")
x = 1.5 / 0.0
