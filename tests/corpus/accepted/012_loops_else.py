# while/for with else, break and continue
from baton import bash, llm

ports = [8000, 8001, 8002, 8003]
for port in ports:
    if bash(f"ss -ltn | grep -q :{port}").returncode == 0:
        continue
    chosen = port
    break
else:
    chosen = None

tries = 0
while tries < 5:
    tries += 1
    answer = llm("Say READY when ready.").strip()
    if answer == "READY":
        break
else:
    print("model never said READY")

print("port", chosen, "after", tries, "tries")
