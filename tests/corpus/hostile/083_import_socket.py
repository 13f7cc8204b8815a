# expect: B101
# network access via socket
import socket

s = socket.socket()
s.connect(("example.com", 80))
