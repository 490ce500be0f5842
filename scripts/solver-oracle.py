#!/usr/bin/env python3
"""The Cassowary solver against kiwisolver, its reference implementation's Python binding, on random systems.

    python3 scripts/solver-oracle.py --bin PATH/cassowary-script [--systems 10000] [--seed 1]

Each system is a script of operations (scripts of required and non-required equalities and inequalities over 2–8
variables, removals, edit variables and suggestions), run by kiwisolver here and by the Swift solver through
`cassowary-script` (Sources/CassowaryScript). After every operation both must give the same verdict (a required
constraint refused as unsatisfiable, or not) and the same value of every variable, within 10⁻⁶ relative.

Two families of systems, alternately (one in ten, of one level, larger: 10–30 variables, 20–90 operations):
- one level: every non-required constraint at one priority, weighed; kiwi's objective and ours are then the same
  function, and the solvers pivot alike;
- three levels: priorities 1, 500 and 750, given to kiwi as weights ×1, ×10³ and ×10⁶ (its weak, medium and strong). Ours are lexicographic (a
  higher priority wholly before a lower one), kiwi's a weighted sum: where a higher level's costs nearly tie, kiwi
  trades a little of them for a lot of a lower level's. Such a disagreement counts as explained only when both
  solutions hold every required constraint, ours costs less at the first level where their costs differ, and kiwi's
  weighted sum is the smaller: each is the better by its own order.
Every variable has a stay (`v == s` at priority 1, its own weight), so the optimum is unique and both solvers must find
it. After kiwi refuses a constraint, its tableau is broken (the search's row stays pivoted in: a later suggestion can
abort the process), so it is rebuilt from the operations it took; ours must be as it was before the refusal.

Exits 0 when every system agrees, 1 with the first disagreements and their scripts otherwise.
"""
import argparse
import random
import subprocess
import sys

import kiwisolver as kiwi

COEFFICIENTS = [1, -1, 2, -2, 0.5, -0.5, 3]
RELATIONS = ["<=", "==", ">="]
KIWI_WEIGHT = {1: 1.0, 500: 1.0e3, 750: 1.0e6}


def kiwi_strength(priority, weight):
    return "required" if priority == 1000 else KIWI_WEIGHT.get(priority, 1.0) * weight


class Kiwi:
    """kiwi's run of a script, one operation at a time: (verb, key, verdict, values or None when not to be
    compared)."""

    def __init__(self):
        self.solver = kiwi.Solver()
        self.variables = []
        self.constraints = {}
        self.history = []

    def variable(self, index):
        while len(self.variables) <= index:
            self.variables.append(kiwi.Variable(f"v{len(self.variables)}"))
        return self.variables[index]

    def values(self):
        self.solver.updateVariables()
        return [v.value() for v in self.variables]

    def costs(self, values, taken):
        """The errors of the constraints kiwi held after its first `taken` operations, weighed, at each priority
        (required ones at 1000)."""
        levels = {}
        suggested = {}
        constraints = {}
        for operation in self.history[:taken]:
            if operation[0] == "add":
                constraints[operation[1]] = operation
            elif operation[0] == "remove":
                constraints.pop(operation[1])
            elif operation[0] == "edit":
                suggested[operation[1]] = (operation[2], operation[3], 0)
            else:
                priority, weight, _ = suggested[operation[1]]
                suggested[operation[1]] = (priority, weight, operation[2])
        rows = [(relation, priority, weight, constant, terms)
                for _, _, relation, priority, weight, constant, terms in constraints.values()]
        rows += [("==", priority, weight, -value, [(index, 1)]) for index, (priority, weight, value) in suggested.items()]
        for relation, priority, weight, constant, terms in rows:
            total = constant + sum(values[v] * c for v, c in terms)
            error = abs(total) if relation == "==" else max(0.0, total if relation == "<=" else -total)
            levels[priority] = levels.get(priority, 0.0) + weight * error
        return levels

    def explains(self, ours, theirs, taken):
        """Whether ours and kiwi's solutions differ only as a lexicographic order and a weighted sum may."""
        mine, kiwis = self.costs(ours, taken), self.costs(theirs, taken)
        tolerance = lambda a, b: 1e-6 * max(1.0, abs(a), abs(b))
        if mine.get(1000, 0) > 1e-6 or kiwis.get(1000, 0) > 1e-6:
            return False
        for priority in sorted(set(mine) | set(kiwis) - {1000}, reverse=True):
            a, b = mine.get(priority, 0.0), kiwis.get(priority, 0.0)
            if abs(a - b) > tolerance(a, b):
                weighted = lambda costs: sum(KIWI_WEIGHT[p] * c for p, c in costs.items() if p != 1000)
                return a < b and weighted(kiwis) <= weighted(mine) + tolerance(weighted(kiwis), weighted(mine))
        return False

    def rebuild(self):
        """A fresh solver given the operations kiwi took. A refused constraint leaves kiwi's tableau broken (its
        search's row is pivoted in, and a later suggestion can abort the process); ours is put back as it was."""
        history = self.history
        self.__init__()
        for operation in history:
            self.run(operation)

    def run(self, operation):
        solver = self.solver
        verb = operation[0]
        if verb == "add":
            _, key, relation, priority, weight, constant, terms = operation
            expression = sum((self.variable(v) * c for v, c in terms), kiwi.Expression([], constant))
            if relation == "<=":
                constraint = expression <= 0
            elif relation == ">=":
                constraint = expression >= 0
            else:
                constraint = expression == 0
            constraint = constraint | kiwi_strength(priority, weight)
            try:
                solver.addConstraint(constraint)
            except kiwi.UnsatisfiableConstraint:
                self.rebuild()
                return (verb, key, "unsatisfiable", self.values())
            self.constraints[key] = constraint
            self.history.append(operation)
            return (verb, key, "ok", self.values())
        if verb == "remove":
            key = operation[1]
            solver.removeConstraint(self.constraints.pop(key))
            self.history.append(operation)
            return (verb, key, "ok", self.values())
        if verb == "edit":
            _, index, priority, weight = operation
            solver.addEditVariable(self.variable(index), kiwi_strength(priority, weight))
            self.history.append(operation)
            return (verb, str(index), "ok", self.values())
        _, index, value = operation
        solver.suggestValue(self.variable(index), value)
        self.history.append(operation)
        return (verb, str(index), "ok", self.values())


def generate(rng, family, large=False):
    """A script and kiwi's outcome of each of its operations (verb, key, verdict, values), run as it is drawn: a
    removal names a constraint kiwi took."""
    oracle = Kiwi()
    script = []
    expected = []

    def emit(operation):
        script.append(operation)
        expected.append(oracle.run(operation) + (len(oracle.history),))

    count = rng.randint(10, 30) if large else rng.randint(2, 8)
    levels = [1] if family == 0 else [1, 500, 750]
    for index in range(count):
        stay = rng.randint(0, 400)
        emit(("add", f"s{index}", "==", 1, round(rng.uniform(0.5, 1.0), 4), -stay, [(index, 1)]))
    edited = []
    for step in range(rng.randint(20, 90) if large else rng.randint(1, 16)):
        roll = rng.random()
        added = [key for key in oracle.constraints if key.startswith("c")]
        if roll < 0.12 and added:
            emit(("remove", rng.choice(added)))
        elif roll < 0.2 and len(edited) < count:
            variable = rng.choice([v for v in range(count) if v not in edited])
            edited.append(variable)
            emit(("edit", variable, rng.choice(levels[1:] or [1]), round(rng.uniform(1, 10), 4)))
        elif roll < 0.35 and edited:
            emit(("suggest", rng.choice(edited), rng.randint(-50, 450)))
        else:
            named = rng.sample(range(count), rng.randint(1, min(3, count)))
            terms = [(variable, rng.choice(COEFFICIENTS)) for variable in named]
            required = rng.random() < 0.45
            priority = 1000 if required else rng.choice(levels)
            weight = 1 if required else round(rng.uniform(1, 10), 4)
            emit(("add", f"c{step}", rng.choice(RELATIONS), priority, weight, rng.randint(-200, 200), terms))
    return script, expected, oracle


def line(operation):
    verb = operation[0]
    if verb == "add":
        _, key, relation, priority, weight, constant, terms = operation
        return f"add {key} {relation} {priority} {weight} {constant} " + " ".join(f"{v} {c}" for v, c in terms)
    return " ".join(str(part) for part in operation)


def agree(ours, theirs):
    return all(abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b)) for a, b in zip(ours, theirs)) and len(ours) == len(theirs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the cassowary-script executable")
    parser.add_argument("--systems", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()

    rng = random.Random(arguments.seed)
    scripts = []
    expectations = []
    for number in range(arguments.systems):
        script, expected, oracle = generate(rng, number % 2, large=number % 10 == 8)
        scripts.append(script)
        expectations.append((expected, oracle))

    text = "".join("system\n" + "".join(line(operation) + "\n" for operation in script) for script in scripts)
    run = subprocess.run([arguments.bin], input=text, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"solver-oracle: {arguments.bin} exited {run.returncode}: {run.stderr.strip()}")
    # One block per system, each opened by its `system` line.
    blocks = run.stdout.split("system\n")[1:]
    if len(blocks) != len(scripts):
        sys.exit(f"solver-oracle: {arguments.bin} answered {len(blocks)} systems of {len(scripts)}")

    failures = []
    counts = {"operations": 0, "compared": 0, "refused": 0, "edits": 0, "suggestions": 0, "removals": 0}
    explained = 0
    for number, (script, (expected, oracle), block) in enumerate(zip(scripts, expectations, blocks)):
        answers = block.splitlines()
        if len(answers) != len(script):
            failures.append((number, f"{len(answers)} answers to {len(script)} operations: {answers}", script))
            continue
        for operation, (verb, key, verdict, values, taken), answer in zip(script, expected, answers):
            words = answer.split(" ")
            counts["operations"] += 1
            counts["refused"] += verdict == "unsatisfiable"
            counts["edits"] += verb == "edit"
            counts["suggestions"] += verb == "suggest"
            counts["removals"] += verb == "remove"
            problem = None
            if words[:3] != [verb, key, verdict]:
                problem = f"kiwi says `{verb} {key} {verdict}`, ours `{' '.join(words[:3])}`"
            else:
                counts["compared"] += 1
                ours = [float(word) for word in words[3:]]
                if not agree(ours, values):
                    if number % 2 == 1 and oracle.explains(ours, values, taken):
                        # The two solvers now hold different solutions: the rest of the system is not compared.
                        explained += 1
                        break
                    problem = f"after `{line(operation)}`: kiwi {values}, ours {ours}"
            if problem:
                failures.append((number, problem, script))
                break
    print(
        f"solver-oracle: {arguments.systems} systems (seed {arguments.seed}), {counts['operations']} operations: "
        f"{counts['refused']} refused as unsatisfiable, {counts['removals']} removals, {counts['edits']} edit "
        f"variables, {counts['suggestions']} suggestions; values compared after {counts['compared']} "
        f"({explained} systems left where kiwi's weights and our priorities differ, each checked); "
        f"{len(failures)} systems disagree"
    )
    for number, problem, script in failures[:5]:
        print(f"\nsystem {number}: {problem}\n" + "".join(f"  {line(operation)}\n" for operation in script))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
