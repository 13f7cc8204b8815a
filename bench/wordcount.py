# Counting the words of a 1 MB text in a dict; the text is generated deterministically.
VOCAB = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi",
    "chi", "psi", "omega", "red", "green", "blue", "cyan", "magenta", "yellow", "black",
    "white", "north", "south", "east", "west", "spring", "summer", "autumn", "winter",
]


def make_text(size):
    words = []
    x = 12345
    length = 0
    n = len(VOCAB)
    while length < size:
        x = (x * 1103515245 + 12345) % 2147483648
        word = VOCAB[(x >> 16) % n]
        if (x >> 8) % 7 == 0:
            word = word + str((x >> 4) % 100)
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


def count(text):
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts


text = make_text(1_000_000)
counts = count(text)
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
print(len(text), len(counts), sum(counts.values()), top)
