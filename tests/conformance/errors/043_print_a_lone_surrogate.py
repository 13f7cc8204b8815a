# Printing a str that holds a lone surrogate: uncaught, the report quotes the character escaped.
message = "bad: " + chr(0xDC00)
print("before")
print(message)
