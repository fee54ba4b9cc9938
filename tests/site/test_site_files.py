"""What the static site ships for a fast kernel start, checked on the built site and
on tools/site's parts, without a browser (the second-lesson check with one is at the end)."""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest
from site_helpers import ROOT, SiteServer, build_site, guard_offline, open_lesson, page_url

TOOLS = ROOT / "tools" / "site"
# The packages the kernel would otherwise install with micropip/piplite after Pyodide started
# (jupyterlite-pyodide-kernel 0.7.0: initPackageManager and initKernel skip what "packages" lists).
KERNEL_INSTALLS = {"piplite", "ipykernel", "pyodide_kernel", "ipython", "comm", "jedi", "sqlite3"}


def _module(name: str):
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location(f"railkit_site_{name}", TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site() -> Path:
    try:
        return build_site()
    except (RuntimeError, OSError) as exc:
        pytest.fail(f"the static site could not be built: {exc}")


@pytest.mark.build
def test_standard_library_is_compiled(site):
    """python_stdlib.zip: bytecode only (zipimport cannot cache compiled modules, so sources were
    compiled again by every page), folders kept for namespace packages."""
    with zipfile.ZipFile(site / "static" / "pyodide" / "python_stdlib.zip") as z:
        names = z.namelist()
    modules = [n for n in names if n.endswith((".py", ".pyc"))]
    assert "pydoc.pyc" in names and "json/__init__.pyc" in names
    assert [n for n in modules if n.endswith(".py")] == []
    assert any(n.endswith("/") for n in names)


@pytest.mark.build
def test_kernel_packages_are_preloaded(site):
    """Every package the kernel asks for at start is in the site's lock and in the packages Pyodide
    loads with itself, so no micropip install runs when a lesson opens."""
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    packages = set(settings["loadPyodideOptions"]["packages"])
    assert KERNEL_INSTALLS | {"micropip", "railkit"} <= packages
    locked = {name.replace("-", "_") for name in lock["packages"]}
    assert {p.replace("-", "_") for p in packages} <= locked
    for entry in lock["packages"].values():
        assert (site / "static" / "pyodide" / entry["file_name"]).is_file()


@pytest.mark.build
def test_shipped_wheels_defer_what_a_start_does_not_need(site):
    folder = site / "static" / "pyodide"
    with zipfile.ZipFile(next(folder.glob("piplite-*.whl"))) as z:
        assert {"piplite/piplite.pyc", "piplite/_piplite.pyc"} <= set(z.namelist())
    with zipfile.ZipFile(next(folder.glob("pyodide_kernel-*.whl"))) as z:
        assert not [n for n in z.namelist() if n.endswith(".py")], "the kernel's wheel is byte-compiled"
        assert b"path_importer_cache" in z.read("pyodide_kernel/__init__.pyc")  # no finder for /drive
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    assert "prompt-toolkit" in lock and "prompt-toolkit" not in lock["ipython"]["depends"]


def test_patches_apply_and_fail_loudly():
    wheels = _module("wheels")
    init = b'"""IPython"""\nfrom .core.application import Application\nfrom .terminal.embed import embed\n'
    out = wheels.patched("ipython", {"IPython/__init__.py": init})
    text = out["IPython/__init__.py"].decode()
    assert "from .terminal.embed import embed\n" not in text and "def embed(" in text
    with pytest.raises(SystemExit, match="no longer contains"):
        wheels.patched("ipython", {"IPython/__init__.py": b"import sys\n"})
    out = wheels.patched("piplite", {"piplite/piplite.py": b"import micropip\n", "piplite/__init__.py": b""})
    assert out["piplite/_piplite.py"] == b"import micropip\n"
    assert b"import micropip" not in out["piplite/piplite.py"]


def test_lazy_piplite_hands_its_settings_to_the_real_module(monkeypatch):
    """The small piplite.piplite: settings kept, the real module (and micropip) loaded at install."""
    wheels = _module("wheels")
    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp) / "piplite"
        pkg.mkdir()
        (pkg / "__init__.py").write_text("from .piplite import install\n")
        (pkg / "piplite.py").write_text(wheels.LAZY_PIPLITE)
        (pkg / "_piplite.py").write_text("_PIPLITE_URLS = []\nasync def install(name):\n    return (name, _PIPLITE_URLS)\n")
        monkeypatch.syspath_prepend(tmp)
        for name in [m for m in sys.modules if m == "piplite" or m.startswith("piplite.")]:
            monkeypatch.delitem(sys.modules, name)
        import piplite.piplite as shim
        assert "piplite._piplite" not in sys.modules
        with pytest.raises(AttributeError):
            shim.__path__  # noqa: B018 - a probe must not load the real module
        assert "piplite._piplite" not in sys.modules
        shim._PIPLITE_URLS = ["./all.json"]
        with pytest.raises(StopIteration) as done:  # the coroutine, run by hand (a test session may
            shim.install("x").send(None)             # already have an event loop running)
        assert done.value.value == ("x", ["./all.json"])
        for name in [m for m in sys.modules if m == "piplite" or m.startswith("piplite.")]:
            del sys.modules[name]


@pytest.mark.build
@pytest.mark.server
def test_server_sends_cache_headers(site):
    serve = _module("serve")
    server = serve.make_server(site, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        wasm = urllib.request.urlopen(urllib.request.Request(base + "/static/pyodide/pyodide.asm.wasm",
                                                             headers={"Accept-Encoding": "gzip"}))
        assert wasm.headers["Content-Encoding"] == "gzip"
        assert wasm.headers["Cache-Control"] == f"public, max-age={serve.MAX_AGE}"
        page = urllib.request.urlopen(base + "/voici/render/up_dividends.html")
        assert page.headers["Cache-Control"] == f"public, max-age={serve.MAX_AGE}"
        wheel = next((site / "static" / "pyodide").glob("railkit-*.whl")).name
        again = urllib.request.Request(base + f"/static/pyodide/{wheel}",
                                       headers={"If-Modified-Since": page.headers["Last-Modified"]})
        with pytest.raises(urllib.error.HTTPError) as not_modified:
            urllib.request.urlopen(again)
        assert not_modified.value.code == 304
    finally:
        server.shutdown()
        server.server_close()
    assert serve.cache_control("/x/352.ff006a8ce85afde3c485.js?v=ff006a8ce85afde3c485").endswith("immutable")
    assert serve.cache_control("/x/remoteEntry.a117bd216cefa0b341fe.js").endswith("immutable")
    assert "immutable" not in serve.cache_control("/static/pyodide/railkit-0.1.0-py3-none-any.whl")


@pytest.mark.browser
@pytest.mark.build
@pytest.mark.server
@pytest.mark.xdist_group("site")
def test_second_lesson_comes_from_the_cache_and_installs_nothing(site, browser):
    """Two lessons in one browser context: the second downloads almost nothing (Pyodide, the wheels
    and the JavaScript come from the HTTP cache) and its kernel installs nothing with piplite."""
    server = SiteServer(site)
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    offline = guard_offline(context, route=False)  # routing would turn the HTTP cache off
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    try:
        for i, notebook in enumerate(("up_dividends.ipynb", "kk_auction.ipynb")):
            server.sent.clear()
            requested.clear()
            page = context.new_page()
            open_lesson(page, page_url(server.base, notebook), notebook)
            assert not [u for u in requested if "/static/pypi/" in u], "the kernel installed packages with piplite"
            if i:
                assert sum(server.sent.values()) < 1_000_000, server.sent.most_common(5)
            page.close()
    finally:
        context.close()
        server.stop()
    assert not offline.blocked
