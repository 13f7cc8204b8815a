# fullwidth spellings NFKC-normalise to allowed names: baton, bash, print
from ｂａｔｏｎ import ｂａｓｈ, log
import ｊｓｏｎ

result = ｂａｓｈ("git rev-parse HEAD")
ｐｒｉｎｔ(result.stdout.strip())
print(bash("echo same function").stdout.strip())
log(json.dumps({"sha": result.stdout.strip()[:8]}))
