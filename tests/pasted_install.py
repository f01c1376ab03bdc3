"""N1's attack (issue 42), shared by the tests that run it: in a check cell, in the grader, in a wheel's install.

A learner's answer function that looks up its call in everything the installed package ships.
A reference function anywhere in it (``answers.py`` and the lessons' ``REFERENCES`` on 457bed9)
answers every case; else the shipped case data: a public case's answer, or, for a sealed hidden
case, only what the pool holds (returned, so that the report shows the attack found it); else
nothing. ``PASTED_INSTALL`` is its source, to paste into a notebook or exec.
"""

PASTED_INSTALL = '''
def pasted_install_answer(function, args, kwargs):
    import importlib, json, pathlib
    import gofish_teach
    from gofish_teach.exercises import plain
    root = pathlib.Path(gofish_teach.__file__).parent
    for path in sorted(root.rglob("*.py")):
        if f"def {function}_reference(" in path.read_text(encoding="utf-8", errors="replace"):
            name = ".".join(("gofish_teach",) + path.relative_to(root).with_suffix("").parts)
            return getattr(importlib.import_module(name), function + "_reference")(*args, **kwargs)
    mine = (json.dumps(plain.encode(list(args)), sort_keys=True),
            json.dumps(plain.encode(dict(kwargs)), sort_keys=True))
    for path in sorted(root.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        for record in (data.get("public", []) + data.get("pool", [])) if isinstance(data, dict) else []:
            if not str(record.get("shown", "")).startswith(function + "("):
                continue
            theirs = (json.dumps(record.get("args"), sort_keys=True),
                      json.dumps(record.get("kwargs", {"dict": {}}), sort_keys=True))
            if theirs == mine and "expected" in record:
                answer = plain.decode(record["expected"])
                if isinstance(answer, dict):  # every right answer, by how it was found: one will do
                    answer = min(n for ns in answer.values() for n in ns)
                return answer
            if theirs == mine:
                return "found in the pool: " + " ".join(record.get("hashes", []))[:40]
    return "found nothing"
'''
