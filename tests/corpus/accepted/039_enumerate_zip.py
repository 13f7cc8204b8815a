# enumerate, zip and reversed over model answers
from baton import llm, log

questions = ["What does the build do?", "What does the test job do?", "What is deployed?"]
answers = [llm(q, max_tokens=100) for q in questions]
for number, (q, a) in enumerate(zip(questions, answers), start=1):
    print(f"{number}. {q}\n   {a.strip()[:60]}")

for q in reversed(questions):
    log("asked", q)

pairs = dict(zip(questions, answers))
lengths = list(zip(*[(len(q), len(a)) for q, a in pairs.items()]))
print(lengths)
