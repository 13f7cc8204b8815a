# expect: B005
# break in a for loop's else clause is outside the loop
for x in []:
    pass
else:
    break
