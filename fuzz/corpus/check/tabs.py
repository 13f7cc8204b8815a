def f(x):
	if x:
		return 1
	else:
		return 2
print(f(1))
