# expect: B202
# eval as a keyword-only parameter default
def f(*, g=eval):
    return g('1')
