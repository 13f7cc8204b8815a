# `%` formats x * 100 computed as a float: it overflows to inf for the largest floats, and
# rounds like the product (found by baton-difftest).
big = 1.7976931348623157e+308
print(f"{big:%}", f"{big:.0%}", f"{-big:.2%}", f"{big / 100:.0%}"[:12])
print("{:.0f} and {:.0%}".format(0.5, big))
for x in [0.1, 0.125, 1 / 3, 2.675, 1e-7, 123456.789, 5e-324]:
    print(f"{x:%} {x:.0%} {x:.3%} {x:.20%}")
