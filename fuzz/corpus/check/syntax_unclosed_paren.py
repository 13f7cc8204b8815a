print((1, 2
x = 3
