# expect: B005
# return outside a function
return 1
