(((((t:=2,p,kw):
    re