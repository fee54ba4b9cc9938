"""railkit.ui.i18n: one translation function for all app text."""

import pytest

from railkit.ui import i18n
from railkit.ui.i18n import tr


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")


def test_english_is_the_identity_and_fills_placeholders():
    assert i18n.get_language() == "en"
    assert tr("Pay out") == "Pay out"
    assert tr("{player} receives {amount}", player="Ann", amount=5) == "Ann receives 5"


def test_a_registered_language_translates_and_falls_back_to_english():
    i18n.register_catalogue("fi-test", {"Pay out": "Maksa", "{player} receives {amount}": "{player} saa {amount}"})
    i18n.set_language("fi-test")
    assert tr("Pay out") == "Maksa"
    assert tr("{player} receives {amount}", player="Ann", amount=5) == "Ann saa 5"
    assert tr("Quiz") == "Quiz"  # missing key: English
    assert "fi-test" in i18n.available_languages()


def test_unknown_language_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="registered: .*en"):
        i18n.set_language("xx-none")


def test_a_broken_translation_falls_back_instead_of_crashing_and_is_reported():
    i18n.register_catalogue("broken-test", {"{player} receives {amount}": "{pelaaja} saa {amount}"})
    i18n.set_language("broken-test")
    assert tr("{player} receives {amount}", player="Ann", amount=5) == "Ann receives 5"
    assert i18n.check_catalogue("broken-test")


def test_apps_take_their_text_from_tr(monkeypatch):
    """Switching language changes app text without touching the app (the hook works end to end)."""
    i18n.register_catalogue("es-test", {"Pay out": "Pagar", "Calculator": "Calculadora"})
    i18n.set_language("es-test")
    from railkit.ui.unionpacific.dividends import DividendsApp

    app = DividendsApp(seed=1)
    assert app.pay_button.description == "Pagar"
    assert app.tabs.get_title(0) == "Calculadora"
