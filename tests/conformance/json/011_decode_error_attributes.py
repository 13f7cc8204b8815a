# JSONDecodeError has CPython's msg, doc, pos, lineno and colno beside its message; the
# UnicodeEncodeError of a lone surrogate has encoding, object, start, end and reason.
import json
for doc in ['{"bad": }', '[1, 2', '\n\n  {"a" 1}', '']:
    try:
        json.loads(doc)
    except json.JSONDecodeError as e:
        print(repr(e.msg), e.pos, e.lineno, e.colno, e.doc == doc, str(e), e.args)
try:
    print(chr(0xdc00) + "x")
except UnicodeEncodeError as e:
    print(e.encoding, repr(e.object), e.start, e.end, e.reason)
try:
    raise ValueError("x")
except ValueError as e:
    try:
        e.pos
    except AttributeError as a:
        print(a)
