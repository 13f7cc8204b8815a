# expect: B309
# bytes literal
x = b"\x00"
