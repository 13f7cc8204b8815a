name =(f"{name!r:>{*idt03d}":
print(ame=2))
