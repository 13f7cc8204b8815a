# expect: B101
# ctypes for raw memory access
import ctypes

ctypes.memmove(0, 0, 1)
