# Parallel-distill-refine: 8 rollouts of a step, their summaries distilled by tournament into
# the 2 most useful, 8 fresh rollouts that see them, and a final tournament.
#
#   baton run plans/examples/refine.py --grant llm --llm script:plans/examples/refine.llm.json
from baton import llm
from baton.ttc import refine

TASK = "Write a bash one-liner that prints the number of lines of every *.py file, largest first."


def step(context):
    notes = "\n".join(f"- {s['diagnosis']} (problems: {', '.join(s['failure_modes'])})" for s in context)
    prompt = TASK if not context else f"{TASK}\nEarlier attempts:\n{notes}"
    return llm(prompt, temperature=0.8)


def looks_right(command):
    return "wc -l" in command and "sort -rn" in command


def main():
    best = refine(step, n=8, k=2, validate=looks_right, votes=4)
    print(best)
    return best
