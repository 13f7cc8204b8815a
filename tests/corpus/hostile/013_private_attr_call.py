# expect: B205
# private helper reached through the SDK module
import baton

baton._host_call("bash", "id")
