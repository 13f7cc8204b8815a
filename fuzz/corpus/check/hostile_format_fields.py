s = '{0.__class__.__init__.__globals__}'.format(1)
t = '{x[0]}'.format(x=[1])
u = 'ok {} {name}'.format(1, name=2)
