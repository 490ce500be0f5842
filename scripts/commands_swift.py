"""The external commands a Swift file starts, for scripts/check-commands.py: a small lexer of Swift's tokens (string
literals decoded, raw and multi-line ones too, each interpolation replaced by INTERPOLATION) and the shapes in which
the project's Swift runs a program (see check-commands.py's docstring)."""

import re

# What an interpolation `\(…)` becomes in a decoded literal: a word that is not a command (program() skips it).
INTERPOLATION = "__swift_interpolation__"
PROGRAM_PATH = re.compile(r"/(?:usr/)?(?:local/)?s?bin/[A-Za-z0-9._+-]+")
SHELL_SHEBANG = re.compile(r"#!\s*(/usr/bin/env\s+)?(/bin/|/usr/bin/)?(ba|da)?sh\b")
RAW_STRING_START = re.compile(r'#+"')


class Token:
    def __init__(self, kind, value, line):
        self.kind, self.value, self.line = kind, value, line  # kind: "str", "id" or "p" (punctuation)

    def __repr__(self):
        return f"{self.kind}:{self.value!r}@{self.line}"


def tokens(text):
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
        elif c == '"' or (c == "#" and RAW_STRING_START.match(text, i)):
            value, end = string_literal(text, i)
            out.append(Token("str", value, line))
            line += text.count("\n", i, end)
            i = end
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(Token("id", text[i:j], line))
            i = j
        else:
            out.append(Token("p", c, line))
            i += 1
    return out


def string_literal(text, i):
    """Decodes the literal at `i` (raw `#"…"#`, multi-line `\"\"\"…\"\"\"`); returns (value, index after it)."""
    hashes = 0
    while text[i] == "#":
        hashes, i = hashes + 1, i + 1
    multi = text.startswith('"""', i)
    i += 3 if multi else 1
    close = ('"""' if multi else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    value, n = "", len(text)
    while i < n:
        if text.startswith(close, i):
            i += len(close)
            break
        if text.startswith(escape, i):
            i += len(escape)
            c = text[i] if i < n else ""
            if c == "(":
                depth, i = 1, i + 1
                start = i
                while i < n and depth:
                    if text[i] == '"':  # a literal inside the interpolation
                        _, i = string_literal(text, i)
                        continue
                    depth += {"(": 1, ")": -1}.get(text[i], 0)
                    i += 1
                value += "\x01" + text[start:i - 1] + "\x02"
                continue
            if c == "\n":  # a line continuation
                i += 1
                continue
            if c == "u" and text.startswith("{", i + 1):
                end = text.index("}", i)
                value += chr(int(text[i + 2 : end], 16))
                i = end + 1
                continue
            value += {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(c, c)
            i += 1
            continue
        value += text[i]
        i += 1
    if multi:
        lines = value.split("\n")
        indent = lines[-1] if not lines[-1].strip() else ""
        body = lines[1:-1] if len(lines) > 1 else lines
        value = "\n".join(line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in body)
    return value, i


def definitions(toks):
    """NAME → the literal of `let NAME = "…" + "…"` (or var, with a type or not), for the names a -c refers to."""
    found = {}
    for k, token in enumerate(toks):
        if token.kind == "id" and token.value in ("let", "var") and k + 1 < len(toks) and toks[k + 1].kind == "id":
            j = k + 2
            while j < len(toks) and j < k + 6 and toks[j].value not in ("=", "{", "}"):
                j += 1
            if j < len(toks) and toks[j].value == "=":
                value, _ = expression(toks, j + 1, found)
                if value is not None:
                    found[toks[k + 1].value] = value
    return {name: resolve(value, found) for name, value in found.items()}


def resolve(value, names, depth=0):
    """`value` with each interpolation of a name `names` knows replaced by its literal, the others by INTERPOLATION."""

    def replace(match):
        name = match.group(1).strip().removeprefix("Self.")
        if depth < 4 and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name in names:
            return resolve(names[name], names, depth + 1)
        return INTERPOLATION

    return re.sub("\x01(.*?)\x02", replace, value, flags=re.S)


def expression(toks, k, names):
    """The literal text of the expression at `k` (literals joined by `+`, or a name `names` knows, `Self.name`
    too), or None; and the index after it: at the `,`, `]` or `)` that ends it, or after its last operand."""
    value, literal = "", True
    while k < len(toks):
        token = toks[k]
        if token.kind == "str":
            value, k = value + token.value, k + 1
        elif token.kind == "id":
            j = k + 2 if token.value == "Self" and k + 2 < len(toks) and toks[k + 1].value == "." else k
            if toks[j].kind == "id" and toks[j].value in names and (j + 1 >= len(toks) or toks[j + 1].value != "("):
                value, k = value + names[toks[j].value], j + 1
            else:
                return None, skip_to_end(toks, k)
        else:
            return None, skip_to_end(toks, k)
        if k < len(toks) and toks[k].value == "+":
            k += 1
            continue
        break
    return (value if literal else None), k


def skip_to_end(toks, k):
    """The index of the `,`, `]` or `)` that ends the expression at `k` (brackets inside it skipped)."""
    depth = 0
    while k < len(toks):
        token = toks[k]
        if token.kind == "p" and token.value in "([{":
            depth += 1
        elif token.kind == "p" and token.value in ")]}":
            if depth == 0:
                return k
            depth -= 1
        elif depth == 0 and token.kind == "p" and token.value == ",":
            return k
        k += 1
    return k


def arguments_after(toks, k, names):
    """The words after a program's literal at `k`: `"/bin/bash", ["-c", script]`, `"/bin/sh"), arguments: [...]`."""
    k += 1
    while k < len(toks) and (toks[k].value in (",", ")", "(", ":", "[") or toks[k].value == "arguments"):
        if toks[k].value == "[":
            k += 1
            break
        k += 1
    else:
        return []
    words = []
    while k < len(toks) and toks[k].value not in ("]",) and len(words) < 8:
        word, k = expression(toks, k, names)
        words.append(word)
        if k < len(toks) and toks[k].value == ",":
            k += 1
        else:
            break
    return words


def swift_uses(text, path, finder):
    toks = tokens(text)
    names = definitions(toks)
    for token in toks:
        if token.kind == "str":
            token.value = resolve(token.value, names)
    for k, token in enumerate(toks):
        if token.kind != "str":
            continue
        here = f"{path}:{token.line}"
        value = token.value
        by_name = k >= 3 and toks[k - 1].value == "(" and toks[k - 2].value == "name" and toks[k - 3].value == "."
        if PROGRAM_PATH.fullmatch(value) or by_name:
            words = [value] + arguments_after(toks, k, names)
            finder.command_words(words, here, lambda script, here=here: finder.shell(script, here))
        elif SHELL_SHEBANG.match(value):
            finder.shell(value, here)
        elif "command:" in value and "[" in value:
            finder.topology(value, path, token.line)
