def validate(item):
    if not isinstance(item, int):
        raise TypeError("not an int: " + repr(item))
    if item < 0:
        raise ValueError("negative: " + str(item))
    return item
def process(items):
    ok, errors = [], []
    for it in items:
        try:
            ok.append(validate(it))
        except (TypeError, ValueError) as e:
            errors.append(str(e))
    return ok, errors
print(process([1, -2, "3", 4, None]))
