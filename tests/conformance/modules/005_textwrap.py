# textwrap: wrapping, filling, shortening, dedenting and indenting text for prompts and reports.
import textwrap
from textwrap import dedent, indent, wrap, fill, shorten

text = ("The quick brown fox jumps over the lazy dog. A well-known pangram, used by "
        "type-setters and font-designers -- and by programmers -- for testing.  Double  spaces stay?")
for width in [10, 15, 20, 33, 50, 70, 200]:
    print(width, wrap(text, width))
print(fill(text, 30))
print(fill(text, 30, initial_indent="* ", subsequent_indent="  "))
print(fill(text, 25, break_on_hyphens=False))
print(fill("supercalifragilisticexpialidocious word", 10))
print(fill("supercalifragilisticexpialidocious word", 10, break_long_words=False))
print(wrap("a-b-c-d-e-f-g-h-i-j-k", 5), wrap("well-known  self-evident", 6))
print(wrap("tabs\there\tand\tthere", 12), wrap("tabs\there", 12, expand_tabs=False), wrap("a\tb", 20, tabsize=4))
print(wrap("keep\nnewlines", 40, replace_whitespace=False))
print(wrap("Hello there. How are you? Fine.", 80, fix_sentence_endings=True))
print(wrap("  indented start and   gaps  ", 10, drop_whitespace=False))
print(wrap(text, 20, max_lines=3), wrap(text, 20, max_lines=2, placeholder=" ..."))
print(wrap("", 10), wrap("   ", 10), wrap("one", 1))
print(shorten(text, 40), "|", shorten(text, 100), "|", shorten("Hello  world!", 12), "|", shorten("Hello world", 11))
print(shorten(text, 30, placeholder="..."))
print(repr(dedent("    def f():\n        return 1\n    ")))
print(repr(dedent("  a\n\tb\n")), repr(dedent("\n   \n  x\n    y\n")), repr(dedent("no indent\n  some")))
print(repr(dedent("  \t mixed\n  \t  more\n")))
print(repr(indent("a\nb\n\n  \nc", "> ")), repr(indent("a\r\nb", "+")))
print(repr(indent("x\ny", "# ", lambda line: line.startswith("y"))))
try:
    wrap("abc", 0)
except ValueError as e:
    print(repr(e))
try:
    wrap("abc def", 3, max_lines=1)
except ValueError as e:
    print(repr(e))
