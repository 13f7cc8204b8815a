# expect: B205
# fullwidth low lines (U+FF3F) inside an attribute NFKC-normalise to __class__
print((1)._＿class＿＿)
