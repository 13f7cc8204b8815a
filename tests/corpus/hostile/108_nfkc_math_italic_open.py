# expect: B202
# mathematical italic letters NFKC-normalise to open
𝑜𝑝𝑒𝑛("/etc/passwd")
