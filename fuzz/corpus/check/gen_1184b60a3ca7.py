def f( b=2, *)rdeudeerint(x,, args  -300)
