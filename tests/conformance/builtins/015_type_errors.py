cases = [
    lambda: len(5),
    lambda: sum(["a", "b"]),
    lambda: sorted([1, "a"]),
    lambda: abs("x"),
    lambda: int(None),
    lambda: [1] + (2,),
    lambda: "a" + 1,
    lambda: {[1]: 2},
    lambda: max([]),
    lambda: chr(-1),
    lambda: ord("ab"),
]
for c in cases:
    try:
        c()
    except (TypeError, ValueError) as e:
        print(isinstance(e, TypeError), e)
