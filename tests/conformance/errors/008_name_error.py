print("defined later")
print(total_computed_below)
total_computed_below = 5
