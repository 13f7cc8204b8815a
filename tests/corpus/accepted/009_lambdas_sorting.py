# sort and rank candidates with lambda keys
from baton import llm

candidates = [
    {"name": "a", "score": 0.7, "lines": 40},
    {"name": "b", "score": 0.9, "lines": 120},
    {"name": "c", "score": 0.9, "lines": 35},
]

ranked = sorted(candidates, key=lambda c: (-c["score"], c["lines"]))
smallest = min(candidates, key=lambda c: c["lines"])
best = max(candidates, key=lambda c: c["score"])
double = lambda x: x * 2
names = list(map(lambda c: c["name"].upper(), ranked))
print(names, smallest["name"], best["name"], double(21))
verdict = llm("Which candidate is best? " + ", ".join(names))
print(verdict)
