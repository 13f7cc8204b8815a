# find/rfind/count/startswith/endswith with an empty or reversed start:end window.
s = "hello"
for a in [(0, 0), (2, 1), (5, 5), (5, 3), (6, 7), (-1, -2), (3, 3)]:
    print(a, s.find("", *a), s.rfind("", *a), s.count("", *a), s.startswith("", *a), s.endswith("", *a), s.find("l", *a), s.count("l", *a), s.startswith(("x", ""), *a))
