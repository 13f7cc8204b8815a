# Constant strs carry a hash computed when the module is assembled (runtime/src/statics.rs);
# strs built at run time hash in the runtime. Equal strs must find each other either way, for
# every length (whole 8-byte words and every tail) and for non-ASCII text.
consts = {"": 0, "a": 1, "ab": 2, "abc": 3, "abcd": 4, "abcde": 5, "abcdef": 6, "abcdefg": 7,
          "abcdefgh": 8, "abcdefghi": 9, "abcdefghijklmno": 15, "abcdefghijklmnop": 16,
          "abcdefghijklmnopq": 17, "é": 100, "naïve café": 101, "日本語テキスト": 102, "strip": 5}
letters = "abcdefghijklmnopq"
found = []
for n in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17]:
    built = "".join([letters[i] for i in range(n)])
    found.append(consts[built])
    found.append(built in consts)
for text in ["é", "naïve café", "日本語テキスト", "strip"]:
    built = "".join(list(text))
    found.append(consts[built])
print(found)
runtime = {}
for key in ["x" * n for n in range(12)]:
    runtime[key] = len(key)
print([runtime["xxxxxxxxx"], runtime[""], runtime["xxxxxxxx"], "xxx" in runtime, "y" in runtime])
print("".join(["st", "rip"]) == "strip", "strip" == "split", {"split", "strip"} == {"".join(["spl", "it"]), "strip"})
