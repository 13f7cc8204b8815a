ñΐ( '\u202e')
# ommtxent
