x 02
p