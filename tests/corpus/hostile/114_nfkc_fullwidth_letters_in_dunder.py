# expect: B205
# fullwidth letters inside a dunder attribute
print((1).__ｃｌａｓｓ__)
