"""textwrap for plans: dedent, indent, wrap, fill and shorten, with CPython 3.11's results.

CPython splits text into chunks with a regular expression (TextWrapper.wordsep_re); `_split`
below does the same scan by hand: runs of whitespace, em-dashes between words, and words that
may break after a hyphen between letters."""

_WHITESPACE = "\t\n\x0b\x0c\r "


def _is_word(c):
    # \w: a letter, digit or underscore (Unicode).
    return c.isalnum() or c == "_"


def _is_letter(c):
    # [^\d\W]: a word character that is not a decimal digit.
    return _is_word(c) and not c.isdecimal()


def _is_word_punct(c):
    return _is_word(c) or c in "!\"'&.,?"


def _dashes_then_word(text, i):
    """Whether 2 or more '-' start at i and a word character follows them; the end of the
    dashes when so, else -1."""
    n = len(text)
    j = i
    while j < n and text[j] == "-":
        j += 1
    if j - i >= 2 and j < n and _is_word(text[j]):
        return j
    return -1


def _hyphen_breaks(text, i):
    """Whether a word may end after the '-' at i: two letters or letter-hyphen-letter-hyphen
    before it's end, and a letter, an optional '-' and a letter after it."""
    n = len(text)
    before = (i >= 2 and _is_letter(text[i - 1]) and _is_letter(text[i - 2])) or (
        i >= 3 and _is_letter(text[i - 1]) and text[i - 2] == "-" and _is_letter(text[i - 3])
    )
    if not before:
        return False
    j = i + 1
    if j >= n or not _is_letter(text[j]):
        return False
    j += 1
    if j < n and text[j] == "-":
        j += 1
    return j < n and _is_letter(text[j])


def _split(text, break_on_hyphens):
    chunks = []
    n = len(text)
    i = 0
    while i < n:
        start = i
        if text[i] in _WHITESPACE:
            while i < n and text[i] in _WHITESPACE:
                i += 1
        # CPython tests `is True` here (and truthiness where a long word is broken).
        elif break_on_hyphens is not True:
            while i < n and text[i] not in _WHITESPACE:
                i += 1
        elif i > 0 and _is_word_punct(text[i - 1]) and _dashes_then_word(text, i) > 0:
            i = _dashes_then_word(text, i)
        else:
            # The shortest word (at least one character) that ends before whitespace or the
            # end, after a hyphen that may break, or before an em-dash.
            i += 1
            while i < n and text[i] not in _WHITESPACE:
                if text[i] == "-" and _hyphen_breaks(text, i):
                    i += 1
                    break
                if _is_word_punct(text[i - 1]) and _dashes_then_word(text, i) > 0:
                    break
                i += 1
        chunks.append(text[start:i])
    return chunks


def _chunks(text, expand_tabs, tabsize, replace_whitespace, break_on_hyphens, fix_sentence_endings):
    if expand_tabs:
        text = text.expandtabs(tabsize)
    if replace_whitespace:
        for c in _WHITESPACE:
            text = text.replace(c, " ")
    chunks = _split(text, break_on_hyphens)
    if fix_sentence_endings:
        i = 0
        while i < len(chunks) - 1:
            if chunks[i + 1] == " " and _ends_sentence(chunks[i]):
                chunks[i + 1] = "  "
                i += 2
            else:
                i += 1
    return chunks


def _ends_sentence(chunk):
    # [a-z][\.\!\?][\"\']?\Z
    if chunk and chunk[-1] in "\"'":
        chunk = chunk[:-1]
    return len(chunk) >= 2 and chunk[-1] in ".!?" and "a" <= chunk[-2] <= "z"


def _handle_long_word(chunks, cur_line, cur_len, width, break_long_words, break_on_hyphens):
    if width < 1:
        space_left = 1
    else:
        space_left = width - cur_len
    if break_long_words:
        end = space_left
        chunk = chunks[-1]
        if break_on_hyphens and len(chunk) > space_left:
            hyphen = chunk.rfind("-", 0, space_left)
            if hyphen > 0 and any(c != "-" for c in chunk[:hyphen]):
                end = hyphen + 1
        cur_line.append(chunk[:end])
        chunks[-1] = chunk[end:]
    elif not cur_line:
        cur_line.append(chunks.pop())


def _wrap(
    text,
    width=70,
    *,
    initial_indent="",
    subsequent_indent="",
    expand_tabs=True,
    replace_whitespace=True,
    fix_sentence_endings=False,
    break_long_words=True,
    drop_whitespace=True,
    break_on_hyphens=True,
    tabsize=8,
    max_lines=None,
    placeholder=" [...]"
):
    """The lines of `text` wrapped to at most `width` characters, as textwrap.wrap."""
    chunks = _chunks(
        text, expand_tabs, tabsize, replace_whitespace, break_on_hyphens, fix_sentence_endings
    )
    lines = []
    if width <= 0:
        raise ValueError("invalid width " + repr(width) + " (must be > 0)")
    if max_lines is not None:
        if max_lines > 1:
            indent = subsequent_indent
        else:
            indent = initial_indent
        if len(indent) + len(placeholder.lstrip()) > width:
            raise ValueError("placeholder too large for max width")
    chunks.reverse()
    while chunks:
        cur_line = []
        cur_len = 0
        if lines:
            indent = subsequent_indent
        else:
            indent = initial_indent
        line_width = width - len(indent)
        if drop_whitespace and chunks[-1].strip() == "" and lines:
            chunks.pop()
        while chunks:
            size = len(chunks[-1])
            if cur_len + size <= line_width:
                cur_line.append(chunks.pop())
                cur_len += size
            else:
                break
        if chunks and len(chunks[-1]) > line_width:
            _handle_long_word(
                chunks, cur_line, cur_len, line_width, break_long_words, break_on_hyphens
            )
            cur_len = sum([len(c) for c in cur_line])
        if drop_whitespace and cur_line and cur_line[-1].strip() == "":
            cur_len -= len(cur_line[-1])
            cur_line.pop()
        if cur_line:
            if (
                max_lines is None
                or len(lines) + 1 < max_lines
                or (
                    not chunks
                    or drop_whitespace
                    and len(chunks) == 1
                    and not chunks[0].strip()
                )
                and cur_len <= line_width
            ):
                lines.append(indent + "".join(cur_line))
            else:
                placed = False
                while cur_line:
                    if cur_line[-1].strip() and cur_len + len(placeholder) <= line_width:
                        cur_line.append(placeholder)
                        lines.append(indent + "".join(cur_line))
                        placed = True
                        break
                    cur_len -= len(cur_line[-1])
                    cur_line.pop()
                if not placed:
                    if lines:
                        prev_line = lines[-1].rstrip()
                        if len(prev_line) + len(placeholder) <= width:
                            lines[-1] = prev_line + placeholder
                            break
                    lines.append(indent + placeholder.lstrip())
                break
    return lines


def _fill(
    text,
    width=70,
    *,
    initial_indent="",
    subsequent_indent="",
    expand_tabs=True,
    replace_whitespace=True,
    fix_sentence_endings=False,
    break_long_words=True,
    drop_whitespace=True,
    break_on_hyphens=True,
    tabsize=8,
    max_lines=None,
    placeholder=" [...]"
):
    """`wrap`'s lines joined by newlines, as textwrap.fill."""
    return "\n".join(
        _wrap(
            text,
            width,
            initial_indent=initial_indent,
            subsequent_indent=subsequent_indent,
            expand_tabs=expand_tabs,
            replace_whitespace=replace_whitespace,
            fix_sentence_endings=fix_sentence_endings,
            break_long_words=break_long_words,
            drop_whitespace=drop_whitespace,
            break_on_hyphens=break_on_hyphens,
            tabsize=tabsize,
            max_lines=max_lines,
            placeholder=placeholder,
        )
    )


def _shorten(
    text,
    width,
    *,
    initial_indent="",
    subsequent_indent="",
    expand_tabs=True,
    replace_whitespace=True,
    fix_sentence_endings=False,
    break_long_words=True,
    drop_whitespace=True,
    break_on_hyphens=True,
    tabsize=8,
    placeholder=" [...]"
):
    """`text` with its whitespace collapsed, cut to fit `width` with the placeholder at the end,
    as textwrap.shorten."""
    return _fill(
        " ".join(text.strip().split()),
        width,
        initial_indent=initial_indent,
        subsequent_indent=subsequent_indent,
        expand_tabs=expand_tabs,
        replace_whitespace=replace_whitespace,
        fix_sentence_endings=fix_sentence_endings,
        break_long_words=break_long_words,
        drop_whitespace=drop_whitespace,
        break_on_hyphens=break_on_hyphens,
        tabsize=tabsize,
        max_lines=1,
        placeholder=placeholder,
    )


# The keyword arguments of wrap, fill and shorten go to CPython's TextWrapper(...), which names
# one it does not know: its options.
_OPTIONS = (
    "initial_indent",
    "subsequent_indent",
    "expand_tabs",
    "replace_whitespace",
    "fix_sentence_endings",
    "break_long_words",
    "drop_whitespace",
    "break_on_hyphens",
    "tabsize",
    "max_lines",
    "placeholder",
)


def _check_options(options):
    for name in options:
        if name == "self":
            raise TypeError("TextWrapper.__init__() got multiple values for argument 'self'")
        if name not in _OPTIONS:
            raise TypeError("TextWrapper.__init__() got an unexpected keyword argument '" + name + "'")


def wrap(text, width=70, **kwargs):
    """The lines of `text` wrapped to at most `width` characters, as textwrap.wrap (the
    keyword arguments are TextWrapper's options)."""
    _check_options(kwargs)
    return _wrap(text, width, **kwargs)


def fill(text, width=70, **kwargs):
    """`wrap`'s lines joined by newlines, as textwrap.fill."""
    _check_options(kwargs)
    return _fill(text, width, **kwargs)


def shorten(text, width, **kwargs):
    """`text` with its whitespace collapsed, cut to fit `width` with the placeholder at the end,
    as textwrap.shorten."""
    if "max_lines" in kwargs:
        raise TypeError("textwrap.TextWrapper() got multiple values for keyword argument 'max_lines'")
    _check_options(kwargs)
    return _shorten(text, width, **kwargs)


def dedent(text):
    """`text` without the whitespace prefix its non-blank lines share; lines of only spaces and
    tabs become empty. As textwrap.dedent."""
    lines = text.split("\n")
    margin = None
    for i in range(len(lines)):
        line = lines[i]
        if not line.strip(" \t"):
            lines[i] = ""
            continue
        stripped = line.lstrip(" \t")
        indent = line[: len(line) - len(stripped)]
        if margin is None:
            margin = indent
        elif indent.startswith(margin):
            pass
        elif margin.startswith(indent):
            margin = indent
        else:
            for j in range(min(len(margin), len(indent))):
                if margin[j] != indent[j]:
                    margin = margin[:j]
                    break
    if margin:
        for i in range(len(lines)):
            if lines[i].startswith(margin):
                lines[i] = lines[i][len(margin) :]
    return "\n".join(lines)


def indent(text, prefix, predicate=None):
    """`text` with `prefix` before each line for which `predicate` is true (by default, each
    line that is not only whitespace), as textwrap.indent."""
    out = []
    for line in text.splitlines(True):
        if predicate is None:
            chosen = line.strip()
        else:
            chosen = predicate(line)
        if chosen:
            out.append(prefix + line)
        else:
            out.append(line)
    return "".join(out)
