def f(n):
    try:
        try:
            if n == 0:
                raise KeyError("inner")
            if n == 1:
                raise ValueError("middle")
            return "ok"
        except KeyError as e:
            return "inner handler " + str(e)
        finally:
            print("inner finally", n)
    except ValueError as e:
        return "outer handler " + str(e)
    finally:
        print("outer finally", n)
for n in range(3):
    print(f(n))
