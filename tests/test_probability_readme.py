"""Every ``>>>`` example in gofish_teach/probability/README.md runs and prints what it says:
the worked example's numbers are checked, not just quoted."""
from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "gofish_teach" / "probability" / "README.md"


def test_the_pipeline_walkthrough_runs_as_written():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 7  # the worked example, stage by stage
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, README.name, str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0 and test.examples, "".join(failures)
