a = 1
b = 2
msg = (
    f"a={a} "
    f"b={b} "
    "plain "
    f"sum={a + b}"
)
print(msg)
print(f"""triple {a}
second {b}""")
print(f"{a}" f"{b}" "c")
print(rf"raw \n {a}")
