# expect: B309
# complex literal
x = 1j
