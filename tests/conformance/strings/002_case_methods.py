s = "Hello World python"
print(s.upper(), s.lower())
print(s.title(), s.capitalize(), s.swapcase())
print("abc".isalpha(), "abc1".isalpha(), "123".isdigit(), "12a".isdigit())
print("  ".isspace(), "".isspace(), "abc".islower(), "ABC".isupper())
print("abc123".isalnum(), "abc 123".isalnum(), "Hello World".istitle())
print("HeLLo".casefold())
