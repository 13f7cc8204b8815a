# parallel drafts, distilled into a summary, then refined
from baton import llm, parallel, log

question = "How should we migrate the config loader to the new schema?"
drafts = parallel([lambda t=t: llm(question, temperature=t) for t in (0.2, 0.6, 1.0)], max_parallel=3)
numbered = "\n\n".join(f"Draft {i + 1}:\n{d}" for i, d in enumerate(drafts))
summary = llm(f"Distill the common ground and disagreements:\n{numbered}", max_tokens=600)

answer = summary
for step in range(2):
    critique = llm(f"Critique this plan:\n{answer}")
    if "no issues" in critique.lower():
        break
    answer = llm(f"Improve the plan.\nPlan:\n{answer}\nCritique:\n{critique}")
    log("refined", step)

print(answer)
