# float ** small int is computed by squaring in double-double and rounded once
# (runtime/wat/num.wat, $pow_dd_int): the differential tester's mismatch seed 3040 plan 174,
# (12 // 1e-07) ** 3, was an ulp off through exp(y log x).
print((12 // 1e-07) ** 3, 120000000.0 ** 3, 1.1 ** 3, 1.1 ** 30, 0.1 ** 5, 3.7 ** -4, 2.0 ** 1023, 2.0 ** -1074, 10.0 ** 308, 10.0 ** -300, 1.0000001 ** 1000)
print(9.99 ** 300, 0.5 ** 1000, 1.5 ** 1024 if False else 1.5 ** 100, 7.0 ** 0.5, 2.0 ** 0.5, 1e10 ** 30, 123.456 ** 7, 0.987 ** -77)
try:
    print(10.0 ** 309)
except OverflowError as e:
    print("OverflowError", e)
xs = [1.0 + i / 7 for i in range(40)]
print(sum(x ** 5 for x in xs), [repr(x ** 3) for x in xs[:8]], [(-x) ** 3 for x in xs[:3]])
