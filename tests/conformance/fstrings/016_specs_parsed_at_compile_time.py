# Constant format specs are parsed once by the compiler (compiler/src/codegen/fstring_spec.rs);
# these cover the forms it packs, next to the same specs given at run time (a nested field),
# which the runtime parses: both must print what CPython prints.
values = [0, 7, -42, 123456, -9999999, 3.14159, -0.5, 2.5, 0.0, -0.0, True, 255]
for v in values:
    print(f"[{v:>8}] [{v:<6}] [{v:^7}] [{v:=+9}] [{v:08}] [{v:*^11}] [{v:0>5}] [{v:<<4}]")
    print(f"[{v: }] [{v:+}] [{v:-}] [{v:0}] [{v:00}] [{v:010}] [{v:x<010}] [{v:3}]")
    for spec in [">8", "<6", "^7", "=+9", "08", "*^11", "0>5", "<<4", " ", "+", "0", "010", "x<010"]:
        print(f"{v:{spec}}|", end="")
    print()
ints = [0, 5, -5, 255, -255, 65535, 12345678]
for n in ints:
    print(f"{n:d} {n:5d} {n:<5d} {n:^+7d} {n:x} {n:X} {n:o} {n:b} {n:08x} {n:=8X} {n:>10b}")
floats = [0.0, 1.5, -1.5, 2.675, 1e-7, 123456.789, -0.0005, 99.995]
for x in floats:
    print(f"{x:.0f} {x:.1f} {x:.2f} {x:.3f} {x:8.2f} {x:<8.1f} {x:^9.3f} {x:+.2f} {x:08.2f} {x: .1F}")
    print(f"{x:.2e} {x:g} {x:.3g} {x:%} {x:.1%} {x:10.4}")
# Specs the compiler leaves to the runtime: grouping, z, #, non-ASCII fill, errors.
print(f"{1234567:,} {1234567:_} {255:#x} {255:#o} {-0.0:z.1f} {42:é>6} {42:€^7}")
for bad in ["{:.}", "{:5dd}", "{:,.2x}", "{:z}"]:
    try:
        print(bad.format(12))
    except ValueError as e:
        print("ValueError:", e)
