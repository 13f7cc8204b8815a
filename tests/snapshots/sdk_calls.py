# Calls of the SDK and the plan library, checked against their signatures before anything runs.
from baton import bash, branch, llm
from baton.ttc import tournament

bash(["ls", "-l"])
bash("make", cwd="src")
llm("Summarise", max_tokens="100")
tournament(["a", "b"])
# A warning: every lambda reads `i` when it runs.
branch([lambda: llm(f"attempt {i}") for i in range(4)])
branch([lambda i=i: llm(f"attempt {i}") for i in range(4)])
