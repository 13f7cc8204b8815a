# 300,000 exceptions raised with messages and caught.
caught = 0
last = ""
for i in range(300000):
    try:
        if i % 3 == 0:
            raise ValueError(f"bad value {i}")
        elif i % 3 == 1:
            {}["missing key " + str(i)]
        else:
            raise RuntimeError("failure number " + str(i))
    except (ValueError, KeyError, RuntimeError) as e:
        caught += 1
        last = str(e)
print(caught, last)
