from baton import log
def f(x):
    return x * 2
log(f(3))
import os
