stack = [1]
print(stack.pop())
stack.pop()
