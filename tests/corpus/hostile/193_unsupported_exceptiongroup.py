# expect: B203
# ExceptionGroup is outside the supported set
raise ExceptionGroup("x", [ValueError()])
