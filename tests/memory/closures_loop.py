# 500,000 closures made and dropped.
def make(n):
    data = [n, n + 1]
    def get():
        return data[0] + data[1]
    return get
total = 0
for i in range(500000):
    f = make(i)
    total += f()
print(total)
