x = 10
y = 2.5
name = "q"
print(f"{x=}")
print(f"{x + 1=}")
print(f"{y=:.2f}")
print(f"{name=}")
print(f"{x = }")
