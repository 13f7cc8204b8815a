ntintrprintinu((4, *
ge(40))[::-3]
y =--------WW#WWWWWWWWWWWWWWWWW-------("{} e=2))
