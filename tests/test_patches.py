"""railkit.patches: every patch of another library's private API checks the library's version first and
fails loudly, naming the library, the versions expected and the version found, instead of a lesson that silently misbehaves."""

from __future__ import annotations

import argparse
import gettext

import pytest

from railkit import patches
from railkit.patches import LibraryChanged


def test_the_installed_libraries_are_the_ones_the_patches_were_written_for():
    import ipywidgets

    assert patches.check("python", "argparse") and patches.check("ipywidgets", "Widget") == ipywidgets.__version__
    assert hasattr(ipywidgets.Widget, "_handle_control_comm_msg") and hasattr(argparse, "_")


@pytest.mark.parametrize(("library", "found"), [("ipywidgets", "8.2.0"), ("ipywidgets", "9.0.0"), ("python", "3.15.0"),
                                                ("pyodide-kernel", "0.8.1")])
def test_another_version_fails_loudly_naming_library_expected_and_found(library, found):
    with pytest.raises(LibraryChanged) as caught:
        patches.check(library, "its private thing", found)
    text = str(caught.value)
    assert library in text and "its private thing" in text and "railkit/patches.py" in text
    assert all(f"{series}.x" in text for series in patches.SUPPORTED[library])
    assert found in text and caught.value.library == library and caught.value.found == found


def test_a_library_that_is_not_installed_fails_loudly(monkeypatch):
    monkeypatch.setattr(patches, "installed_version", lambda library: None)
    with pytest.raises(LibraryChanged, match=r"found ipywidgets \(not installed\)"):
        patches.check("ipywidgets", "Widget._handle_control_comm_msg")


def test_a_release_of_a_supported_series_passes():
    assert patches.supported("ipywidgets", "8.1.9") and patches.supported("ipywidgets", "8.1")
    assert not patches.supported("ipywidgets", "8.10.0") and not patches.supported("ipywidgets", "18.1.0")


class FakeWidget:
    seen: list[dict] = []

    @classmethod
    def _handle_control_comm_msg(cls, msg):
        cls.seen.append(msg)


def test_the_control_comm_hook_runs_after_ipywidgets_and_refuses_another_version(monkeypatch):
    heard = []
    patches.after_control_message(FakeWidget, heard.append)
    FakeWidget._handle_control_comm_msg({"method": "request_states"})
    assert FakeWidget.seen == heard == [{"method": "request_states"}]
    monkeypatch.setattr(patches, "installed_version", lambda library: "9.0.0")
    with pytest.raises(LibraryChanged, match=r"ipywidgets's Widget._handle_control_comm_msg.*found ipywidgets 9\.0\.0"):
        patches.after_control_message(FakeWidget, heard.append)


def test_a_method_gone_from_a_supported_version_fails_loudly():
    class Gone:
        pass

    with pytest.raises(LibraryChanged, match="missing: _handle_control_comm_msg"):
        patches.after_control_message(Gone, print)


def test_argparse_speaks_the_catalog_inside_the_block_only():
    class Finnish(gettext.NullTranslations):
        def gettext(self, message):
            return {"usage: ": "käyttö: "}.get(message, message)

    parser = argparse.ArgumentParser(prog="tool")
    with patches.argparse_speaking(Finnish().gettext, Finnish().ngettext):
        assert parser.format_usage().startswith("käyttö: tool")
    assert parser.format_usage().startswith("usage: tool")


def test_browser_comm_data_sends_null_for_none(monkeypatch):
    null = object()

    class Comm:
        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            return msg_type, data

    monkeypatch.setattr(patches, "installed_version", lambda library: "0.7.0")
    patches.send_nulls_in_comm_data(Comm, null)
    patches.send_nulls_in_comm_data(Comm, null)  # once only
    assert Comm().publish_msg("comm_msg", {"state": {"display": None, "children": [None, 1]}}) == (
        "comm_msg", {"state": {"display": null, "children": [null, 1]}})
    assert Comm().publish_msg("comm_close") == ("comm_close", None)

    class NewerComm(Comm):
        pass

    NewerComm.publish_msg = lambda self, *a, **k: None  # not yet patched
    monkeypatch.setattr(patches, "installed_version", lambda library: "0.8.0")
    with pytest.raises(LibraryChanged, match="pyodide-kernel"):
        patches.send_nulls_in_comm_data(NewerComm, null)
