def f():
return 1
  x = 2
	y = 3
