"""railkit's Voila runs lessons in the lean ``railkit-lesson`` kernel: ipykernel without debugpy (less memory
per learner), installed by ``python -m railkit.ui.voila_template`` and chosen by ``RailkitKernelManager``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading

import pytest
from jupyter_client.kernelspec import KernelSpecManager

from railkit.ui.voila_template import install_kernel
from railkit.ui.voila_template.kernels import RailkitKernelManager
from railkit.ui.voila_template.lesson_kernel import KERNEL_NAME


def manager_with_specs(tmp_path, lesson: bool) -> RailkitKernelManager:
    data = tmp_path / "share" / "jupyter"
    if lesson:
        install_kernel(tmp_path)
    specs = KernelSpecManager(kernel_dirs=[str(data / "kernels")], ensure_native_kernel=True)
    return RailkitKernelManager(kernel_spec_manager=specs)


def test_the_kernel_spec_runs_the_lesson_kernel_module(tmp_path):
    folder = install_kernel(tmp_path)
    spec = json.loads((folder / "kernel.json").read_text())
    assert folder.name == KERNEL_NAME
    assert spec["argv"][:3] == ["python", "-m", "railkit.ui.voila_template.lesson_kernel"]
    assert "{connection_file}" in spec["argv"] and spec["language"] == "python"


@pytest.mark.parametrize("asked", [None, "python3"])
def test_a_python_notebook_gets_the_lesson_kernel_when_it_is_installed(tmp_path, asked):
    assert manager_with_specs(tmp_path, lesson=True).lesson_kernel_name(asked) == KERNEL_NAME


def test_without_the_spec_the_notebook_keeps_its_own_kernel(tmp_path):
    assert manager_with_specs(tmp_path, lesson=False).lesson_kernel_name("python3") == "python3"


def test_another_language_keeps_its_kernel(tmp_path):
    assert manager_with_specs(tmp_path, lesson=True).lesson_kernel_name("ir") == "ir"


@pytest.mark.kernel
def test_a_started_lesson_kernel_runs_without_debugpy(tmp_path):
    """Started the way Voila starts it, the kernel answers and has not imported debugpy."""
    from jupyter_client.manager import AsyncKernelManager

    install_kernel(tmp_path)
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "share" / "jupyter" / "kernels")])

    async def run() -> str:
        km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs)
        await km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=60)
            out: list[str] = []
            await kc.execute_interactive(
                "import sys; print(sys.modules.get('debugpy', 'absent'), 'ipykernel' in sys.modules)",
                timeout=60, output_hook=lambda m: out.append(m["content"].get("text", "")))
            return "".join(out).strip()
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)

    # Its own thread and event loop: another test in this worker may have left a loop running here.
    result: list[str] = []
    thread = threading.Thread(target=lambda: result.append(asyncio.run(run())))
    thread.start()
    thread.join(timeout=120)
    assert result == ["None True"]  # debugpy blocked (None in sys.modules), ipykernel running


def test_the_culler_passes_over_a_kernel_shut_down_meanwhile(tmp_path):
    """The culler walks a list of kernels taken before its awaits: one shut down meanwhile (its page closed, a reload)
    is passed over, not a "404 Kernel does not exist" traceback in the teacher's terminal; nor is it remembered."""
    manager = manager_with_specs(tmp_path, lesson=False)
    # its own thread: a loop another test left running in this worker's thread would refuse asyncio.run here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, manager.cull_kernel_if_idle("a-kernel-shut-down-meanwhile")).result(timeout=60)
    assert "a-kernel-shut-down-meanwhile" not in manager._handed_out
    manager._restart_idle_clock("a-kernel-shut-down-meanwhile")  # a page's late disconnect: nothing to do either
