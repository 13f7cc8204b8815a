# expect: B202
# fullwidth letters NFKC-normalise to eval
ｅｖａｌ("1 + 1")
