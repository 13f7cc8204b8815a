# Fullwidth letters are the same identifier to CPython (NFKC).
score = ｅｖａｌ("1 + 1")
label = "é" + "{0.__class__}".format(score)
