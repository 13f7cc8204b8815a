# expect: B204
# fullwidth low lines inside a name NFKC-normalise to __import__
_＿import＿_("os")
