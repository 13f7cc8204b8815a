# lambdas capturing loop variables through defaults and closures
from baton import bash, branch, parallel

commands = ["make lint", "make test", "make docs"]
runners = [lambda c=c: bash(c).returncode for c in commands]
codes = parallel(runners)
adders = [lambda x, n=n: x + n for n in range(3)]
print(codes, [f(10) for f in adders])


def attempt(i):
    return bash(f"echo attempt {i}").stdout.strip()


print(branch([lambda: attempt(i) for i in range(4)], validate=lambda out: out.endswith("3"), reduce="all"))
