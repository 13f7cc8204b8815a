# id and input rebound as function locals
from baton import inputs, llm, bash


def plan_ticket():
    id = 3
    input = inputs["task"]
    ticket = f"TICKET-{id}"
    plan = llm(f"{ticket}: {input}\nList the files you would change, one per line.")
    files = [f.strip() for f in plan.splitlines() if f.strip()]
    existing = [f for f in files if bash(f"test -f {f}").returncode == 0]
    return ticket, files, existing


ticket, files, existing = plan_ticket()
print(ticket, len(files), len(existing))
