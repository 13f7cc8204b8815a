# Fuzz findings (seed 163): argument conversion before the string check, None named as None
# in clinic type errors, UnicodeEncodeError's arguments.
import re
import json
p = re.compile("a")
for args in [("a", "x"), (5, "x"), (5, 0, None), ("a", None), (None,), ("a", 0, 1.5)]:
    try:
        print(p.match(*args))
    except TypeError as e:
        print(e)
for f in [lambda: str("o", None), lambda: str("o", "utf-8", None), lambda: "a".replace(None, "b"),
          lambda: json.dumps(1, separators=(None, ":")), lambda: json.dumps(1, separators=(",", None))]:
    try:
        print(f())
    except TypeError as e:
        print(e)
try:
    print(json.loads('"x\\ud800"'))
except UnicodeEncodeError as e:
    print(repr(e))
    print(e)
    print(e.args, e.start, e.end, e.reason, e.encoding)
