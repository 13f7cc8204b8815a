# nested functions and closures as validators
from baton import bash, branch


def make_validator(min_score, required=()):
    def validate(result):
        if result is None:
            return False
        text = result.lower()
        if any(word not in text for word in required):
            return False
        return len(text) >= min_score
    return validate


def make_attempt(prompt_suffix):
    def attempt():
        out = bash(f"echo 'candidate {prompt_suffix}'").stdout
        return out.strip()
    return attempt


validate = make_validator(5, required=("candidate",))
fns = [make_attempt(s) for s in ("alpha", "beta", "gamma")]
print(branch(fns, validate=validate, reduce="first_valid"))
