# expect: B401
# auto-numbered field with attribute: '{.real}'
print("{.__class__.__init__.__globals__}".format(print))
