# Start-up only: what every run pays before the plan does any work.
print("ok")
