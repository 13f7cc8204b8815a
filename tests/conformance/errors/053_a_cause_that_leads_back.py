# `saved`'s cause is `b`, whose cause is `saved`: each traceback is printed once, the cause first;
# the last one holds both raises of `saved`.
try:
    try:
        raise KeyError('a')
    except KeyError as a:
        saved = a
        raise ValueError('b') from a
except ValueError as b:
    raise saved from b
