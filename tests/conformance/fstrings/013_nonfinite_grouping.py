# nan and inf have no digits to group: grouping options add no separator and no leading 0,
# zero padding still applies (found by baton-difftest).
nan = float("nan")
inf = float("inf")
for spec in ["_.1f", ",.2f", ",", "_g", "010,.1f", "+,", "08,.2f", "=+12_", ">8,", "^9_e"]:
    print(f"{spec!r:10} <{nan:{spec}}> <{inf:{spec}}> <{-inf:{spec}}>")
print("<{n:_.1f}> {}".format("2E-3", n=sum([1e-07, nan, -3.25])))
print(f"{(0.30000000000000004 * -inf) / 10:,.2f}")
print(f"{1234.5:,.1f} {1e20:,.0f} {0.5:,.3f} {-0.0:_.1f}")
