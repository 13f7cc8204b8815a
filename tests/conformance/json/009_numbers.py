import json
print(json.loads("12345678901234"), json.loads("1.0"), json.loads("1.5e300"), json.loads("-1e-7"))
print(json.loads("[1.0, 1, 100000000000000000000.0]"))
print(json.dumps([1.0, 100.0, 1e22, 123456789.125, -5]))
print(isinstance(json.loads("1"), int), isinstance(json.loads("1.0"), float))
print(json.loads("NaN"), json.loads("Infinity"), json.loads("-Infinity"))
