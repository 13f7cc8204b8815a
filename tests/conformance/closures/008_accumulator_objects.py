def account(balance):
    log = []
    def deposit(x):
        nonlocal balance
        balance += x
        log.append(("dep", x))
        return balance
    def withdraw(x):
        nonlocal balance
        if x > balance:
            raise ValueError("insufficient funds")
        balance -= x
        log.append(("wd", x))
        return balance
    return {"deposit": deposit, "withdraw": withdraw, "log": lambda: list(log)}
acct = account(10)
print(acct["deposit"](5), acct["withdraw"](3))
try:
    acct["withdraw"](100)
except ValueError as e:
    print("error:", e)
print(acct["log"]())
