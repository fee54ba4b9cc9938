"""The command-line tools speak RAILKIT_LANG's language from start to end: their --help,
argparse's own words, the errors and the report; numbers as the language writes them."""

import argparse
import inspect

import pytest

from railkit.capecairo import deck_check
from railkit.capecairo.__main__ import main as kk_tools
from railkit.cli import ARGPARSE_WORDS, Voice, speaking
from railkit.unionpacific import board_check
from railkit.unionpacific.__main__ import main as up_tools

ENGLISH_WORDS = ("usage:", "positional arguments", "options:", "show this help message and exit", "Check a", "file")
HELP_WORDS = {  # the translated words each help must show
    "fi": ("käyttö:", "sijaintiargumentit", "valitsimet:", "näytä tämä ohje ja lopeta", "tiedosto", "1 000 000 tavua"),
    "hu": ("használat:", "pozicionális argumentumok", "kapcsolók:", "megjeleníti ezt a súgót", "fájl", "1 000 000 bájt"),
    "es": ("uso:", "argumentos posicionales", "opciones:", "muestra esta ayuda y termina", "archivo",
           "1.000.000 bytes"),
}
TOOLS = {"check-board": board_check.main, "check-deck": deck_check.main}


def run(tool, args, capsys):
    with pytest.raises(SystemExit) as stop:
        tool(args)
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


@pytest.mark.parametrize("name", sorted(TOOLS))
@pytest.mark.parametrize("lang", sorted(HELP_WORDS))
def test_a_tools_help_is_in_the_chosen_language(lang, name, monkeypatch, capsys):
    monkeypatch.setenv("RAILKIT_LANG", lang)
    code, out, _ = run(TOOLS[name], ["--help"], capsys)
    assert code == 0
    out = out.replace("\xa0", " ")  # Finnish and Hungarian group digits with a no-break space
    for word in HELP_WORDS[lang]:
        assert word in out, (word, out)
    flat = " ".join(out.split())
    for word in ENGLISH_WORDS:
        assert word not in flat, (word, out)


@pytest.mark.parametrize("lang", sorted(HELP_WORDS))
def test_a_wrong_command_line_is_refused_in_the_chosen_language(lang, monkeypatch, capsys):
    monkeypatch.setenv("RAILKIT_LANG", lang)
    code, _, err = run(board_check.main, [], capsys)
    assert code == 2  # argparse's exit code for a wrong command line
    assert "the following arguments are required" not in err
    assert lang == "es" or "error:" not in err  # "error" is Spanish too
    assert HELP_WORDS[lang][4] in err  # names the missing FILE in the language
    code, _, err = run(deck_check.main, ["a.json", "b.json"], capsys)
    assert code == 2 and "b.json" in err and "unrecognized arguments" not in err


def test_argparse_is_put_back_after_a_tool_has_spoken(monkeypatch, capsys):
    monkeypatch.setenv("RAILKIT_LANG", "fi")
    before = argparse._, argparse.ngettext
    run(board_check.main, ["--help"], capsys)
    assert (argparse._, argparse.ngettext) == before
    assert "usage:" in argparse.ArgumentParser(prog="x").format_usage()


def test_speaking_puts_argparse_back_when_the_block_fails():
    before = argparse._
    with pytest.raises(RuntimeError), speaking(Voice("hu")):
        assert argparse._("options") == "kapcsolók"
        raise RuntimeError
    assert argparse._ is before


def test_english_and_unknown_languages_speak_english(monkeypatch, capsys):
    for value in ("", "en", "xx", "../../etc", "fi/../hu", "f" * 40):
        monkeypatch.setenv("RAILKIT_LANG", value)
        assert Voice.chosen() == Voice("en")
        code, out, _ = run(deck_check.main, ["--help"], capsys)
        assert code == 0 and "positional arguments" in out and "1,000,000 bytes" in out


def test_every_argparse_word_railkit_translates_is_argparses_own():
    # If a new Python rewords argparse, this fails and ARGPARSE_WORDS (and the catalogs) need the new words.
    source = inspect.getsource(argparse)
    for word in ARGPARSE_WORDS:
        assert f"_({word!r})" in source or f"_('{word}')" in source, word


@pytest.mark.parametrize(("tools", "tool"), [(up_tools, "check-board"), (kk_tools, "check-deck")])
def test_a_games_tools_list_is_in_the_chosen_language(tools, tool, monkeypatch, capsys):
    monkeypatch.setenv("RAILKIT_LANG", "fi")
    assert tools(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("käyttö: python -m railkit.") and "työkalut:" in out and tool in out and "tarkista" in out
    assert tools(["no-such-tool"]) == 2
    assert "käyttö:" in capsys.readouterr().err


def test_a_report_is_in_the_chosen_language_with_its_numbers(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("RAILKIT_LANG", "es")
    broken = tmp_path / "deck.json"
    broken.write_bytes(b"x" * 1_000_001)
    assert deck_check.main([str(broken)]) == 1
    err = capsys.readouterr().err
    assert "1.000.000" in err and "1,000,000" not in err and "problem found" not in err
