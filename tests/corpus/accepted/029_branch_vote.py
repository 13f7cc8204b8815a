# branch with reduce='vote' on answers from several samples
from baton import llm, branch

question = "Does the function in utils.py handle empty input? Answer yes or no."


def sample(temperature):
    return llm(question, temperature=temperature).strip().lower().rstrip(".")


answer = branch(
    [lambda t=t: sample(t) for t in [0.0, 0.4, 0.8, 1.2, 1.6]],
    validate=lambda a: a in ("yes", "no"),
    reduce="vote",
    stop_early=False,
)
print(answer)
