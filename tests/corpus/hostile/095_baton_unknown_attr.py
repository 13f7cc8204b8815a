# expect: B102
# an attribute the SDK module does not provide
import baton

baton.spawn("id")
