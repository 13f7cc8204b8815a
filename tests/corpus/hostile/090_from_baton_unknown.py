# expect: B102
# a name the SDK does not provide
from baton import run

run("id")
