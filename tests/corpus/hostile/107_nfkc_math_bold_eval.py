# expect: B202
# mathematical bold letters NFKC-normalise to eval
𝐞𝐯𝐚𝐥("1")
