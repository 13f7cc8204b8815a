e1
print(é)999def 2