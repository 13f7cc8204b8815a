s = "the cat sat on the mat"
print(s.find("at"), s.rfind("at"), s.find("dog"), s.find("at", 6))
print(s.index("sat"), s.rindex("the"))
print(s.count("at"), s.count("the"), s.count(""))
print(s.replace("at", "og"), s.replace("the", "a", 1))
print(s.startswith("the"), s.endswith("mat"), s.startswith(("a", "t")))
print(s.startswith("cat", 4), "abc".endswith(("x", "bc")))
print("aaa".replace("a", "bb"), "abc".replace("", "-"))
