#!/usr/bin/env python3
"""Checks that a generated Python program calls what it must: each NAME given (a function
such as "np.save" or a method such as ".get_function") must be called somewhere in it.
Prints the names that are not called and exits 1 if any. Reads the program with ast only,
so neither NumPy nor the GPU libraries are needed."""
import ast
import sys


def called_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                names.add(f.id)
            elif isinstance(f, ast.Attribute):
                names.add("." + f.attr)
                if isinstance(f.value, ast.Name):
                    names.add(f.value.id + "." + f.attr)
                elif isinstance(f.value, ast.Attribute):
                    names.add(f.value.attr + "." + f.attr)
    return names


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tree = ast.parse(f.read(), sys.argv[1])
    have = called_names(tree)
    missing = [n for n in sys.argv[2:] if n not in have]
    for n in missing:
        print("not called: " + n)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
