# expect: B101
# a submodule of the SDK
import baton.secret

baton.secret.token()
