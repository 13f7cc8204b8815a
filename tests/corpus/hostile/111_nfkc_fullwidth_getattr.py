# expect: B202
# fullwidth getattr
print(ｇｅｔａｔｔｒ(1, "real"))
