# A str may hold a lone surrogate (chr, or a JSON escape). repr, json.dumps and len see it as one
# character; writing it to stdout raises UnicodeEncodeError (CPython's UTF-8 stdout, errors
# 'strict'), after the pieces of the print before it were written.
import json

s = chr(0xD800)
print(len(s), repr(s))
t = json.loads('"a\\udc80b"')
print(len(t), repr(t), json.dumps(t), json.dumps([t, s]))
print(repr(json.loads('"\\ud83d\\ude00"')), repr(chr(0xD83D) + chr(0xDE00)))
print(chr(0xD83D) + chr(0xDE00) == "\U0001F600")

for text in [s, "abc" + s, "é" * 3 + t, "ok"]:
    try:
        print("<", text, ">", sep="|")
    except UnicodeEncodeError as error:
        print()
        print("UnicodeEncodeError:", error)
        print(isinstance(error, UnicodeError), isinstance(error, ValueError))

try:
    print("x", end=chr(0xDFFF))
except ValueError as error:
    print()
    print(error)
