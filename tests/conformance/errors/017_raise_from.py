def load(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("could not load " + s) from e
print(load("7"))
load("seven")
