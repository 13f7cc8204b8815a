# nonlocal across several nested function levels
from baton import llm


def conversation():
    turns = 0
    transcript = []

    def say(text):
        nonlocal turns
        turns += 1
        transcript.append(text)

        def reset():
            nonlocal turns
            turns = 0
            transcript.clear()

        return reset

    def ask(question):
        reply = llm(question)
        say(question)
        say(reply)
        return reply

    def count():
        return turns

    return ask, count


ask, count = conversation()
ask("What is the project about?")
ask("Which module is the riskiest?")
print(count())
