"""The ``make run`` launcher's words (railkit/ui/voila_template/launch.py), without starting anything: Voila's own
"running at" banner is left out (its address is a blank page), every other line passes whole, the exit of a child is
said in words, ``VOILA_ARGS`` reach Voila. The launcher with its real children: tests/notebooks/test_make_run.py."""

from __future__ import annotations

import selectors
import signal
import subprocess
import sys

from railkit.ui.voila_template import launch


def test_voilas_banner_is_left_out_and_every_other_line_passes(capsys):
    voila = launch.Child("Voila", ["voila"], {})
    for line in ("[RoomVoila] Room: at most 40 kernels", "[RoomVoila] Voilà is running at:", "http://127.0.0.1:8866/",
                 "[RoomVoila] Kernel pool of index.ipynb is filled with 1 kernel(s)", "http://example.org/ in a log"):
        voila.show(line)
    shown = capsys.readouterr().out.splitlines()
    assert shown == ["[RoomVoila] Room: at most 40 kernels",
                     "[RoomVoila] Kernel pool of index.ipynb is filled with 1 kernel(s)", "http://example.org/ in a log"]
    assert voila.seen == [launch.INDEX_READY]


def test_a_childs_output_is_passed_on_in_whole_lines_to_its_end(capsys):
    child = launch.Child("a child", [sys.executable, "-c", "import sys; sys.stdout.write('one\\ntwo\\nthree')"], {})
    selector = selectors.DefaultSelector()
    child.start(selector)
    assert child.proc is not None and child.proc.wait(30) == 0
    while selector.get_map():
        for key, _ in selector.select(5):
            key.data.read(key.fileobj, selector)
    assert capsys.readouterr().out.splitlines() == ["one", "two", "three"]


def test_how_a_child_ended_is_said_in_words():
    assert launch.how_it_ended(-signal.SIGKILL) == "killed by signal SIGKILL"
    assert launch.how_it_ended(2) == "exit code 2"


def test_the_arguments_after_the_separator_go_to_voila():
    args, extra = launch.parse(["--db", "sqlite:///t.sqlite", "--teacher-key-file", "k", "--saves-dir", "g",
                                "--port", "9000", "--", "--Room.per_visitor=30", "--port=1"])
    assert (args.port, args.tables_port, args.db) == (9000, 8867, "sqlite:///t.sqlite")
    assert extra == ["--Room.per_visitor=30", "--port=1"]


def test_the_learners_link_names_an_address_others_can_reach():
    assert launch.reachable_host("127.0.0.1") == "127.0.0.1"
    assert launch.reachable_host("192.168.1.20") == "192.168.1.20"
    assert launch.reachable_host("0.0.0.0") not in ("0.0.0.0", "")  # this machine's address on its network


def test_the_launcher_stops_with_a_clear_word_when_a_port_is_taken(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "railkit.ui.voila_template.launch", "--db",
                               f"sqlite:///{tmp_path / 't.sqlite'}", "--teacher-key-file", str(tmp_path / "teacher.key"),
                               "--saves-dir", str(tmp_path / "games"), "--tables-port", str(port), "--port", "1"],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and f"TABLES_PORT={port} is taken by another program" in done.stdout, done.stdout
