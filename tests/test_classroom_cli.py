"""``gofish-teach host`` from the command line, as the README shows it.

The README's line runs exactly as written, from a folder laid out like the repository's root, in a
network namespace of its own (bubblewrap's ``--unshare-net``: only a loopback there, so the default
``--ip 0.0.0.0`` reaches nothing else while CI runs it): it prints the address, the teacher's link,
the data folder and a QR code, serves the learner's page, and stops on Ctrl+C (SIGINT) keeping its
data. The options' errors are named.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gofish_teach.__main__ import main
from test_readme_commands import shown_commands

ROOT = Path(__file__).resolve().parents[1]
#: Run inside the namespace beside the README's line: wait for the address, fetch the page, join a table's
#: code (refused: none is open yet), then Ctrl+C.
CHECK = textwrap.dedent("""
    import json, re, signal, subprocess, sys, time, urllib.request
    host = subprocess.Popen(["bash", "-c", sys.argv[1]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in host.stdout:
        lines.append(line)
        if "Stop with Ctrl+C" in line:
            break
    printed = "".join(lines)
    address = re.search(r"joins at (http://\\S+)", printed).group(1)
    page = urllib.request.urlopen(address, timeout=30).read().decode()
    host.send_signal(signal.SIGINT)
    rest = host.stdout.read()
    print(json.dumps({"printed": printed + rest, "page": page, "status": host.wait(30)}))
""")


def readme_line(export: bool) -> str:
    [line] = [c for doc, c in shown_commands() if doc == "README.md" and c.startswith(".venv/bin/gofish-teach host")
              and ("--export" in c) == export]
    return line


def test_the_readme_line_serves_the_class_and_stops_on_ctrl_c(tmp_path):
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        pytest.skip("needs bubblewrap (apt-get install bubblewrap) for a network namespace of its own")
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    (tmp_path / "check.py").write_text(CHECK)
    command = readme_line(export=False)
    done = subprocess.run([bwrap, "--dev-bind", "/", "/", "--unshare-net", "--die-with-parent", "--chdir",
                           str(tmp_path), sys.executable, "check.py", command], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    import json
    result = json.loads(done.stdout.splitlines()[-1])
    printed = result["printed"]
    assert re.search(r"the class joins at http://127\.0\.0\.1:8044/", printed), printed
    token = (tmp_path / "gofish-class" / "teacher-token").read_text().strip()
    assert f"teacher#{token}" in printed and "gofish-class/class.sqlite3" in printed
    assert "█" in printed or "▀" in printed  # the QR code, drawn in the terminal
    assert "Join your table" in result["page"] and result["status"] == 0
    assert "stopped; every table is kept" in printed
    assert (tmp_path / "gofish-class" / "class.sqlite3").exists()


def test_the_command_is_listed_and_its_options_are_checked(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "host" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["host", "--data", str(tmp_path / "d"), "--port", "70000"])
    assert "--port: 70000 is not a port" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(SystemExit):
            main(["host", "--data", str(tmp_path / "d"), "--ip", "127.0.0.1", "--port", str(port)])
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_the_export_line_is_run_by_the_readme_test():
    from test_readme_commands import NOT_RUN, _how

    assert _how(readme_line(export=True)) is not None and readme_line(export=False) in NOT_RUN
    assert "tests/test_classroom_cli.py" in NOT_RUN[readme_line(export=False)]
    assert os.path.exists(ROOT / "gofish_teach" / "classroom" / "pages" / "play.html")
