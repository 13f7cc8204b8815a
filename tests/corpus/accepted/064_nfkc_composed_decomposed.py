# a name bound in composed form (U+00E9) and used in decomposed form (e + U+0301) is one name after NFKC
from baton import llm

résumé = llm("Summarise the last release in one line.")
print(résumé.strip())
