# The argument errors of the functions CPython writes in C, worded as its C argument parsers word them.
import re
p = re.compile('a')
m = p.match('a')
calls = [((), {}), (('a',), {}), (('a', 1), {}), (('a', 1, 2, 3), {}), ((1,2,3,4,5), {}), ((), {"x": 1}), (('a',), {"x": 1}), (('a',), {"string": 'a'}), ((), {"string": 'a', "pos": 0}), (('a', 'b'), {"count": 1, "zz": 2}), ((), {"repl": 'a'}), ((0,), {}), ((0,), {"default": 1}), ((), {"template": 'x'}), ((), {"default": 1, "q": 1})]
for names in ({"match": p.match, "search": p.search, "fullmatch": p.fullmatch, "finditer": p.finditer, "findall": p.findall, "subn": p.subn, "sub": p.sub, "split": p.split}, {"group": m.group, "groups": m.groups, "groupdict": m.groupdict, "start": m.start, "end": m.end, "span": m.span, "expand": m.expand}):
    for n, f in names.items():
        for a, k in calls:
            try:
                r = f(*a, **k)
                if n == "finditer":
                    r = list(r)
                print(n, a, k, "->", r if n not in ("match","search","fullmatch") else r is None)
            except Exception as e:
                print(n, a, k, "!", "error", e)
import re
it = re.finditer("a", "aXa")
print(repr(it)[:19])
print([m.span() for m in it])
m = re.match("a","a")
try:
    m.group(**[])
except TypeError as e:
    print(e)
