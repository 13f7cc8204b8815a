# expect: B001
# A replacement field nested in a format spec is an expression part too; a raw f-string
# does not lift the rule.
width = 5
print(f'{1:{"\n"}}', rf'{"\\"}', f'{width:\x3e5}')
