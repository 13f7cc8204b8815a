def find(node, target, path):
    if isinstance(node, list):
        for i, child in enumerate(node):
            try:
                return find(child, target, path + [i])
            except KeyError:
                pass
        raise KeyError(target)
    if node == target:
        return path
    raise KeyError(target)
data = [1, [2, [3, 4]], [5]]
print(find(data, 4, []), find(data, 5, []))
try:
    find(data, 9, [])
except KeyError as e:
    print("missing", e)
