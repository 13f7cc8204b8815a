# A log built by appending to one str: 20,000 appends, 288 KB at the end.
log = ""
for i in range(20000):
    log += f"line {i}: ok\n"
print(len(log), log[-13:], end="")
