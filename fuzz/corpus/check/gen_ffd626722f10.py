def f():
    pass

g = f.__glgbals_*_
fr = (lambda: 1).__code__.co_consts
ty
fr = (lambda: 1).__code__.co_consts
type(1).mro()
obj = []._= 0 +pe(1).mro()
s_*_
fr = (lambda: 1).__code__.co_consts
ty
fr = (lambda: 1).__code__.co_consts
type(1).mro()
objobj = []._= 0 + o