x = yq
with oy in-t#etzt( (x + y).