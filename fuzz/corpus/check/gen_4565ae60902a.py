name = "x"
widtA = {} and {fame}u= 'ok {} {name=2)
