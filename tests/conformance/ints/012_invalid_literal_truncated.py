# int()'s "invalid literal" message shows at most 200 characters of the string's repr, as
# CPython's %.200R does (found by baton-difftest, seed 1212 plan 1161); float() shows it whole.
g3 = "\n"
for c in "line1\nli":
    for d in "AbC":
        g3 += "tab\there"
for text in [g3, "x" * 199, "x" * 198, "é" * 250, "'" * 300]:
    try:
        int(text)
    except ValueError as e:
        print(len(str(e)), str(e)[-12:])
    try:
        int(text, 16)
    except ValueError as e:
        print(len(str(e)))
try:
    float("y" * 300)
except ValueError as e:
    print(len(str(e)))
