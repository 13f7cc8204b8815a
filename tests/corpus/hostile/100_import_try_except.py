# expect: B101, B203
# optional import guarded by try/except ImportError
try:
    import requests
except ImportError:
    requests = None
