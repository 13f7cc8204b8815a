# expect: B102
# fullwidth member name NFKC-normalises to load
from json import ｌｏａｄ

print(ｌｏａｄ)
