# A float ** overflow is OverflowError(34, 'Numerical result out of range'), as errno ERANGE; the uncaught form ends the program.
for f in [lambda: 2.0 ** 10000, lambda: 10.0 ** 400, lambda: (-10.0) ** 401, lambda: 1.5 ** 5000]:
    try:
        print(f())
    except OverflowError as e:
        print(repr(e), str(e), e.args)
print(2.0 ** -10000, 0.5 ** 5000)
x = 10.0 ** 400
