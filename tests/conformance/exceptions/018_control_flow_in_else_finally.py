def pick(xs):
    for x in xs:
        try:
            if x < 0:
                raise ValueError(x)
        except ValueError:
            continue
        else:
            if x > 10:
                return "big " + str(x)
        finally:
            print("checked", x)
    return "none big"
print(pick([-1, 5, 20, 30]))
print(pick([1, -2]))
def loop_else():
    total = 0
    while total < 3:
        try:
            total += 1
        finally:
            if total == 2:
                break
    else:
        return "no break"
    return "broke at " + str(total)
print(loop_else())
