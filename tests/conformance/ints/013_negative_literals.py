# A negative literal is one constant (compiler/src/codegen/fast.rs, negated_literal): the
# smallest 64-bit int can be written although its digits alone are beyond 64 bits; -1 as an
# index, an operand and a comparand; -True is the int -1; a negated float keeps its sign.
xs = [1, 2, 3]
print(-1, -2.5, -0.0, -9223372036854775808, xs[-1], 5 - -1, -(1), --1, -True, -False, - 4611686018427387904, -4611686018427387905)
print(isinstance(-9223372036854775808, int), -9223372036854775807 - 1 == -9223372036854775808, 3 * -2, -1 ** 2, (-1) ** 2, -0, 1e308 * -10)
x = 7
print(x == -1, x > -8, x // -2, x % -3, -x, x - -2147483648)
