# Tournament selection: ask for several candidate answers in parallel, then let judges pick the
# best in a recursive tournament (pairs, 8 votes each, stopping as soon as a pair is decided).
#
#   baton run plans/examples/tournament.py --grant llm --llm script:plans/examples/tournament.llm.json
from baton import branch, llm, log
from baton.ttc import tournament

QUESTION = "Name a sorting algorithm that is stable and O(n log n) in the worst case."


def candidate(style):
    def ask():
        return llm(f"{QUESTION} Answer in one line, {style}.", temperature=0.9)
    return ask


def main():
    styles = ["tersely", "with a reason", "like a textbook", "with an example"]
    answers = branch([candidate(s) for s in styles], reduce="all", labels=styles)
    pool = [o.value for o in answers if o.ok]
    log("candidates:", len(pool))
    best = tournament(pool, question=f"Which answer to '{QUESTION}' is correct and clearest?",
                      votes=8)
    print(best)
    return best
