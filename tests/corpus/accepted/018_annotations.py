# annotations using builtin types
from baton import bash, llm


def count_words(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
    return counts


def top(counts: dict[str, int], n: int = 5) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda kv: kv[1], reverse=True)[:n]


def summarise(lines: list[str], limit: int | None = None) -> str:
    chosen = lines if limit is None else lines[:limit]
    return llm("Summarise:\n" + "\n".join(chosen))


readme: str = bash("cat README.md").stdout
print(top(count_words(readme)))
print(summarise(readme.splitlines(), limit=50))
