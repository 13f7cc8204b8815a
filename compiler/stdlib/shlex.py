"""shlex for plans: quote, split and join, with CPython 3.11's results (POSIX mode)."""

from _baton import type_name

_SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-"
_WHITESPACE = " \t\r\n"


def quote(s):
    """A shell-escaped version of `s`: unchanged when it is made of safe characters only, else
    in single quotes (each single quote inside written as '"'"')."""
    # CPython tests emptiness first: any false value (0, None, -0.0) quotes as ''.
    if not s:
        return "''"
    if not isinstance(s, str):
        raise TypeError("expected string or bytes-like object, got '" + type_name(s) + "'")
    for c in s:
        if c not in _SAFE:
            return "'" + s.replace("'", "'\"'\"'") + "'"
    return s


def join(split_command):
    """The words quoted and joined by spaces: the inverse of split."""
    return " ".join([quote(arg) for arg in split_command])


def split(s, comments=False, posix=True):
    """Splits `s` as shlex.split does (POSIX mode): quotes group and are removed, a backslash
    escapes any character outside quotes and a backslash or `"` inside double quotes, and with
    `comments` an unquoted `#` starts a comment that runs to the end of the line."""
    if s is None:
        raise ValueError("s argument must not be None")
    if not isinstance(s, str):
        raise AttributeError("'" + type_name(s) + "' object has no attribute 'read'")
    if not posix:
        raise NotImplementedError("shlex.split(posix=False) is not supported in plans")
    words = []
    word = []
    in_word = False
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c in _WHITESPACE:
            if in_word:
                words.append("".join(word))
                word = []
                in_word = False
            i += 1
        elif c == "#" and comments:
            # A comment runs to the end of the line and ends the word it interrupts.
            while i < n and s[i] != "\n":
                i += 1
            if in_word:
                words.append("".join(word))
                word = []
                in_word = False
        elif c == "'":
            in_word = True
            end = s.find("'", i + 1)
            if end < 0:
                raise ValueError("No closing quotation")
            word.append(s[i + 1 : end])
            i = end + 1
        elif c == '"':
            in_word = True
            i += 1
            closed = False
            while i < n:
                c = s[i]
                if c == '"':
                    closed = True
                    i += 1
                    break
                if c == "\\":
                    # Inside double quotes a backslash escapes only a backslash or a quote.
                    if i + 1 >= n:
                        raise ValueError("No escaped character")
                    if s[i + 1] not in '\\"':
                        word.append(c)
                    word.append(s[i + 1])
                    i += 2
                else:
                    word.append(c)
                    i += 1
            if not closed:
                raise ValueError("No closing quotation")
        elif c == "\\":
            in_word = True
            if i + 1 >= n:
                raise ValueError("No escaped character")
            word.append(s[i + 1])
            i += 2
        else:
            in_word = True
            word.append(c)
            i += 1
    if in_word:
        words.append("".join(word))
    return words
