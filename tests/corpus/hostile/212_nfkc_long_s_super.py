# expect: B202
# U+017F LATIN SMALL LETTER LONG S NFKC-normalises to s: ſuper -> super
print(ſuper())
