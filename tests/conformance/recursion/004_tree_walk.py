tree = {"v": 1, "kids": [{"v": 2, "kids": []}, {"v": 3, "kids": [{"v": 4, "kids": []}, {"v": 5, "kids": []}]}]}
def total(node):
    return node["v"] + sum(total(k) for k in node["kids"])
def paths(node, prefix):
    here = prefix + [node["v"]]
    if not node["kids"]:
        return [here]
    out = []
    for k in node["kids"]:
        out.extend(paths(k, here))
    return out
def height(node):
    return 1 + max([height(k) for k in node["kids"]], default=0)
print(total(tree), paths(tree, []), height(tree))
