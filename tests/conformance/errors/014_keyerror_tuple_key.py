grid = {(0, 0): "origin"}
print(grid[(0, 0)])
print(grid[(1, 2)])
