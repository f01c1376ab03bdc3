"""Why bubblewrap could not make its sandbox on this machine, and how a teacher fixes it.

bwrap can be installed and still unable to start: it needs new namespaces (a user namespace
first, for an account that is not root), and three common settings refuse them. The grader and
the tournament try bwrap once before any learner's code runs (:func:`gofish_teach.trust.jail.resolve`);
when it fails they stop with bwrap's own words and :func:`explain`'s text, so that a machine's
setup is never mistaken for a learner's error.

>>> text = explain("bwrap: setting up uid map: Permission denied", machine={"apparmor": "1"})
>>> "kernel.apparmor_restrict_unprivileged_userns is 1 here" in text and "/etc/apparmor.d/bwrap" in text
True
>>> "user.max_user_namespaces" in explain("bwrap: Creating new namespace failed: No space left on device", machine={})
True
"""
from __future__ import annotations

import os

#: Each likely cause: (its name, what says it is this one on a machine, the fix).
CAUSES = (
    ("apparmor",
     "Ubuntu 23.10 and later restrict unprivileged user namespaces with AppArmor "
     "(kernel.apparmor_restrict_unprivileged_userns = 1)",
     "give bwrap an AppArmor profile that allows them: write /etc/apparmor.d/bwrap holding\n"
     "      abi <abi/4.0>,\n      include <tunables/global>\n"
     "      profile bwrap /usr/bin/bwrap flags=(unconfined) {\n        userns,\n      }\n"
     "    then `sudo apparmor_parser -r /etc/apparmor.d/bwrap` (or, for every program at once, "
     "`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`)"),
    ("seccomp",
     "a container (Docker, Podman, a CI runner) whose seccomp filter refuses new namespaces",
     "run the container with `--security-opt seccomp=unconfined` (or a seccomp profile that allows "
     "clone, clone3 and unshare with namespace flags), or grade outside the container"),
    ("namespaces",
     "new namespaces are switched off: user.max_user_namespaces (or another user.max_*_namespaces) is 0",
     "`sudo sysctl -w user.max_user_namespaces=15000` (and the same for any other max_*_namespaces at 0), "
     "kept across restarts in a file of /etc/sysctl.d/"),
    ("debian",
     "older Debian kernels switch unprivileged user namespaces off (kernel.unprivileged_userns_clone = 0)",
     "`sudo sysctl -w kernel.unprivileged_userns_clone=1`"),
    ("old",
     "bubblewrap older than 0.5 (it has no --size)",
     "install a newer bubblewrap (0.5 or later), from your distribution's backports or from source"),
)


def machine() -> dict:
    """What this machine says about each cause (the raw values; missing files are left out)."""
    found = {}
    for key, path in (("apparmor", "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
                      ("debian", "/proc/sys/kernel/unprivileged_userns_clone")):
        value = _read(path)
        if value is not None:
            found[key] = value
    zero = [name for name in _listdir("/proc/sys/user") if name.startswith("max_") and name.endswith("_namespaces")
            and _read(f"/proc/sys/user/{name}") == "0"]
    if zero:
        found["namespaces"] = zero
    status = _read("/proc/self/status") or ""
    if any(line.split()[1:] == ["2"] for line in status.splitlines() if line.startswith("Seccomp:")):
        found["seccomp"] = "this process runs under a seccomp filter"
    elif os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv"):
        found["seccomp"] = "this machine is a container"
    return found


def explain(stderr: str, machine: dict | None = None) -> str:
    """The likely causes of bwrap's failure (``stderr``: its own words), those this machine shows first,
    each with its fix."""
    seen = globals()["machine"]() if machine is None else machine
    words = stderr.lower()
    likely = []
    if seen.get("apparmor") == "1":
        likely.append(("apparmor", "kernel.apparmor_restrict_unprivileged_userns is 1 here"))
    if seen.get("namespaces"):
        likely.append(("namespaces", "here " + ", ".join(f"user.{n}" for n in seen["namespaces"]) + " = 0"))
    if seen.get("debian") == "0":
        likely.append(("debian", "kernel.unprivileged_userns_clone is 0 here"))
    if "uid map" in words and "permission denied" in words and seen.get("apparmor") != "1":
        likely.append(("apparmor", "bwrap's 'setting up uid map: Permission denied' is what that restriction gives"))
    if seen.get("seccomp"):
        likely.append(("seccomp", seen["seccomp"]))
    elif "operation not permitted" in words:
        likely.append(("seccomp", "bwrap's 'Operation not permitted' is what a seccomp filter gives"))
    if ("no space left" in words or "enospc" in words) and not any(k == "namespaces" for k, _ in likely):
        likely.append(("namespaces", "bwrap's ENOSPC is what a namespace limit of 0 gives"))
    if "unknown option" in words or "unrecognized option" in words:
        likely.append(("old", "bwrap did not know one of the options it was given"))
    lines = []
    named = [k for k, _ in likely]
    for key, why, fix in sorted(CAUSES, key=lambda c: named.index(c[0]) if c[0] in named else len(named)):
        mark = dict(likely).get(key)
        lines.append(f"  - {why}{' (LIKELY: ' + mark + ')' if mark else ''}: {fix}")
    return "Likely causes, each with its fix:\n" + "\n".join(lines)


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def _listdir(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []
