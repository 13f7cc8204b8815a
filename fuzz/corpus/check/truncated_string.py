x = 'café'
y = 'ｅｖ