# expect: B202
# exec stored as a dict value
tools = {"run": exec}
tools["run"]("x = 1")
