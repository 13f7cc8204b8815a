checks = [
    (KeyError("a"), LookupError), (IndexError(), LookupError), (ZeroDivisionError(), ArithmeticError),
    (OverflowError(), ArithmeticError), (RecursionError(), RuntimeError), (NotImplementedError(), RuntimeError),
    (UnboundLocalError(), NameError), (ValueError(), Exception), (Exception(), BaseException),
    (KeyError(), IndexError), (TypeError(), ValueError), (TimeoutError(), Exception),
]
for e, cls in checks:
    print(repr(e), isinstance(e, cls))
print(isinstance(KeyError(), (ValueError, LookupError)))
