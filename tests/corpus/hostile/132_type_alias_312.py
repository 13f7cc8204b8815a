# expect: B310
# Python 3.12 type alias statement (not valid 3.11; B310 or B001)
type X = int
