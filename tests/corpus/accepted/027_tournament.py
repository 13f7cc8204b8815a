# pairwise tournament between candidate patches judged by a model
from baton import llm, parallel, log, inputs

task = inputs.get("task", "speed up the parser")
drafts = parallel([lambda i=i: llm(f"Variant {i}: {task}", temperature=0.8) for i in range(4)])


def judge(a, b):
    verdict = llm(
        f"Task: {task}\nA:\n{a}\n\nB:\n{b}\n\nWhich is better? Reply A or B.",
        temperature=0,
    ).strip().upper()
    return a if verdict.startswith("A") else b


round_no = 0
pool = drafts
while len(pool) > 1:
    round_no += 1
    pairs = [(pool[i], pool[i + 1]) for i in range(0, len(pool) - 1, 2)]
    winners = parallel([lambda p=p: judge(p[0], p[1]) for p in pairs])
    if len(pool) % 2 == 1:
        winners.append(pool[-1])
    log("round", round_no, len(winners))
    pool = winners

print(pool[0])
