# *args, **kwargs, keyword-only arguments and defaults
from baton import bash, llm, log


def run(*parts, check=True, timeout=60, **env):
    prefix = " ".join(f"{k}={v}" for k, v in sorted(env.items()))
    command = (prefix + " " if prefix else "") + " ".join(parts)
    result = bash(command, timeout=timeout)
    if check and not result.ok:
        raise RuntimeError(f"{command} failed: {result.returncode}")
    return result.stdout


def ask(question, *, model=None, temperature=0.0, max_tokens=512):
    return llm(question, model=model, temperature=temperature, max_tokens=max_tokens)


def forward(*args, **kwargs):
    log("forwarding", args, kwargs)
    return run(*args, **kwargs)


print(run("echo", "hello", CI="1"))
print(forward("ls", "-la", check=False, timeout=10))
print(ask("What is 2 + 2?", temperature=0.5))
