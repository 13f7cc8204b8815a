# expect: B202
# U+212F script small e plus ascii 'val' NFKC-normalises to eval
ℯval("1")
