def make_adder(n):
    return lambda x: x + n
adders = [make_adder(i) for i in range(4)]
print([a(10) for a in adders])
def make_multiplier(n):
    def mul(x):
        return x * n
    return mul
double = make_multiplier(2)
triple = make_multiplier(3)
print(double(5), triple(5), double(triple(2)))
