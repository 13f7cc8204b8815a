cfg = {"name": "job", "steps": [{"cmd": "ls", "ok": True}, {"cmd": "rm", "ok": False}], "n": None}
print(cfg)
print(cfg["steps"][1]["cmd"])
cfg["steps"].append({"cmd": "echo 'hi'"})
print(len(cfg["steps"]), cfg["steps"][-1])
print({"float": 0.1, "neg": -0.0, "tuple": (1,), "esc": "a\nb"})
