"""``python -m gofish_teach.trust``: which count this machine gives learners' sandboxes (a cgroup each, or the
fallback), in a sentence."""
from .cgroup import describe

if __name__ == "__main__":
    print(describe())
