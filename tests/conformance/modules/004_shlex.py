# shlex: quoting values for bash() commands, splitting command lines, joining words.
import shlex
from shlex import quote, split, join

for s in ["", "plain", "safe-name_1.txt", "a/b/c.py", "it's", "two words", "$HOME", "a;rm -rf /",
          "tab\there", "new\nline", "quote\"d", "back\\slash", "@%+=:,./-", "ünïcode", "*.py", "'", "''"]:
    print(repr(s), quote(s))
for line in [
    "ls -la /tmp",
    'grep -n "foo bar" file.txt',
    "echo 'single quoted' \"double \\\"escaped\\\"\"",
    "a\\ b c\\\\d",
    "  leading   and trailing  ",
    "",
    "cmd # a comment",
    "x='a b'y \"c\"d",
    'say "a\\$b" "c\\d"',
    "multi\nline\targs",
]:
    print(repr(line), split(line), split(line, comments=True))
print(join(["echo", "hello world", "it's", "", "$x"]))
print(split(join(["a b", "c'd", "e\"f", "g\\h"])))
print(shlex.split("find . -name '*.py' -newer setup.py"))
for bad in ["unterminated 'quote", 'also "bad', "trailing\\"]:
    try:
        print(split(bad))
    except ValueError as e:
        print(repr(e))
try:
    quote(5)
except TypeError as e:
    print(repr(e))
