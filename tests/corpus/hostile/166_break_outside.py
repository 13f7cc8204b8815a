# expect: B005
# break outside a loop
x = 1
break
