vals = ["1.5", "2", "three"]
for v in vals:
    print(float(v))
